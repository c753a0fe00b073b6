// The load testbed's analysis on synthetic records whose answers are known: what limits a cell,
// where the knee is, near ties between formats, the conclusions' counts, and the report files.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { cellRows, formatVerdict, limitOf, makeLoadReport, plateaus, testbedClaims } from '../load-testbed-report.js';
import { temporaryDirectory } from '#common/temporary-directory.js';

const BODY = { json: 5000, cbor: 4000, xml: 7000 };

/** A record as experiments/load-testbed/run.js writes it: link-bound below `cpuRps`, flat at it above. */
function record({ format, bandwidth, round = 1, cpuRps = 300, scale = 1 }) {
  const wirePerRequest = BODY[format] * 1.05;
  const linkBps = bandwidth * 1e6;
  const linkRps = linkBps / 8 / wirePerRequest;
  const rps = Math.min(linkRps, cpuRps) * scale;
  const window = 30;
  const cpuLimited = linkRps > cpuRps;
  return {
    cell_id: `books/${format}/none/GET/10/${bandwidth}mbit`,
    round,
    cell: { object: 'books', format, compression: 'none', method: 'GET', count: 10, bandwidth_mbit: bandwidth },
    body_bytes: BODY[format],
    requests: Math.round(rps * window),
    requests_per_s: rps,
    responses: { '2xx': Math.round(rps * window), '5xx': 0 },
    non_2xx: 0,
    errors: 0,
    payload_direction: 'server_tx',
    wire_bytes_per_s: { server_tx: rps * wirePerRequest },
    link_bps: linkBps,
    link_utilization: (rps * wirePerRequest * 8) / linkBps,
    wire_bytes_per_request: wirePerRequest,
    link_bound_requests_per_s: linkRps,
    server_cpu: { cores: cpuLimited ? 1.5 : 0.3 },
    load_cpu: { cores: cpuLimited ? 0.4 : 0.1 },
    machine_cpus: 2,
    server_memory: { rss_bytes: 300 * 2 ** 20 },
    timing: { measured_window_s: window },
    wrk: { requests: Math.round(rps * (window + 5)), latency_ms: { p50: 10, p90: 20, p99: 40 } },
  };
}

const BANDWIDTHS = [1, 5, 10, 50, 100, 500, 1000];
const records = (options = {}) =>
  ['json', 'cbor', 'xml'].flatMap((format) => BANDWIDTHS.map((bandwidth) => record({ format, bandwidth, ...options })));

test('a cell is link-limited, CPU-limited or neither', () => {
  const base = { machine_cpus: 2, load_cores: 0.2 };
  assert.equal(limitOf({ ...base, link_utilization: 0.9, server_cores: 0.1 }), 'link');
  assert.equal(limitOf({ ...base, link_utilization: 0.5, server_cores: 1.6 }), 'cpu');
  assert.equal(limitOf({ ...base, link_utilization: 0.5, server_cores: 1.4 }), 'neither');
});

test('the knee is the first bandwidth that is not link-limited, the plateau the best rate from there', () => {
  const series = plateaus(cellRows(records()));
  const json = series.find((s) => s.format === 'json');
  // 300 req/s of 5,250 bytes = 12.6 Mbit/s: link-limited at 10, CPU-limited from 50.
  assert.equal(json.link_bound_up_to_mbit, 10);
  assert.equal(json.knee_mbit, 50);
  assert.equal(json.plateau_requests_per_s, 300);
  assert.equal(json.top_limit, 'cpu');
});

test('formats differ only when every round says so by more than δ', () => {
  const row = (rounds) => ({ per_round_requests_per_s: Object.fromEntries(rounds.map((v, i) => [i + 1, v])) });
  assert.equal(formatVerdict(row([106, 107]), row([100, 100])).verdict, 'holds');
  assert.equal(formatVerdict(row([104, 110]), row([100, 100])).verdict, 'open', 'one round within δ');
  assert.equal(formatVerdict(row([90, 94]), row([100, 100])).verdict, 'contradicted');
  assert.equal(formatVerdict(row([110, 90]), row([100, 100])).verdict, 'open', 'rounds disagree');
});

test("the testbed's conclusions hold on data shaped like its findings, and fail where they should", () => {
  const claims = Object.fromEntries(testbedClaims(cellRows(records())).map((c) => [c.id, c]));
  // Link-limited at ≤ 50 Mbit/s except the CPU-limited 50 Mbit/s cells: 4 bandwidths × 3 formats hold at 1–10.
  assert.equal(claims.linear.holds, 9);
  assert.equal(claims.linear.contradicted, 3);
  assert.equal(claims.plateau.holds, 9);
  assert.equal(claims.plateau.verdict, 'confirmed');
  // Smaller bodies, more requests/s where the link limits: CBOR > JSON > XML at 1, 5, 10 Mbit/s.
  assert.equal(claims.ranking.holds, 6);
  assert.equal(claims.ranking.contradicted, 0);
  assert.equal(claims.ranking.verdict, 'confirmed');

  // A near tie: XML's body as small as JSON's (within δ) leaves JSON > XML open, not confirmed or refuted.
  const tie = records().map((r) =>
    r.cell.format === 'xml' ? { ...r, requests_per_s: r.requests_per_s * (BODY.xml / BODY.json) * 0.97 } : r,
  );
  const ranking = testbedClaims(cellRows(tie)).find((c) => c.id === 'ranking');
  assert.equal(ranking.holds, 3);
  assert.equal(ranking.open, 3);
});

test('the report is made from cells.jsonl alone', async () => {
  const dir = temporaryDirectory('rtl-load-report-');
  const plan = { name: 'synthetic', rounds: 1, connections: 100, threads: 2, duration_s: 30, warmup_s: 5, waves: 3 };
  writeFileSync(join(dir, 'run.json'), JSON.stringify({ kind: 'load-testbed', plan, seed: 1, sessions: [] }));
  writeFileSync(
    join(dir, 'cells.jsonl'),
    `${records()
      .map((r) => JSON.stringify(r))
      .join('\n')}\n{"cell_id": "cut sh`,
  );
  const made = await makeLoadReport(dir);
  assert.equal(made.rows.length, 21);
  const markdown = readFileSync(made.markdown, 'utf8');
  assert.match(markdown, /CBOR > JSON > XML wherever bandwidth limits \| confirmed \| 6 \| 0 \| 0/);
  assert.match(markdown, /0 connection errors and timeouts/);
  assert.equal(readFileSync(made.csv, 'utf8').trim().split('\n').length, 22);
});

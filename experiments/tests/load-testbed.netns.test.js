// The load testbed's smoke run (as root): the server in one namespace, wrk in another, two
// bandwidths × two formats × GET and POST, a few seconds each, read back as a separate program
// would. Checks that the kernel's link limits what it should, that the server held (no errors,
// no non-2xx), and that the report is made. Skipped, with the reason, without root or wrk.

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadGroups, checkLoadPlan } from '../load-testbed/load-plan.js';
import { temporaryDirectory } from '#common/temporary-directory.js';
import { netnsSkip, runLoadTestbed } from './netns-runs.js';
import { testNamespace, testPort } from './test-resources.js';

const PARENT = temporaryDirectory('rtl-testbed-');
const PLAN = {
  name: 'testbed-test',
  description: 'two bandwidths, two formats, GET and POST of 10 Books, a few seconds each',
  // 1 Mbit/s: 40 uploads share about 3 KB/s each, and much of what they send is dropped at the
  // link's queue — at the receiving end, since a sender-side bucket makes TCP abort connections;
  // the server's idle timeout is the plans' default 300 s, since 30 s cuts uploads that TCP's
  // backoff leaves silent. One wave: each connection answers about once. Forty connections fill
  // the link as a hundred did, in cells under half as long.
  objects: ['books'],
  formats: ['json', 'cbor'],
  methods: ['GET', 'POST'],
  counts: [10],
  bandwidths_mbit: [1, 50],
  connections: 40,
  threads: 2,
  duration_s: 2,
  warmup_s: 1,
  waves: 1,
  rounds: 1,
};
const skip = netnsSkip({ wrk: true });

/** wrk's error kinds (wrk-report.lua; status: an answer ≥ 400) and the server's non-2xx classes. */
const WRK_ERRORS = ['connect', 'read', 'write', 'timeout', 'status'];
const NON_2XX = ['1xx', '3xx', '4xx', '5xx'];

/** What went wrong in a cell, kind by kind, those that occurred: "wrk read 3, timeout 1; server non-2xx 2 (5xx 2)". */
function failures(r) {
  const occurred = (counts, kinds) =>
    kinds
      .filter((kind) => counts[kind] > 0)
      .map((kind) => `${kind} ${counts[kind]}`)
      .join(', ');
  const wrk = occurred(r.wrk.errors, WRK_ERRORS);
  const classes = occurred(r.responses, NON_2XX);
  return [wrk && `wrk ${wrk}`, r.non_2xx > 0 && `server non-2xx ${r.non_2xx} (${classes})`].filter(Boolean).join('; ');
}

test('the load testbed runs a plan between two namespaces, limited by the link where it should be', { skip }, () => {
  const { runDir } = runLoadTestbed(PLAN, {
    parent: PARENT,
    name: 'closed-loop',
    namespace: testNamespace('rtl-ltest', '-lt'),
    port: testPort(18088, 4),
    timeoutMs: 300_000,
  });

  // Read back as another program would: the JSONL lines and run.json, nothing of the runner's.
  const context = JSON.parse(readFileSync(join(runDir, 'run.json'), 'utf8'));
  const records = readFileSync(join(runDir, 'cells.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.match(context.sessions[0].load_generator.tool, /^wrk /);
  const expected = loadGroups(checkLoadPlan(PLAN))
    .flatMap((g) => g.cells.map((c) => c.id))
    .sort();
  assert.deepStrictEqual(records.map((r) => r.cell_id).sort(), expected);
  // The server held: no wrk errors and no non-2xx answers in any cell. A failure names every cell
  // that had any, with each kind and its count, so that a flake can be told from a pattern.
  const failed = records.filter((r) => r.errors !== 0 || r.non_2xx !== 0);
  assert.deepStrictEqual(
    failed.map((r) => r.cell_id),
    [],
    `errors or non-2xx answers in ${failed.length} of ${records.length} cells: ` +
      failed.map((r) => `${r.cell_id}: ${failures(r)}`).join(' | '),
  );
  for (const r of records) {
    const seen = { rps: r.requests_per_s, util: r.link_utilization, errors: r.errors, responses: r.responses };
    const where = `${r.cell_id}: ${JSON.stringify(seen)}`;
    // Connections whose close the link dropped are closed between cells, not answered in a later window.
    assert.ok(Number.isInteger(r.server_connections_left), where);
    assert.ok(r.requests > 0 && r.wrk.requests >= r.requests, where);
    assert.ok(r.server_cpu.cores > 0 && r.load_cpu.cores > 0, where);
    assert.ok(r.wrk.latency_ms.p50 <= r.wrk.latency_ms.p90 && r.wrk.latency_ms.p90 <= r.wrk.latency_ms.p99, where);
    // No more bytes cross than the token bucket lets through (it passes 1–3 % over its rate as
    // the kernel counts bytes, over a window of a few seconds).
    assert.ok(r.link_utilization <= 1.06, where);
    assert.ok(r.server_memory.heap_max_bytes <= context.sessions[0].server.max_heap_mb * 2 ** 20, where);
    // The payload alone bounds requests/s: link rate ÷ body bytes (headers and framing only lower it).
    const payloadBound = (r.cell.bandwidth_mbit * 1e6) / 8 / r.body_bytes;
    assert.ok(r.requests_per_s <= payloadBound * 1.06, where);
    if (r.cell.bandwidth_mbit === 1) {
      // 40 connections of 10 Books fill 1 Mbit/s: the link limits, near its rate.
      assert.ok(r.link_utilization >= 0.85, where);
      assert.ok(r.requests_per_s >= payloadBound * 0.7, where);
    }
  }
  for (const file of ['report.html', 'report.md', 'summary.csv', 'charts/requests-per-second.svg']) {
    assert.ok(existsSync(join(runDir, file)), file);
  }
  assert.match(readFileSync(join(runDir, 'report.md'), 'utf8'), /CBOR > JSON > XML wherever bandwidth limits/);
});

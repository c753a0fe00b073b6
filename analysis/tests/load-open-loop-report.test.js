// The load report's constant-rate part, on the records of a real run (fixtures/load-run-open-loop:
// run.json and cells.jsonl as experiments/load-testbed/run.js wrote them, as root on this
// machine, GET of 10 Books as JSON and CBOR at 2 and 100 Mbit/s, two Vegeta processes sharing each
// rate; the raw Vegeta files are not kept here). The recorded searches and verdicts follow the
// rules of analysis/open-loop.js, and the report shows what the records hold.

import assert from 'node:assert/strict';
import { cpSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { makeLoadReport, readLoadRun } from '../load-testbed-report.js';
import { nextRate, probeVerdict } from '../open-loop.js';
import { temporaryDirectory } from '#common/temporary-directory.js';

const RUN = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'load-run-open-loop');

test("the recorded searches follow the search's rules, probe by probe", () => {
  const { records } = readLoadRun(RUN);
  assert.ok(records.length >= 4);
  for (const record of records) {
    const { settings, probes, result } = record.open_loop;
    for (const [index, probe] of probes.entries()) {
      const asked = nextRate(probes.slice(0, index), settings);
      assert.equal(asked.next, probe.rate_per_s, `${record.cell_id}: probe ${index + 1}`);
      const verdict = probeVerdict(probe.figures, {
        p99TargetMs: settings.p99_target_ms,
        maxSendLagMs: settings.max_send_lag_ms,
      });
      assert.equal(verdict, probe.verdict, `${record.cell_id}: probe ${index + 1}`);
      // Two generators, each asked half the rate; what they sent adds up.
      assert.deepStrictEqual(
        probe.figures.generators.map((g) => g.asked_per_s),
        [probe.rate_per_s / 2, probe.rate_per_s / 2],
      );
      assert.equal(
        probe.figures.generators.reduce((sum, g) => sum + g.sent, 0),
        probe.figures.sent,
      );
      assert.equal(probe.vegeta_report.requests, probe.figures.sent);
    }
    assert.deepStrictEqual(nextRate(probes, settings), result, record.cell_id);
  }
});

test('the report shows per bandwidth the sustained rate, its percentiles and the closed loop beside', async () => {
  const dir = temporaryDirectory('rtl-open-loop-report-');
  cpSync(RUN, dir, { recursive: true });
  const made = await makeLoadReport(dir);
  const { records } = readLoadRun(RUN);
  assert.equal(made.openRows.length, records.length);
  const markdown = readFileSync(made.markdown, 'utf8');
  assert.match(markdown, /## Sustainable rate at a constant load \(open loop\)/);
  const sections = markdown.split('\n### ');
  for (const record of records) {
    const { result, probes } = record.open_loop;
    const section = sections.find((s) => s.startsWith(`${record.cell.bandwidth_mbit} Mbit/s`));
    assert.ok(section, `${record.cell.bandwidth_mbit} Mbit/s has its own table`);
    const format = record.cell.format === 'json' ? 'JSON' : 'CBOR';
    const line = section.split('\n').find((l) => l.startsWith(`| GET 10 books | ${format} |`));
    const cells = line.split(' | ');
    const row = made.openRows.find((r) => r.cell_id === record.cell_id);
    assert.equal(row.sustained_per_s, result.sustained_per_s);
    if (result.sustained_per_s === null) {
      assert.equal(cells[2], 'none');
    } else {
      const at = probes.find((p) => p.rate_per_s === result.sustained_per_s);
      assert.equal(Number(cells[2]), result.sustained_per_s);
      assert.equal(row.at_sustained.latency_ms.p99, at.figures.latency_ms.p99);
      assert.ok(at.figures.latency_ms.p99 <= record.open_loop.settings.p99_target_ms);
    }
    assert.ok(cells[7].startsWith(result.bounded_by), line);
    assert.equal(Number(cells[8]), Number(record.requests_per_s.toFixed(1)), 'closed-loop req/s beside');
  }
  assert.match(markdown, /!\[Latency from the due time against the offered rate/);
  const errors = records.flatMap((r) => r.open_loop.probes).reduce((sum, p) => sum + p.figures.errors, 0);
  assert.match(markdown, new RegExp(`Open loop: ${errors} errors`));
  const header = readFileSync(made.csv, 'utf8').split('\n')[0];
  assert.match(header, /open_loop_sustained_per_s,open_loop_bounded_by,open_loop_p50_ms,open_loop_p99_ms/);
});

// The load testbed's constant-rate mode for real (as root): the server in one namespace, wrk and
// Vegeta in another, GET of 10 JSON Books at 2 and 100 Mbit/s, each cell measured closed-loop
// and then searched for its highest sustained rate, two Vegeta processes sharing each rate.
// Read back as another program would, and checked against Vegeta's own reading of its raw
// results: what was asked and sent, the percentiles, the server's responsiveness during each
// probe and its freeing after, a slow link's rate below what the link can carry, and the report.
// Skipped, with the reason, without root, wrk or Vegeta. The machine may be shared: no figure
// here is a performance claim. Over HTTP/2 with TLS: load-testbed-h2-rate.netns.test.js.

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { readResults, vegetaReport } from '../load-testbed/vegeta.js';
import { windowFigures } from '../../analysis/open-loop.js';
import { temporaryDirectory } from '#common/temporary-directory.js';
import { netnsSkip, runLoadTestbed } from './netns-runs.js';
import { testNamespace, testPort } from './test-resources.js';

const PARENT = temporaryDirectory('rtl-open-loop-');
const TARGET_MS = 300;
const PLAN = {
  name: 'open-loop-test',
  description: 'GET of 10 JSON Books at 2 and 100 Mbit/s, closed loop, then the constant-rate search',
  objects: ['books'],
  formats: ['json'],
  methods: ['GET'],
  counts: [10],
  bandwidths_mbit: [2, 100],
  connections: 20,
  threads: 2,
  duration_s: 2,
  warmup_s: 1,
  waves: 1,
  rounds: 1,
  // Two Vegeta processes share each rate: their results merge as several load machines' would.
  // Three probes: a search (more than one rate), bounded, which is what the checks below need.
  open_loop: { p99_target_ms: TARGET_MS, warmup_s: 1, window_s: 2, precision: 0.25, max_probes: 3, generators: 2 },
};
const skip = netnsSkip({ wrk: true, vegeta: true });

test('the constant-rate search runs between two namespaces, and its figures match the raw results', { skip }, () => {
  const { runDir, stdout } = runLoadTestbed(PLAN, {
    parent: PARENT,
    name: 'open-loop',
    namespace: testNamespace('rtl-oltest', '-ol'),
    port: testPort(18098, 10),
    timeoutMs: 600_000,
  });
  // The probes, for whoever reads a failure.
  console.log(stdout);

  const context = JSON.parse(readFileSync(join(runDir, 'run.json'), 'utf8'));
  assert.match(context.sessions[0].open_loop_generator.tool, /^vegeta v12\./);
  const records = readFileSync(join(runDir, 'cells.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.equal(records.length, 2);
  for (const record of records) {
    const { open_loop: openLoop } = record;
    const where = (what) => `${record.cell_id}: ${what}`;
    assert.ok(openLoop.probes.length >= 2, where('a search, not a single probe'));
    assert.equal(openLoop.settings.p99_target_ms, TARGET_MS);
    assert.ok(['server', 'link', 'generator', 'max_probes', 'min_per_s'].includes(openLoop.result.bounded_by));
    for (const probe of openLoop.probes) {
      const at = where(`${probe.rate_per_s} req/s`);
      // Our reading of the window's raw results, again, and Vegeta's own.
      const files = probe.files.map((f) => join(runDir, f));
      const raw = readResults(files);
      const again = windowFigures(raw, {
        ratePerS: probe.rate_per_s,
        windowS: PLAN.open_loop.window_s,
      });
      const own = vegetaReport(files);
      assert.equal(probe.figures.sent, own.requests, at);
      assert.deepStrictEqual(probe.figures.latency_ms, again.latency_ms, at);
      assert.equal(probe.vegeta_report.requests, own.requests, at);
      assert.deepStrictEqual(
        probe.figures.generators.map((g) => [g.attack, g.asked_per_s]),
        [
          ['g1', probe.rate_per_s / 2],
          ['g2', probe.rate_per_s / 2],
        ],
        at,
      );
      // Every request of the window left within it: Vegeta's span from its first send to its
      // last (requests ÷ its rate) is the window at most, give or take a second of lateness —
      // unless the machine could not generate the rate, which the probe must then say.
      if (own.requests / own.rate > PLAN.open_loop.window_s + 1)
        assert.equal(probe.verdict, 'generator-limited', `${at}: span ${own.requests / own.rate} s`);
      assert.equal(probe.figures.sent_per_s, own.requests / PLAN.open_loop.window_s, at);
      // Percentiles from the send as the raw latencies' own order statistics (to the histogram's
      // 1 %), and from the due time never below them.
      const sorted = raw.map((r) => r.latency_ns / 1e6).sort((a, b) => a - b);
      for (const p of [50, 99]) {
        const truth = sorted[Math.ceil((p / 100) * sorted.length) - 1];
        const service = probe.figures.service_latency_ms[`p${p}`];
        assert.ok(service >= truth && service <= truth * 1.01, `${at}: p${p} ${service} against ${truth}`);
        assert.ok(probe.figures.latency_ms[`p${p}`] >= truth, `${at}: p${p} from the due time`);
      }
      assert.ok(probe.figures.latency_ms.p50 <= probe.figures.latency_ms.p99, at);
      const sustained = probe.verdict === 'sustained';
      const { errors, non_2xx: non2xx, sent_share: sentShare, latency_ms: latency } = probe.figures;
      const met = errors === 0 && non2xx === 0 && sentShare >= 0.98 && latency.p99 !== null && latency.p99 <= TARGET_MS;
      assert.equal(sustained, met, at);
      // The server answered during the probe, and was freed after it.
      assert.equal(probe.responsive.status, 200, at);
      assert.ok(probe.responsive.ms < 10_000, at);
      assert.equal(probe.after.freed, true, at);
      assert.equal(probe.after.active_requests, 0, at);
      // Only the measured window's results: as many as asked for the window (when the generator kept up).
      if (probe.figures.generator_kept_up) assert.ok(probe.figures.sent_share >= 0.98, at);
    }
    const best = openLoop.result.sustained_per_s;
    if (record.cell.bandwidth_mbit === 2 && best !== null) {
      // 2 Mbit/s carries fewer answers of ~4.4 KB a second than this, headers aside; the rate above
      // the result was the link's, never called the server's.
      assert.ok(best <= (2e6 / 8 / record.body_bytes) * 1.05, `${record.cell_id}: ${best} req/s`);
      assert.notEqual(openLoop.result.bounded_by, 'server', `${record.cell_id}: ${JSON.stringify(openLoop.result)}`);
    }
  }
  const report = readFileSync(join(runDir, 'report.md'), 'utf8');
  assert.match(report, /## Sustainable rate at a constant load \(open loop\)/);
  assert.match(report, /### 2 Mbit\/s/);
  assert.match(report, /closed-loop req\/s/);
  assert.ok(existsSync(join(runDir, 'charts', 'open-loop-latency.svg')));
});

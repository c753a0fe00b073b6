import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { compareRuns, describeAgreement } from '../compare-runs.js';
import { syntheticRun } from './synthetic-run.js';

const CLI = new URL('../compare-runs-cli.js', import.meta.url).pathname;

test('two runs of the same design with other noise agree on every answer', () => {
  const a = syntheticRun({ seed: 9 });
  const b = syntheticRun({ seed: 10 });
  const result = compareRuns(a.path, b.path);
  assert.equal(result.cells.in_both, a.cells.length);
  assert.equal(result.cells.medians_moved_over_10_percent, 0);
  assert.ok(result.comparisons.resolved_in_both > 30, `${result.comparisons.resolved_in_both} resolved in both`);
  assert.equal(result.comparisons.opposite_ways, 0);
  assert.equal(result.decisions.same, result.decisions.situations);
  assert.equal(result.conclusions.same, 6);
});

test('a run in which JSON and Protobuf trade places is seen to disagree, and where', () => {
  const a = syntheticRun({ seed: 9 });
  const b = syntheticRun({ seed: 9, perObject: { json: 0.5, protobuf: 1.0, xml: 2.0 } });
  const result = compareRuns(a.path, b.path);
  assert.ok(result.cells.medians_moved_over_10_percent > 0);
  assert.ok(result.comparisons.opposite_ways > 0);
  assert.ok(result.comparisons.opposite.every((o) => /\/(json|protobuf)\//.test(o.comparison)));
  assert.ok(result.decisions.same < result.decisions.situations);
  assert.ok(result.conclusions.same < 6, 'JSON beating Protobuf unthrottled now holds');
  const lines = describeAgreement(result);
  assert.match(lines[1], /^comparisons resolved in both runs: \d+; pointing opposite ways: [1-9]/);
});

test('the command prints the figures, and refuses runs of different plans', () => {
  const a = syntheticRun({ seed: 9 });
  const b = syntheticRun({ seed: 10 });
  const run = spawnSync(process.execPath, [CLI, a.path, b.path], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /source-conclusion verdicts the same: 6 of 6/);
  const usage = spawnSync(process.execPath, [CLI, a.path], { encoding: 'utf8' });
  assert.equal(usage.status, 2);
});

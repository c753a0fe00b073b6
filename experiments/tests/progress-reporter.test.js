import assert from 'node:assert/strict';
import { test } from 'node:test';
import { whereTheTimeWent } from '../progress-reporter.js';

const time = (warmup, rounds, decision, verify, round, open) => ({
  warmup_ms: warmup,
  rounds_ms: rounds,
  decision_ms: decision,
  verify_ms: verify,
  total_ms: warmup + rounds + decision + verify,
  round_ms: round,
  open,
});

test("the run's closing lines: where the time went, what stayed open, the longest groups", () => {
  const groups = [
    { group_id: 'side/books/10000/10mbit/cm5', time: time(500_000, 40_000, 0, 1_000, 540_000, 2) },
    { group_id: 'formats/books/10/unthrottled', time: time(2_000, 30_000, 10_000, 500, 150, 1) },
    { group_id: 'caching/books/10/unthrottled/cm2/json/none', time: time(1_000, 3_000, 0, 200, 1_000, 0) },
  ];
  const lines = whereTheTimeWent(groups, 2);
  assert.match(lines[0], /^Where the time went: 9m48s in 3 groups: warm-up 8m23s \(86 %\), rounds 1m13s \(12 %\)/);
  assert.equal(lines[1], '  3 comparisons open, in 2 groups.');
  assert.match(lines[3], /side\/books\/10000\/10mbit\/cm5 {2}9m01s: warm-up 8m20s, rounds 40s, 2 open/);
  assert.equal(lines.length, 5);
  assert.deepStrictEqual(whereTheTimeWent([]), []);
});

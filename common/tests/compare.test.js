import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compareCells, mannWhitneyU, normalCdf, ratioOfMedians } from '#common/compare.js';
import { VERDICTS, verdictOf } from '#common/comparison.js';

const close = (actual, expected, tolerance) =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${actual} is not ${expected} ± ${tolerance}`);

test('the normal CDF matches its tables', () => {
  close(normalCdf(0), 0.5, 1e-7);
  close(normalCdf(1.96), 0.9750021, 1e-6);
  close(normalCdf(-2.5067), 0.0060932, 2e-6); // between the table's 0.0062097 (−2.50) and 0.0060366 (−2.51)
});

test('Mann–Whitney U: complete separation (as scipy asymptotic with continuity: p = 0.01219)', () => {
  const result = mannWhitneyU([1, 2, 3, 4, 5], [6, 7, 8, 9, 10]);
  assert.equal(result.u, 0);
  // mean 12.5, σ = √(25 · 11 / 12) = 4.7871, z = (0 − 12.5 + 0.5) / σ = −2.5067
  close(result.z, -2.5067, 1e-4);
  close(result.p, 0.012186, 2e-5);
  assert.equal(mannWhitneyU([6, 7, 8, 9, 10], [1, 2, 3, 4, 5]).u, 25);
});

test('Mann–Whitney U: ties get average ranks and the tie-corrected variance', () => {
  // ranks 1, 3, 3 | 3, 5: U = 7 − 6 = 1; σ = √(6/12 · (6 − 24/20)) = √2.4; z = (1 − 3 + 0.5)/√2.4
  const result = mannWhitneyU([1, 2, 2], [2, 3]);
  assert.equal(result.u, 1);
  close(result.z, -1.5 / Math.sqrt(2.4), 1e-9);
  close(result.p, 2 * normalCdf(-1.5 / Math.sqrt(2.4)), 1e-9);
  assert.deepStrictEqual(mannWhitneyU([4, 4], [4, 4]), { u: 2, z: 0, p: 1 });
});

test('the ratio of medians and its bootstrap CI', () => {
  const a = Array.from({ length: 60 }, (_, i) => 20 + (i % 7));
  const b = Array.from({ length: 60 }, (_, i) => 10 + (i % 5));
  const r = ratioOfMedians(a, b);
  close(r.ratio, 23 / 12, 1e-12);
  assert.ok(r.ci_low <= r.ratio && r.ratio <= r.ci_high && r.ci_low > 1.5 && r.ci_high < 2.5, JSON.stringify(r));
  assert.deepStrictEqual(ratioOfMedians(a, b), r, 'seeded: the same every time');
});

test('cells measured in rounds get the round bootstrap, and one round gives no CI and no verdict', () => {
  const cell = (id, values, round) => ({
    case_id: id,
    samples: values.map((v, i) => ({ total_ms: v, ...(round ? { round: round(i) } : {}) })),
  });
  // One round of a minute-long cell each: a 2× difference, but nothing to resample.
  const one = compareCells(
    cell('a', [40_000], () => 1),
    cell('b', [20_000], () => 1),
  );
  assert.equal(one.ratio, 2);
  assert.ok(Number.isNaN(one.ci_low) && Number.isNaN(one.ci_high), JSON.stringify(one));
  assert.deepStrictEqual([one.rounds, one.p, one.method], [1, null, 'round bootstrap (percentile)']);
  assert.equal(verdictOf(one), VERDICTS.UNRESOLVED);
  // Several samples in one round (a visit of three iterations): still no CI, not an iteration bootstrap.
  const visit = compareCells(
    cell('a', [40, 41, 42], () => 1),
    cell('b', [20, 21, 22], () => 1),
  );
  assert.ok(Number.isNaN(visit.ci_low), JSON.stringify(visit));
  assert.equal(verdictOf(visit), VERDICTS.UNRESOLVED);
  // Six rounds of one sample each: the round bootstrap's CI, and a verdict.
  const six = compareCells(
    cell('a', [40, 41, 42, 40, 41, 42], (i) => i + 1),
    cell('b', [20, 21, 22, 20, 21, 22], (i) => i + 1),
  );
  assert.ok(six.ci_low > 1.8 && six.ci_high < 2.2, JSON.stringify(six));
  assert.equal(verdictOf(six), VERDICTS.B_FASTER);
  // Samples without rounds (independent draws, as runs before comparison groups kept them).
  const independent = compareCells(cell('a', [40, 41, 42, 40, 41, 42]), cell('b', [20, 21, 22, 20, 21, 22]));
  assert.equal(independent.method, 'bootstrap (independent samples)');
  assert.ok(Number.isFinite(independent.p));
});

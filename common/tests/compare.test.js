import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mannWhitneyU, normalCdf, ratioOfMedians } from '#common/compare.js';

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

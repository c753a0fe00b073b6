import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  bootstrapMedianCI,
  mean,
  median,
  quantile,
  relativeHalfWidth,
  seededRandom,
  standardDeviation,
  summarize,
  trimmedMean2Sigma,
} from '#common/stats.js';

const close = (actual, expected, tolerance = 1e-9) =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${actual} is not ${expected} ± ${tolerance}`);

test('mean and sample standard deviation', () => {
  close(mean([2, 4, 4, 4, 5, 5, 7, 9]), 5);
  close(standardDeviation([2, 4, 4, 4, 5, 5, 7, 9]), 2.138089935299395); // numpy std(ddof=1)
  assert.equal(standardDeviation([3]), 0);
  assert.ok(Number.isNaN(mean([])));
});

test('quantiles interpolate like numpy and R type 7', () => {
  close(quantile([1, 2, 3, 4], 0.95), 3.85);
  close(quantile([10, 1, 7, 3], 0.5), 5);
  close(median([1, 3, 2]), 2);
  close(quantile([15, 20, 35, 40, 50], 0.4), 29); // numpy.percentile([...], 40)
  close(quantile([5], 0.95), 5);
});

test('the source statistic drops values outside mean ± 2σ', () => {
  const values = [10, 10, 10, 10, 10, 10, 10, 10, 10, 100];
  // mean 19, σ 28.46: 100 lies 81 above the mean, beyond 2σ = 56.9
  assert.deepStrictEqual(trimmedMean2Sigma(values), { mean: 10, dropped: 1 });
  assert.deepStrictEqual(trimmedMean2Sigma([1, 2, 3]), { mean: 2, dropped: 0 });
});

test('the bootstrap CI of the median is reproducible and brackets the median', () => {
  const random = seededRandom(42);
  const values = Array.from({ length: 200 }, () => 50 + 10 * (random() + random() + random() - 1.5));
  const ci = bootstrapMedianCI(values);
  assert.deepStrictEqual(bootstrapMedianCI(values), ci);
  const m = median(values);
  assert.ok(ci[0] <= m && m <= ci[1], `${ci} brackets ${m}`);
  assert.ok(ci[1] - ci[0] < 3, 'narrow for 200 values of spread 5');
  assert.deepStrictEqual(bootstrapMedianCI([7, 7, 7, 7]), [7, 7]);
});

test('the bootstrap CI narrows as samples grow (≈ 1/√n)', () => {
  const random = seededRandom(7);
  const draw = (n) => Array.from({ length: n }, () => random());
  const width = (values) => {
    const [low, high] = bootstrapMedianCI(values);
    return high - low;
  };
  const ratio = width(draw(100)) / width(draw(1600));
  assert.ok(ratio > 2.5 && ratio < 6.5, `16× the samples gave a ${ratio.toFixed(2)}× narrower CI, expected ≈ 4`);
});

test('seeded random numbers repeat and are uniform', () => {
  const a = seededRandom(1);
  const b = seededRandom(1);
  const first = Array.from({ length: 5 }, a);
  assert.deepStrictEqual(first, Array.from({ length: 5 }, b));
  const c = seededRandom(3);
  const draws = Array.from({ length: 20000 }, c);
  close(mean(draws), 0.5, 0.01);
  assert.ok(draws.every((x) => x >= 0 && x < 1));
});

test('summarize gives every statistic', () => {
  const summary = summarize([4, 1, 3, 2, 100]);
  assert.equal(summary.n, 5);
  assert.equal(summary.min, 1);
  assert.equal(summary.max, 100);
  assert.equal(summary.median, 3);
  close(summary.p95, 80.8); // numpy.percentile([1, 2, 3, 4, 100], 95)
  close(summary.mean, 22);
  assert.equal(summary.dropped, 0); // 100 is within 2σ (σ 43.6) of a mean pulled up to 22
  assert.ok(summary.ci_low <= 3 && summary.ci_high >= 3);
  close(relativeHalfWidth({ median: 10, ci_low: 9, ci_high: 11 }), 0.1);
});

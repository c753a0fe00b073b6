// Comparisons between cells: the ratio of medians with a 95% CI. Cells measured together in
// rounds (every run since comparison groups) get the round bootstrap of common/comparison.js,
// the estimator that also decided when their group could stop; only their ratio and CI are
// reported, since a rank test would treat the iterations of a round as independent. Samples
// without rounds (independent draws) get an ordinary bootstrap and a two-sided Mann–Whitney U
// test (normal approximation with tie and continuity corrections, as
// scipy.stats.mannwhitneyu(method='asymptotic')).

import { BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED, median, quantile, seededRandom } from './stats.js';
import { roundRatio } from './comparison.js';

/** Standard normal CDF (erf by Abramowitz–Stegun 7.1.26, error < 1.5e-7). */
export function normalCdf(z) {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erf =
    1 -
    ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

/** Two-sided Mann–Whitney U: {u (of a), z, p}. */
export function mannWhitneyU(a, b) {
  const n1 = a.length;
  const n2 = b.length;
  const all = [...a.map((v) => [v, 0]), ...b.map((v) => [v, 1])].sort((x, y) => x[0] - y[0]);
  const n = all.length;
  let rankSumA = 0;
  let tieTerm = 0;
  for (let i = 0; i < n;) {
    let j = i;
    while (j + 1 < n && all[j + 1][0] === all[i][0]) j++;
    const rank = (i + j) / 2 + 1;
    const ties = j - i + 1;
    tieTerm += ties ** 3 - ties;
    for (let k = i; k <= j; k++) if (all[k][1] === 0) rankSumA += rank;
    i = j + 1;
  }
  const u = rankSumA - (n1 * (n1 + 1)) / 2;
  const mean = (n1 * n2) / 2;
  const sd = Math.sqrt(((n1 * n2) / 12) * (n + 1 - tieTerm / (n * (n - 1))));
  if (sd === 0) return { u, z: 0, p: 1 };
  const z = (u - mean - Math.sign(u - mean) * 0.5) / sd;
  return { u, z, p: Math.min(1, 2 * (1 - normalCdf(Math.abs(z)))) };
}

/** median(a) / median(b) with a percentile bootstrap 95% CI (a and b resampled independently). */
export function ratioOfMedians(a, b, { seed = BOOTSTRAP_SEED } = {}) {
  const random = seededRandom(seed);
  const draw = (values) => {
    const sample = new Float64Array(values.length);
    for (let i = 0; i < values.length; i++) sample[i] = values[Math.floor(random() * values.length)];
    return median(sample);
  };
  const ratios = new Float64Array(BOOTSTRAP_RESAMPLES);
  for (let r = 0; r < BOOTSTRAP_RESAMPLES; r++) ratios[r] = draw(a) / draw(b);
  const [medianA, medianB] = [median(a), median(b)];
  return {
    ratio: medianA / medianB,
    ci_low: quantile(ratios, 0.025),
    ci_high: quantile(ratios, 0.975),
    median_a: medianA,
    median_b: medianB,
  };
}

/**
 * Compares the samples of two cells: how many times slower a is than b, and whether it is
 * significant. Cells measured in rounds always get the round bootstrap: with one round (a group
 * whose rounds take minutes) it has no CI, and so no verdict — the samples of one round are not
 * independent draws for the fallback below to resample.
 */
export function compareCells(a, b) {
  if (a.samples.every((s) => Number.isInteger(s.round)) && b.samples.every((s) => Number.isInteger(s.round))) {
    const ratio = roundRatio(
      a.samples.map((s) => ({ round: s.round, value: s.total_ms })),
      b.samples.map((s) => ({ round: s.round, value: s.total_ms })),
    );
    return { a: a.case_id, b: b.case_id, ...ratio, p: null };
  }
  const ta = a.samples.map((s) => s.total_ms);
  const tb = b.samples.map((s) => s.total_ms);
  return {
    a: a.case_id,
    b: b.case_id,
    ...ratioOfMedians(ta, tb),
    method: 'bootstrap (independent samples)',
    ...mannWhitneyU(ta, tb),
  };
}

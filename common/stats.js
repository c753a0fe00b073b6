// The statistics of one cell's samples: the source study's statistic (the mean after dropping
// values outside mean ± 2σ) and what better tools report (median with a bootstrap 95% CI, p95).
// Small pure functions, shared by the browser client and the analysis step.

/** Resamples of the bootstrap CI of the median. */
export const BOOTSTRAP_RESAMPLES = 2000;
/** Seed of the bootstrap's generator: the same samples always give the same CI. */
export const BOOTSTRAP_SEED = 0x5eed;

export function mean(values) {
  if (values.length === 0) return NaN;
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

/** Sample standard deviation (n − 1); 0 for a single value. */
export function standardDeviation(values) {
  if (values.length === 0) return NaN;
  if (values.length === 1) return 0;
  const m = mean(values);
  let squares = 0;
  for (const v of values) squares += (v - m) * (v - m);
  return Math.sqrt(squares / (values.length - 1));
}

/** Quantile p of values, linear between order statistics (R type 7, numpy's default). */
export function quantile(values, p) {
  if (values.length === 0) return NaN;
  const sorted = Float64Array.from(values).sort();
  return quantileOfSorted(sorted, p);
}

/** Quantile p of values already sorted ascending (any array-like), as quantile() computes it. */
export function quantileOfSorted(sorted, p) {
  const position = (sorted.length - 1) * p;
  const below = Math.floor(position);
  const above = Math.ceil(position);
  return sorted[below] + (sorted[above] - sorted[below]) * (position - below);
}

export function median(values) {
  return quantile(values, 0.5);
}

/** The median of the finite values among `values`, or null when there are none. */
export function medianOrNull(values) {
  const finite = values.filter(Number.isFinite);
  return finite.length ? median(finite) : null;
}

/**
 * The source study's statistic: drop the values outside mean ± 2σ (σ the sample standard
 * deviation of all values), then the mean of the rest.
 */
export function trimmedMean2Sigma(values) {
  const m = mean(values);
  const sd = standardDeviation(values);
  const kept = values.filter((v) => Math.abs(v - m) <= 2 * sd);
  return { mean: mean(kept), dropped: values.length - kept.length };
}

/** A small seeded generator (mulberry32): uniform in [0, 1). */
export function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Percentile bootstrap confidence interval of the median. */
export function bootstrapMedianCI(
  values,
  { confidence = 0.95, resamples = BOOTSTRAP_RESAMPLES, seed = BOOTSTRAP_SEED } = {},
) {
  const n = values.length;
  if (n === 0) return [NaN, NaN];
  const random = seededRandom(seed);
  const medians = new Float64Array(resamples);
  const sample = new Float64Array(n);
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < n; i++) sample[i] = values[Math.floor(random() * n)];
    sample.sort();
    medians[r] = quantileOfSorted(sample, 0.5);
  }
  medians.sort();
  const tail = (1 - confidence) / 2;
  return [quantileOfSorted(medians, tail), quantileOfSorted(medians, 1 - tail)];
}

/** Every statistic of one cell's values (milliseconds). */
export function summarize(values, options = {}) {
  const sorted = Float64Array.from(values).sort();
  const trimmed = trimmedMean2Sigma(values);
  const [ciLow, ciHigh] = bootstrapMedianCI(values, options);
  return {
    n: values.length,
    mean: mean(values),
    sd: standardDeviation(values),
    mean_trimmed: trimmed.mean,
    dropped: trimmed.dropped,
    median: quantileOfSorted(sorted, 0.5),
    ci_low: ciLow,
    ci_high: ciHigh,
    p95: quantileOfSorted(sorted, 0.95),
    min: sorted[0],
    max: sorted[sorted.length - 1],
  };
}

/** Half-width of the median's CI relative to the median: the adaptive stopping rule's measure. */
export function relativeHalfWidth(summary) {
  return (summary.ci_high - summary.ci_low) / 2 / summary.median;
}

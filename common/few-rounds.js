// The few-rounds test: a decision rule for overwhelming differences, valid with the one or two
// rounds that a cell of minutes allows (client-side CM5 on 10,000 Books: ~3 min an iteration),
// where the round bootstrap (comparison.js) gives no verdict below MIN_ROUNDS_FOR_VERDICT rounds.
//
// Each round in which both cells ran gives one log ratio x = log(median of a's iterations in
// that round / median of b's). Over the n matched rounds, with m their mean and s their standard
// deviation, b is faster by more than δ when either bound clears log(1 + δ) (a faster: the
// mirror image, below log of comparison.js fasterLine, −log(1 + δ) by MARGIN_RULE 2):
//
//   noise ceiling:  m − z(α) · max(SIGMA, s) / √n   (both cells' medians ≥ LONG_MS, and n ≥ 2,
//                                                   or both ≥ ONE_ROUND_MS, or the slower beyond
//                                                   (1 + δ) × the faster by STALL_MS; valid while
//                                                   one round's log ratio varies by at most
//                                                   SIGMA, a stated ceiling)
//   t:              m − t(α, n − 1) · s / √n        (n ≥ 3; one-sample t, no ceiling assumed)
//
// The ceiling is for long iterations only: a round of cells of a few milliseconds can be off by
// several times on its own (the first round after warm-up, a stall of the shared machine), while
// an iteration of seconds averages such disturbances out. A stall adds seconds rather than
// multiplying, so one round alone counts only where a stall would have to last longer than any
// the rule allows for to fake a ratio the bound accepts: when even the faster cell takes
// ONE_ROUND_MS (the bound then asks for a stall of about 1.8 × that), or when the slower one
// exceeds (1 + δ) times the faster by STALL_MS or more (a sort of minutes in the browser against
// the server's seconds). From two rounds, a stalled one shows in s, which widens the bound
// (max(SIGMA, s)).
//
// α is one-sided per look, per bound. The test is applied after every round (a sequential use),
// so its error rate over a whole group is what the simulation in common/tests/few-rounds.test.js
// measures at the δ line: at most ERROR_RATE. It never says "equivalent": a ratio within δ is
// not overwhelming, and is left to the bootstrap.

import { FEW_ROUNDS_RULE, MARGIN_RULE, VERDICTS, fasterLine } from './comparison.js';
import { median } from './stats.js';

/** The one-sided level of each bound at each look. */
export const ALPHA = 0.0005;
/** z(ALPHA): the standard normal's upper ALPHA quantile. */
export const Z_ALPHA = 3.290527;
/** The stated ceiling of one round's log-ratio standard deviation (0.3: about ±35 %). */
export const SIGMA = 0.3;
/** The noise ceiling's bound is used only when both cells' medians are at least this long (ms). */
export const LONG_MS = 500;
/** …and from a single round only when both are at least this long (ms). */
export const ONE_ROUND_MS = 5000;
/**
 * …or when the slower cell's median exceeds (1 + δ) × the faster's by at least this much (ms):
 * the stall it would take to fake the difference in the one round.
 */
export const STALL_MS = 10_000;
/**
 * The rule's version, recorded with every judgment that used it: 1 without STALL_MS (runs made
 * before it are re-judged as they were), 2 with it.
 */
export const RULE_VERSION = 2;
/** Fewest matched rounds for the t bound (with 2, t(0.0005, 1) = 637: it would never decide). */
export const T_MIN_ROUNDS = 3;
/**
 * The error rate the rule is held to over a group's looks, at the δ line, with one round's log
 * ratio normal with a standard deviation up to SIGMA (common/tests/few-rounds.test.js).
 */
export const ERROR_RATE = 0.01;

/** The rule's name, as a comparison records what decided it (`decided_by`). */
export const FEW_ROUNDS = FEW_ROUNDS_RULE;

/** Student's t upper ALPHA quantiles by degrees of freedom (1…30), then the normal's. */
const T_ALPHA = [
  636.619, 31.599, 12.924, 8.61, 6.869, 5.959, 5.408, 5.041, 4.781, 4.587, 4.437, 4.318, 4.221, 4.14, 4.073, 4.015,
  3.965, 3.922, 3.883, 3.85, 3.819, 3.792, 3.768, 3.745, 3.725, 3.707, 3.69, 3.674, 3.659, 3.646,
];

/** t(ALPHA, df): exact to 3 decimals up to 30 degrees of freedom; above, 30's (a little wider than the truth). */
export const tAlpha = (df) => T_ALPHA[Math.min(df, T_ALPHA.length) - 1];

/** The per-round log ratios of two cells' samples ([{round, value}]), over the rounds both ran in. */
export function roundLogRatios(a, b) {
  const byRound = (samples) => {
    const rounds = new Map();
    for (const { round, value } of samples) {
      if (!Number.isFinite(value) || !(value > 0)) continue;
      if (!rounds.has(round)) rounds.set(round, []);
      rounds.get(round).push(value);
    }
    return rounds;
  };
  const [ra, rb] = [byRound(a), byRound(b)];
  return [...ra.keys()]
    .filter((r) => rb.has(r))
    .sort((x, y) => x - y)
    .map((r) => Math.log(median(ra.get(r)) / median(rb.get(r))));
}

/**
 * The few-rounds test on per-round log ratios.
 *
 * @param logRatios x per matched round (roundLogRatios)
 * @param delta the equivalence margin δ
 * @param options {shorterMs = Infinity, longerMs = shorterMs, version = RULE_VERSION, marginRule}:
 *     the faster and the slower cell's medians (ms), which say whether the noise ceiling's bound
 *     may be used (LONG_MS, ONE_ROUND_MS, STALL_MS from version 2); where not, only the t bound;
 *     and where the δ line below 1 lies (comparison.js MARGIN_RULE)
 * @returns {verdict: 'b faster' | 'a faster' | 'unresolved', rounds, low, high}: low and high
 *     bound the ratio (e^…) by whichever bound is tighter on each side (null below 1 round)
 */
export function fewRoundsTest(
  logRatios,
  delta,
  { shorterMs = Infinity, longerMs = shorterMs, version = RULE_VERSION, marginRule = MARGIN_RULE } = {},
) {
  const n = logRatios.length;
  if (n < 1) return { verdict: VERDICTS.UNRESOLVED, rounds: 0, low: null, high: null };
  const m = logRatios.reduce((sum, x) => sum + x, 0) / n;
  const s = n >= 2 ? Math.sqrt(logRatios.reduce((sum, x) => sum + (x - m) ** 2, 0) / (n - 1)) : 0;
  const oneRound = shorterMs >= ONE_ROUND_MS || (version >= 2 && longerMs - (1 + delta) * shorterMs >= STALL_MS);
  const ceiling = shorterMs >= LONG_MS && (n >= 2 || oneRound);
  let half = ceiling ? (Z_ALPHA * Math.max(SIGMA, s)) / Math.sqrt(n) : Infinity;
  if (n >= T_MIN_ROUNDS) half = Math.min(half, (tAlpha(n - 1) * s) / Math.sqrt(n));
  const [low, high] = [Math.exp(m - half), Math.exp(m + half)];
  const verdict =
    low > 1 + delta
      ? VERDICTS.B_FASTER
      : high < fasterLine(delta, marginRule)
        ? VERDICTS.A_FASTER
        : VERDICTS.UNRESOLVED;
  return { verdict, rounds: n, low, high };
}

/**
 * Whether one more round could decide a comparison the test has not: the test on the rounds so
 * far and one more whose log ratio is their mean (the next round as the last ones went). The
 * runner spends a long group's rounds past its budget only where this holds.
 */
export function nextRoundCouldDecide(logRatios, delta, medians = {}) {
  const n = logRatios.length;
  if (n < 1) return false;
  const m = logRatios.reduce((sum, x) => sum + x, 0) / n;
  return fewRoundsTest([...logRatios, m], delta, medians).verdict !== VERDICTS.UNRESOLVED;
}

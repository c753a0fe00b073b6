// Comparisons of cells measured together, interleaved in rounds (a comparison group): how many
// times slower one is than the other, with a 95% confidence interval that respects the design,
// and what that says against an equivalence margin δ. The judge (judge.js) applies it to a
// group's comparisons; the runner stops on its judgment and the report shows it.
//
// The design: in every round each cell of the group runs a few iterations, in a seeded random
// order. Iterations of one round share whatever the machine was doing then (levels drift over
// seconds on 2 cores), so they are not independent draws; rounds are the independent units.
// The CI is therefore a round (block, or cluster) bootstrap: resample whole rounds with
// replacement, keeping both cells' iterations of each drawn round together, and take the
// ratio of the pooled medians; the interval is the percentile interval of those ratios.

import { BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED, median, quantileOfSorted, seededRandom } from './stats.js';

/** Default equivalence margin: ratios within ±δ count as "no practical difference" (MARGIN_RULE). */
export const DEFAULT_DELTA = 0.05;

/**
 * How the δ lines are drawn, recorded with every judgment (`margin_rule`): 1, at 1 − δ and
 * 1 + δ; 2, at 1 / (1 + δ) and 1 + δ, the same distance from 1 on a log scale, so that "within
 * ±δ" and "k× faster" read the same whichever cell a comparison names first (with rule 1 a ratio
 * of 0.951 was "equivalent" while read the other way round it is 1.052, past 1 + δ).
 */
export const MARGIN_RULE = 2;

/** The line below which a is faster: 1 / (1 + δ) (MARGIN_RULE 2), or 1 − δ (rule 1). */
export const fasterLine = (delta, rule = MARGIN_RULE) => (rule >= 2 ? 1 / (1 + delta) : 1 - delta);

/**
 * Fewer rounds than this give no verdict: a percentile bootstrap over so few blocks has too few
 * distinct resamples (4 rounds give 35) for its interval to mean what it says.
 */
export const MIN_ROUNDS_FOR_VERDICT = 5;

/** What a comparison's CI says, with a = the first cell and b = the second. */
export const VERDICTS = Object.freeze({
  B_FASTER: 'b faster', // CI wholly above 1 + δ: a takes longer
  A_FASTER: 'a faster', // CI wholly below 1 / (1 + δ) (fasterLine)
  EQUIVALENT: 'equivalent', // CI wholly inside [1 / (1 + δ), 1 + δ]
  UNRESOLVED: 'unresolved', // none of these (yet)
});

/** Groups {round, value} samples into a Map round → values. */
function byRound(samples) {
  const rounds = new Map();
  for (const { round, value } of samples) {
    if (!Number.isFinite(value)) continue;
    if (!rounds.has(round)) rounds.set(round, []);
    rounds.get(round).push(value);
  }
  return rounds;
}

const percentile = quantileOfSorted;

/**
 * For one cell's values per round, a function from how often each round was drawn to the median
 * of the pooled draws — stats.js's median of the resample, without building or sorting it: the
 * cell's values are sorted once with their rounds, and the two middle ranks are found by
 * counting each value as often as its round was drawn. Bit for bit what sorting the pool gives
 * (the same two values, the same interpolation), in time linear in the values, not n log n: the
 * stop rule judges every comparison after every round.
 */
function resampledMedian(valuesByRound) {
  const order = valuesByRound
    .flatMap((values, round) => values.map((value) => ({ value, round })))
    .sort((x, y) => x.value - y.value);
  const sorted = Float64Array.from(order, (o) => o.value);
  const roundOf = Int32Array.from(order, (o) => o.round);
  const sizes = valuesByRound.map((values) => values.length);
  return (draws) => {
    let n = 0;
    for (let i = 0; i < draws.length; i++) n += draws[i] * sizes[i];
    const position = (n - 1) * 0.5;
    const below = Math.floor(position);
    const above = Math.ceil(position);
    let seen = 0;
    let low = NaN;
    for (let j = 0; j < sorted.length; j++) {
      seen += draws[roundOf[j]];
      if (Number.isNaN(low) && seen > below) low = sorted[j];
      if (seen > above) return low + (sorted[j] - low) * (position - below);
    }
    return NaN;
  };
}

/**
 * median(a) / median(b) over every sample, with a round-bootstrap percentile CI.
 *
 * @param a samples of the first cell, [{round, value}]
 * @param b samples of the second cell, [{round, value}]
 * @returns {ratio, ci_low, ci_high, median_a, median_b, rounds, n_a, n_b, method}; rounds counts
 *     the rounds in which both cells were measured (only those are resampled, and the medians are
 *     of those rounds' samples: a cell that went on being measured after its partner stopped has
 *     a median of its own over every round, which drift can move away from the matched one)
 */
export function roundRatio(a, b, { confidence = 0.95, resamples = BOOTSTRAP_RESAMPLES, seed = BOOTSTRAP_SEED } = {}) {
  const { valuesA, valuesB, medianOfA, medianOfB } = matched(a, b);
  const rounds = valuesA.length;
  const [allA, allB] = [valuesA.flat(), valuesB.flat()];
  const result = {
    ratio: medianOfA / medianOfB,
    ci_low: NaN,
    ci_high: NaN,
    median_a: medianOfA,
    median_b: medianOfB,
    rounds,
    n_a: allA.length,
    n_b: allB.length,
    method: 'round bootstrap (percentile)',
  };
  if (rounds < 2) return result;

  const random = seededRandom(seed);
  const medianA = resampledMedian(valuesA);
  const medianB = resampledMedian(valuesB);
  const draws = new Int32Array(rounds);
  const ratios = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    draws.fill(0);
    for (let i = 0; i < rounds; i++) draws[Math.floor(random() * rounds)]++;
    ratios[r] = medianA(draws) / medianB(draws);
  }
  ratios.sort();
  const tail = (1 - confidence) / 2;
  result.ci_low = percentile(ratios, tail);
  result.ci_high = percentile(ratios, 1 - tail);
  return result;
}

/**
 * The name a judged comparison records (`decided_by`) when the few-rounds test (few-rounds.js)
 * decided it, not its CI: its verdict then stands as recorded, whatever its rounds.
 */
export const FEW_ROUNDS_RULE = 'few-rounds test';
/** The name a judged comparison records when its round-bootstrap CI settled it. */
export const BOOTSTRAP_RULE = 'round bootstrap';

/** Whether a judged comparison's verdict was decided by the few-rounds test. */
export const byFewRounds = (comparison) => comparison.decided_by === FEW_ROUNDS_RULE;

/**
 * Whether a CI can be judged at all: finite, and from at least MIN_ROUNDS_FOR_VERDICT rounds
 * (or the comparison was decided by the few-rounds test, which needs neither).
 */
export function hasInterval(comparison) {
  if (byFewRounds(comparison)) return true;
  const { ci_low: low, ci_high: high, rounds } = comparison;
  return Number.isFinite(low) && Number.isFinite(high) && !(rounds !== undefined && rounds < MIN_ROUNDS_FOR_VERDICT);
}

/**
 * The verdict of a ratio's CI against the margin δ (see VERDICTS); unresolved below
 * MIN_ROUNDS_FOR_VERDICT rounds. A judged comparison that the few-rounds test decided keeps the
 * verdict it recorded.
 */
export function verdictOf(comparison, delta = DEFAULT_DELTA, rule = MARGIN_RULE) {
  if (byFewRounds(comparison)) return comparison.verdict;
  if (!hasInterval(comparison)) return VERDICTS.UNRESOLVED;
  const { ci_low: low, ci_high: high } = comparison;
  const below = fasterLine(delta, rule);
  if (low > 1 + delta) return VERDICTS.B_FASTER;
  if (high < below) return VERDICTS.A_FASTER;
  if (low >= below && high <= 1 + delta) return VERDICTS.EQUIVALENT;
  return VERDICTS.UNRESOLVED;
}

/**
 * Whether a comparison's CI lies wholly inside the ratios that any of `verdicts` stands for:
 * below fasterLine (a faster), inside [fasterLine, 1 + δ] (equivalent), above 1 + δ (b faster). For one
 * verdict this is verdictOf(...) === it; for "a faster or equivalent" it is a CI at or below
 * 1 + δ (a not slower by more than δ: non-inferiority), which also takes a CI that straddles
 * 1 − δ — such a CI is unresolved between the two, but either way a is not slower.
 */
export function ciLiesIn(comparison, verdicts, delta = DEFAULT_DELTA, rule = MARGIN_RULE) {
  const verdict = verdictOf(comparison, delta, rule);
  if (verdicts.includes(verdict)) return true;
  if (verdict !== VERDICTS.UNRESOLVED || !hasInterval(comparison)) return false;
  const { ci_low: low, ci_high: high } = comparison;
  const has = (v) => verdicts.includes(v);
  if (has(VERDICTS.A_FASTER) && has(VERDICTS.EQUIVALENT) && has(VERDICTS.B_FASTER)) return true;
  if (has(VERDICTS.A_FASTER) && has(VERDICTS.EQUIVALENT)) return high <= 1 + delta;
  if (has(VERDICTS.B_FASTER) && has(VERDICTS.EQUIVALENT)) return low >= fasterLine(delta, rule);
  return false;
}

/** Whether a verdict resolves the comparison (its CI clear of every δ boundary). */
export function isResolved(verdict) {
  return verdict !== VERDICTS.UNRESOLVED;
}

/**
 * How many successive looks a resolved verdict must hold before it settles a comparison, so
 * that the group stops sampling it. The stop rule judges every comparison after every round, and
 * a 95 % CI looked at again and again strays past a δ line now and then on noise alone
 * (optional stopping): stopping at the first such look ends a group on a stray interval.
 * `npm run stray-verdicts -- <run>` (analysis/stray-verdicts.js) replays a run's comparisons look
 * by look and counts, for 1, 2 and 3 looks, how many settled verdicts a later look contradicted
 * and how many looks the rule waited (docs/method.md, the stop rule).
 */
export const SETTLE_LOOKS = 3;

/**
 * A plan's stop rule with its defaults filled in: {delta, looks, fewRounds} (fewRounds: whether
 * the few-rounds test, few-rounds.js, may settle a comparison its CI has not), or null for a plan
 * that stops on no verdict (a fixed protocol: `stop: null`).
 */
export function stopRule(stop) {
  return stop === null ? null : { delta: DEFAULT_DELTA, looks: SETTLE_LOOKS, fewRounds: true, ...stop };
}

/**
 * How a run's results are judged: at its plan's δ, and a verdict counts as settled once it held
 * at its plan's `looks` looks in a row — what decided when its groups stopped. A plan without a
 * stop rule stopped on no verdict, so nothing in it can have stopped on a CI that strayed past a
 * δ line for a look: its final CI stands as it is (looks 1), at the default δ, and the few-rounds
 * test does not take part.
 *
 * @param stop the plan's protocol.stop (undefined: the defaults, as the runner takes it)
 * @returns {delta, looks, fewRounds}
 */
export function judgingOf(stop) {
  const rule = stopRule(stop);
  return rule
    ? { delta: rule.delta, looks: rule.looks, fewRounds: rule.fewRounds }
    : { delta: DEFAULT_DELTA, looks: 1, fewRounds: false };
}

/** The rounds two byRound maps share, in ascending order. */
function roundsInBoth(roundsA, roundsB) {
  return [...roundsA.keys()].filter((r) => roundsB.has(r)).sort((x, y) => x - y);
}

/** Both cells' values in the rounds both were measured in (per round), and their medians. */
function matched(a, b) {
  const [roundsA, roundsB] = [byRound(a), byRound(b)];
  const rounds = roundsInBoth(roundsA, roundsB);
  const valuesA = rounds.map((r) => roundsA.get(r));
  const valuesB = rounds.map((r) => roundsB.get(r));
  return { valuesA, valuesB, medianOfA: median(valuesA.flat()), medianOfB: median(valuesB.flat()) };
}

/**
 * median(a) / median(b) over the rounds both cells were measured in, as roundRatio's ratio, without
 * its CI (NaN when they share no round).
 */
export function matchedRatio(a, b) {
  const { medianOfA, medianOfB } = matched(a, b);
  return medianOfA / medianOfB;
}

/** The rounds in which both cells were measured, in ascending order. */
export function sharedRounds(a, b) {
  return roundsInBoth(byRound(a), byRound(b));
}

/** A comparison's verdict at one look: on the samples of both cells up to and including `round`. */
export function verdictUpTo(a, b, round, delta = DEFAULT_DELTA, rule = MARGIN_RULE) {
  return verdictOf(
    roundRatio(
      a.filter((s) => s.round <= round),
      b.filter((s) => s.round <= round),
    ),
    delta,
    rule,
  );
}

/**
 * For how many of a comparison's last looks in a row its verdict has been the one it has now.
 * A look is a round in which both cells were measured (`rounds`, sharedRounds): a round that
 * visited neither adds nothing to judge again.
 *
 * @param rounds the comparison's shared rounds, ascending
 * @param verdictAt round → the verdict on the samples up to and including that round
 * @param looks at most this many are counted
 * @returns 0 when there are no rounds, else 1…looks
 */
export function steadyLooks(rounds, verdictAt, looks = SETTLE_LOOKS) {
  if (!rounds.length) return 0;
  const now = verdictAt(rounds[rounds.length - 1]);
  let steady = 1;
  while (steady < looks && steady < rounds.length && verdictAt(rounds[rounds.length - 1 - steady]) === now) steady++;
  return steady;
}

/**
 * steadyLooks of one comparison from its samples: how many of its last looks in a row (up to
 * `looks`) had `verdict`, its verdict on every sample so far. Earlier looks are judged again
 * (verdictUpTo), or taken from `cache` (a Map, filled here; `key` tells this comparison's
 * entries apart), so that judging after every round costs one bootstrap per round.
 *
 * @param a samples of the first cell, [{round, value}]
 * @param b samples of the second cell
 */
export function steadyLooksOf(
  a,
  b,
  { verdict, delta = DEFAULT_DELTA, looks = SETTLE_LOOKS, cache = new Map(), key = '', rule = MARGIN_RULE },
) {
  const rounds = sharedRounds(a, b);
  const last = rounds[rounds.length - 1];
  return steadyLooks(
    rounds,
    (round) => {
      const entry = `${key} ${round}`;
      if (!cache.has(entry)) cache.set(entry, round === last ? verdict : verdictUpTo(a, b, round, delta, rule));
      return cache.get(entry);
    },
    looks,
  );
}

/** Fisher–Yates shuffle of `items` driven by a seeded generator; returns a new array. */
export function seededShuffle(items, seed) {
  const random = seededRandom(seed);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** The seed of one round's order: the run's seed, the group and the round, mixed (FNV-1a). */
export function roundSeed(runSeed, groupId, round) {
  let hash = 0x811c9dc5 ^ (runSeed >>> 0);
  for (const char of `${groupId}#${round}`) {
    hash ^= char.charCodeAt(0);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

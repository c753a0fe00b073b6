// The one judge of a comparison group. From the group's samples and the stop rule it gives every
// comparison and decision margin with its ratio, 95 % CI, verdict and whether it is settled, and
// the decision: the recommended configuration, or "no clear winner" with the configurations that
// are not clearly slower. The runner (client/group-runner.js) judges after every round, stops on
// the judgment and stores the last one with the group (groups.jsonl `judgment`); the report and
// the page read what was stored and never judge again (the report recomputes it from the samples
// as a check, analysis/judgments.js).
//
// A pure function of its inputs: the same samples and rule give the same judgment, in the browser
// and in Node (the bootstrap is seeded).

import { caseId, familyOf, groupComparisons } from './cell.js';
import {
  BOOTSTRAP_RULE,
  FEW_ROUNDS_RULE,
  MARGIN_RULE,
  VERDICTS,
  isResolved,
  judgingOf,
  matchedRatio,
  roundRatio,
  steadyLooksOf,
  verdictOf,
} from './comparison.js';
import { RULE_VERSION, fewRoundsTest, nextRoundCouldDecide, roundLogRatios } from './few-rounds.js';
import { medianOrNull } from './stats.js';

/** The decision's words where no configuration is clearly the fastest. */
export const NO_CLEAR_WINNER = 'no clear winner';

/** Whether a family's groups choose a configuration (formats, side), or only compare (caching). */
export const decides = (cell) => familyOf(cell)?.name !== 'caching';

/**
 * How the decision finds the fastest configuration, recorded with every judgment (`fastest_rule`):
 * 1, the lowest median over all of a cell's samples (runs made before version 2 are re-judged so);
 * 2, from there on to any configuration that was faster in the rounds both ran, as long as there
 * is one not yet visited; 3, on until no configuration was faster than it in the rounds both ran
 * (every other's ratio to it at least 1), so that the report can show every configuration's time
 * as the fastest's times its ratio and the fastest has the lowest. Racing leaves cells out of later
 * rounds, so a cell's median over all its rounds can rank it ahead of one that beat it in every
 * round they shared; and since pairs share different rounds, "faster in the rounds both ran" can
 * run in a circle (A before B, B before C, C before A, among near-ties): then, by version 3, the
 * one of the circle whose lowest ratio against it is highest.
 */
export const FASTEST_RULE = 3;

/**
 * The cells the decision ranks that have samples, the fastest first (by `version` of
 * FASTEST_RULE), then the others by median: [{cell, id, median}].
 */
function ranked(cells, byCase, version) {
  const byMedian = cells
    .filter(decides)
    .map((cell) => ({ cell, id: caseId(cell), median: medianOrNull(byCase.get(caseId(cell)).map((s) => s.value)) }))
    .filter((c) => Number.isFinite(c.median))
    .sort((x, y) => x.median - y.median);
  if (version < 2 || byMedian.length < 2) return byMedian;
  const ratio = (c, to) => matchedRatio(byCase.get(c.id), byCase.get(to.id));
  /** The configuration most clearly faster than `current` in the rounds both ran, or null. */
  const fasterThan = (current, skip) => {
    let next = null;
    let lowest = 1;
    for (const c of byMedian) {
      if (c === current || skip.has(c.id)) continue;
      const r = ratio(c, current);
      if (r < lowest) [next, lowest] = [c, r];
    }
    return next;
  };
  let fastest = byMedian[0];
  const path = [fastest];
  for (;;) {
    // Version 2 never goes back to a configuration it visited; version 3 does, and stops on a circle.
    const next = fasterThan(fastest, version === 2 ? new Set(path.map((c) => c.id)) : new Set());
    if (!next) break;
    if (path.includes(next)) {
      const circle = path.slice(path.indexOf(next));
      const lowestAgainst = (f) =>
        Math.min(
          ...byMedian
            .filter((c) => c !== f)
            .map((c) => ratio(c, f))
            .filter(Number.isFinite),
        );
      fastest = circle.reduce((best, c) => (lowestAgainst(c) > lowestAgainst(best) ? c : best));
      break;
    }
    path.push(next);
    fastest = next;
  }
  return [fastest, ...byMedian.filter((c) => c !== fastest)];
}

/**
 * The decision margins of a group: every configuration the decision ranks against the fastest so
 * far (a = the other, b = the fastest), except pairs the group compares anyway. The stop rule
 * waits for these too, so that a recommendation, or "no clear winner", rests on margins that were
 * sampled until settled.
 */
function marginPairs(order, pairs) {
  if (order.length < 2) return [];
  const fastest = order[0];
  const compared = new Set(pairs.flatMap(({ a, b }) => [`${caseId(a)} ${caseId(b)}`, `${caseId(b)} ${caseId(a)}`]));
  return order
    .slice(1)
    .filter(({ id }) => !compared.has(`${id} ${fastest.id}`))
    .map(({ cell }) => ({ dimension: 'margin', a: cell, b: fastest.cell }));
}

/** A judged pair read the other way round: b over a, its CI and verdict turned with it. */
function turned(c) {
  const verdict = { [VERDICTS.A_FASTER]: VERDICTS.B_FASTER, [VERDICTS.B_FASTER]: VERDICTS.A_FASTER }[c.verdict];
  return {
    ...c,
    a: c.b,
    b: c.a,
    median_a: c.median_b,
    median_b: c.median_a,
    n_a: c.n_b,
    n_b: c.n_a,
    ratio: 1 / c.ratio,
    ci_low: 1 / c.ci_high,
    ci_high: 1 / c.ci_low,
    verdict: verdict ?? c.verdict,
    ...(c.few_rounds && {
      few_rounds: {
        ...c.few_rounds,
        verdict:
          { [VERDICTS.A_FASTER]: VERDICTS.B_FASTER, [VERDICTS.B_FASTER]: VERDICTS.A_FASTER }[c.few_rounds.verdict] ??
          c.few_rounds.verdict,
        low: c.few_rounds.high === null ? null : 1 / c.few_rounds.high,
        high: c.few_rounds.low === null ? null : 1 / c.few_rounds.low,
      },
    }),
  };
}

/**
 * The decision: the fastest configuration (FASTEST_RULE), then the others by median, each with its
 * margin over the fastest (its ratio to the fastest, from the judged pair of the two); the recommendation is the
 * fastest when every other is clearly slower (its CI wholly above 1 + δ) and settled, else "no
 * clear winner" among the fastest and every one not clearly slower. `settled` says whether every
 * margin settled (clearly slower, or equivalent within ±δ, at `looks` looks in a row).
 */
function decisionOf(order, judged, fastestRule) {
  if (!order.length) return null;
  const [fastest, ...rest] = order;
  const others = rest.map(({ id, median }) => {
    const pair = judged.find((c) => (c.a === id && c.b === fastest.id) || (c.a === fastest.id && c.b === id));
    const margin = pair.a === id ? pair : turned(pair);
    const clearlySlower = margin.verdict === VERDICTS.B_FASTER && margin.settled;
    return {
      case_id: id,
      median_ms: median,
      times_slower: median / fastest.median,
      // From version 2 the fastest may not have the lowest overall median: the extra time is of
      // the rounds both ran, as the ratio is (the report shows the fastest's median × (ratio − 1)).
      ...(fastestRule >= 2 && { extra_ms: margin.median_a - margin.median_b }),
      ratio: margin.ratio,
      ci_low: margin.ci_low,
      ci_high: margin.ci_high,
      rounds: margin.rounds,
      verdict: margin.verdict,
      decided_by: margin.decided_by,
      steady_looks: margin.steady_looks,
      settled: margin.settled,
      clearly_slower: clearlySlower,
    };
  });
  const tied = others.filter((o) => !o.clearly_slower).map((o) => o.case_id);
  return {
    fastest: fastest.id,
    median_ms: fastest.median,
    recommendation: tied.length ? NO_CLEAR_WINNER : fastest.id,
    no_clear_winner_among: tied.length ? [fastest.id, ...tied] : [],
    settled: others.every((o) => o.settled),
    others,
  };
}

/**
 * The cells that more rounds could still turn into a clear recommendation: the fastest so far and
 * every other one whose margin is unresolved but above 1 + δ, or clearly slower but not yet
 * settled. While one is equivalent, clearly faster, or open at a ratio within 1 + δ, it is "no
 * clear winner" however long the group runs; then, as when every margin is settled or the group
 * decides nothing (caching), this is [].
 *
 * @returns case ids, in the group's order
 */
export function decisionCells(cells, judgment) {
  const { decision, delta } = judgment;
  if (!decision || !decision.others.length) return [];
  const open = new Set();
  for (const other of decision.others) {
    if (other.clearly_slower) continue;
    const slowerNotSettled = other.verdict === VERDICTS.B_FASTER;
    if (!slowerNotSettled && (other.verdict !== VERDICTS.UNRESOLVED || !(other.ratio > 1 + delta))) return [];
    open.add(other.case_id);
  }
  if (!open.size) return [];
  open.add(decision.fastest);
  return cells.map(caseId).filter((id) => open.has(id));
}

/**
 * The cells of the open comparisons that one more round could decide by the few-rounds test
 * (few-rounds.js nextRoundCouldDecide): where a group's rounds are too long for the rounds a CI
 * needs, the only rounds worth running.
 *
 * @param samples as judgeGroup takes them
 * @param judgment judgeGroup's judgment of those samples
 * @returns case ids, in the group's order ([] when the few-rounds test took no part)
 */
export function closableCells(cells, samples, judgment) {
  if (!judgment.few_rounds) return [];
  const byCase = new Map(cells.map((cell) => [caseId(cell), []]));
  for (const s of samples) byCase.get(s.case_id)?.push({ round: s.round, value: s.total_ms });
  const version = judgment.few_rounds_rule ?? 1;
  const closable = new Set();
  for (const c of judgment.comparisons) {
    if (c.settled) continue;
    const medians = {
      shorterMs: Math.min(c.median_a, c.median_b),
      longerMs: Math.max(c.median_a, c.median_b),
      version,
      marginRule: judgment.margin_rule ?? 1,
    };
    if (nextRoundCouldDecide(roundLogRatios(byCase.get(c.a), byCase.get(c.b)), judgment.delta, medians)) {
      closable.add(c.a);
      closable.add(c.b);
    }
  }
  return cells.map(caseId).filter((id) => closable.has(id));
}

/**
 * Judges a group.
 *
 * @param cells the group's cells (complete: cell.js completeCell)
 * @param samples [{case_id, round, total_ms}]: every sample of the group so far
 * @param stop the plan's stop rule (protocol.stop; undefined: the defaults, null: a fixed protocol)
 * @param cache a Map the caller keeps between calls on growing samples, so that earlier looks'
 *     verdicts are computed once (a round then costs one bootstrap per comparison)
 * @param options {fewRounds, fewRoundsVersion, fastestRule, marginRule}: whether the few-rounds
 *     test (few-rounds.js) may decide a comparison its CI has not settled (default: the stop
 *     rule's fewRounds; false: as runs made before it), which version of it (default: its
 *     RULE_VERSION), which FASTEST_RULE finds the fastest, and which comparison.js MARGIN_RULE
 *     draws the δ lines (defaults: the current ones)
 * @returns {delta, looks, few_rounds (true when the few-rounds test took part), few_rounds_rule
 *     (its version, from 2), fastest_rule (from 2), margin_rule (from 2), comparisons:
 *     [{dimension, a, b (case ids), ratio, ci_low, ci_high, median_a, median_b, rounds, n_a, n_b,
 *     method, delta, verdict, steady_looks, settled, decided_by (BOOTSTRAP_RULE, FEW_ROUNDS_RULE
 *     or null while open), few_rounds: {verdict, rounds, low, high} (the test's own reading)}],
 *     decision: {fastest, median_ms, recommendation (a case id or NO_CLEAR_WINNER),
 *     no_clear_winner_among, settled, others: [{case_id, median_ms, times_slower, extra_ms (from
 *     fastest_rule 2: its median minus the fastest's, over the rounds both ran), ratio, ci_low,
 *     ci_high, rounds, verdict, steady_looks, settled, clearly_slower}]} | null, settled}
 */
export function judgeGroup(cells, samples, stop, cache = new Map(), options = {}) {
  const { delta, looks, fewRounds: byRule } = judgingOf(stop);
  const fewRounds = options.fewRounds ?? byRule;
  const version = options.fewRoundsVersion ?? RULE_VERSION;
  const marginRule = options.marginRule ?? MARGIN_RULE;
  const byCase = new Map(cells.map((cell) => [caseId(cell), []]));
  for (const s of samples) byCase.get(s.case_id)?.push({ round: s.round, value: s.total_ms });
  const fastestRule = options.fastestRule ?? FASTEST_RULE;
  const order = ranked(cells, byCase, fastestRule);
  const pairs = groupComparisons(cells);
  const comparisons = [...pairs, ...marginPairs(order, pairs)].map(({ dimension, a, b }) => {
    const [idA, idB] = [caseId(a), caseId(b)];
    const [samplesA, samplesB] = [byCase.get(idA), byCase.get(idB)];
    const ratio = roundRatio(samplesA, samplesB);
    const verdict = verdictOf(ratio, delta, marginRule);
    const key = `${idA} ${idB}`;
    const steady = steadyLooksOf(samplesA, samplesB, { verdict, delta, looks, cache, key, rule: marginRule });
    const byBootstrap = isResolved(verdict) && steady >= looks;
    const judged = {
      dimension,
      a: idA,
      b: idB,
      ...ratio,
      delta,
      verdict,
      steady_looks: steady,
      settled: byBootstrap,
      decided_by: byBootstrap ? BOOTSTRAP_RULE : null,
    };
    if (!fewRounds) return judged;
    // What the CI has not settled, an overwhelming ratio may: the few-rounds test, settled at once
    // (its error rate already allows for a look after every round).
    const shorterMs = Math.min(ratio.median_a, ratio.median_b);
    const longerMs = Math.max(ratio.median_a, ratio.median_b);
    const few = fewRoundsTest(roundLogRatios(samplesA, samplesB), delta, { shorterMs, longerMs, version, marginRule });
    judged.few_rounds = few;
    if (!byBootstrap && isResolved(few.verdict)) {
      Object.assign(judged, { verdict: few.verdict, settled: true, decided_by: FEW_ROUNDS_RULE });
    }
    return judged;
  });
  const decision = decisionOf(order, comparisons, fastestRule);
  return {
    delta,
    looks,
    ...(fewRounds && { few_rounds: true }),
    ...(fewRounds && version >= 2 && { few_rounds_rule: version }),
    ...(fastestRule >= 2 && { fastest_rule: fastestRule }),
    ...(marginRule >= 2 && { margin_rule: marginRule }),
    comparisons,
    decision,
    settled: comparisons.every((c) => c.settled),
  };
}

// Runs a comparison group: the cells the report compares with each other, in one page,
// interleaved. Every cell is warmed up until its times are stable; then rounds visit every
// cell in a fresh seeded random order, a few iterations each, so that drift over time falls on
// all cells alike. Samples stay in the page during a round and are handed over between rounds
// (onRound, awaited): no recording, statistics or file write runs beside a timed iteration.
// After each round the group is judged by the one judge (common/judge.js): its comparisons and
// the decision's margins (each cell against the fastest so far), with the round bootstrap; the
// group stops once every one is settled — resolved, with the same verdict at its last `looks` (3)
// looks in a row, so that one stray interval among many looks does not end it — or when its
// budget runs out (recorded as unresolved).
// Every round visits every cell, so that every configuration's median is over the same rounds
// as every other's: a cell left out of later rounds (racing) has a median of its own rounds
// only, while its neighbours' conditions change without it (an iteration after XML's is slower
// than one after JSON's), and the times a reader is shown then lie outside their own samples.
// Two exceptions keep hopeless waits short: a cell whose every comparison the few-rounds test
// decided (an overwhelming ratio in iterations of seconds) leaves the rounds, and a group too
// slow for a CI runs its closing rounds for the cells they could decide (below). Each
// comparison is judged on the rounds both of its cells ran (comparison.js roundRatio).
// When the time budget runs out while more rounds could still make the decision table's
// recommendation clear (its margin over the next configuration above 1 + δ but not yet
// resolved), the group gets `decisionMs` more rounds of every cell: a group of big answers
// (100,000 Videos, rounds of ~12 s) otherwise stops with a CI that one run clears and the
// next does not. A group whose rounds are too long to reach the rounds a CI needs within
// VERDICT_STRETCH × its budget runs further rounds only for the comparisons that one more round
// could decide by the few-rounds test, and only while such a round still ends within that line.

import { caseId } from '#common/cell.js';
import { closableCells, judgeGroup, decisionCells } from '#common/judge.js';
import { SCENARIO_STEPS, timed } from './scenarios.js';
import {
  checkAborted,
  sampleOf,
  scenarioContext,
  validateCell,
  verificationKeys,
  verify,
  verifyOrder,
} from './runner.js';
import {
  MIN_ROUNDS_FOR_VERDICT,
  byFewRounds,
  isResolved,
  roundSeed,
  seededShuffle,
  stopRule,
} from '#common/comparison.js';
import { median, summarize } from '#common/stats.js';

/** Warm-up by stability: a cell is warm after minMs and minIterations once the median of its
 * last `window` iterations is within `tolerance` of the `window` before; at maxMs in any case
 * (so an iteration of a minute needs one). {iterations: n} instead warms up by count. */
export const DEFAULT_WARMUP = Object.freeze({
  minMs: 1000,
  minIterations: 3,
  window: 3,
  tolerance: 0.1,
  maxMs: 10_000,
});
/** Rounds: iterations per visit (fewer when a visit reaches visitMaxMs), and the group's budget
 * (decisionMs, the decision's extra time past maxMs, defaults to a third of maxMs).
 * At least 8 rounds of 2 before a stop: the round bootstrap's blocks are rounds, and with as few
 * as 5 its 95 % interval covers the true ratio less often than 95 %. */
export const DEFAULT_ROUNDS = Object.freeze({
  iterationsPerVisit: 2,
  visitMaxMs: 2000,
  minRounds: 8,
  maxRounds: 200,
  maxMs: 180_000,
});

/** Checks a protocol and fills in its defaults; throws one error naming every problem. */
export function groupProtocol(protocol = {}) {
  const problems = [];
  for (const key of Object.keys(protocol)) {
    if (!['warmup', 'rounds', 'stop'].includes(key))
      problems.push(`unknown protocol key "${key}" (allowed: warmup, rounds, stop)`);
  }
  for (const key of ['warmup', 'rounds']) {
    if (protocol[key] !== undefined && (typeof protocol[key] !== 'object' || protocol[key] === null)) {
      problems.push(`${key} must be an object`);
    }
  }
  const warmup =
    protocol.warmup?.iterations !== undefined
      ? { iterations: protocol.warmup.iterations }
      : { ...DEFAULT_WARMUP, ...protocol.warmup };
  const rounds = { ...DEFAULT_ROUNDS, ...protocol.rounds };
  rounds.decisionMs ??= Math.round(rounds.maxMs / 3);
  const stop = stopRule(protocol.stop);
  const whole = (value, min) => Number.isInteger(value) && value >= min;
  if ('iterations' in warmup) {
    if (!whole(warmup.iterations, 0)) problems.push('warmup.iterations must be a whole number ≥ 0');
  } else {
    for (const key of ['minMs', 'maxMs']) if (!(warmup[key] >= 0)) problems.push(`warmup.${key} must be ≥ 0 ms`);
    for (const key of ['minIterations', 'window'])
      if (!whole(warmup[key], 1)) problems.push(`warmup.${key} must be a whole number ≥ 1`);
    if (!(warmup.tolerance > 0)) problems.push('warmup.tolerance must be > 0');
  }
  for (const key of ['iterationsPerVisit', 'minRounds', 'maxRounds']) {
    if (!whole(rounds[key], 1)) problems.push(`rounds.${key} must be a whole number ≥ 1`);
  }
  if (rounds.maxRounds < rounds.minRounds) problems.push('rounds.maxRounds must be ≥ rounds.minRounds');
  if (!(rounds.visitMaxMs > 0) || !(rounds.maxMs > 0))
    problems.push('rounds.visitMaxMs and rounds.maxMs must be > 0 ms');
  if (!(rounds.decisionMs >= 0)) problems.push('rounds.decisionMs must be ≥ 0 ms');
  if (stop && !(stop.delta > 0 && stop.delta < 1)) problems.push('stop.delta must be between 0 and 1');
  if (stop && !whole(stop.looks, 1)) problems.push('stop.looks must be a whole number ≥ 1');
  if (stop && typeof stop.fewRounds !== 'boolean') problems.push('stop.fewRounds must be true or false');
  if (problems.length) throw new Error(`Invalid protocol: ${problems.join('; ')}`);
  return { warmup, rounds, stop };
}

/**
 * Warms one cell up; returns what the rule did. `afterFirst(kept)`, if given, runs (awaited,
 * untimed) after the first iteration's timed region with what that region kept.
 */
async function warmUp(env, context, steps, rule, signal, afterFirst = null) {
  const started = env.now();
  const times = [];
  let last = null;
  const stable = () => {
    const w = rule.window;
    if (times.length < 2 * w) return false;
    const before = median(times.slice(-2 * w, -w));
    return Math.abs(median(times.slice(-w)) - before) <= rule.tolerance * before;
  };
  for (;;) {
    if ('iterations' in rule && times.length >= rule.iterations) {
      return { rule: 'count', iterations: times.length, elapsed_ms: env.now() - started, median_ms: median(times) };
    }
    if (!('iterations' in rule)) {
      const elapsed = env.now() - started;
      if (times.length >= rule.minIterations && elapsed >= rule.minMs && stable()) {
        return {
          rule: 'stable',
          iterations: times.length,
          elapsed_ms: elapsed,
          last_median_ms: median(times.slice(-rule.window)),
        };
      }
      if (times.length >= 1 && elapsed >= rule.maxMs) {
        // Long iterations count: a first iteration that alone took the warm-up's whole budget is
        // the cell's first visit of round 1 (runGroup), not thrown away. A later one that long
        // after shorter ones is a stall, not the cell's time: it is not kept.
        const counted = times.length === 1 && last.total_ms >= rule.maxMs ? last : null;
        return { rule: 'time limit', iterations: times.length, elapsed_ms: elapsed, median_ms: median(times), counted };
      }
    }
    checkAborted(signal);
    const region = await timed(context, steps);
    if (times.length === 0 && afterFirst) await afterFirst(context.kept());
    last = await sampleOf(env, context, steps, region);
    times.push(last.total_ms);
  }
}

/**
 * How rounds choose their cells, recorded in every group's `stop.rounds_rule`: 2, every cell every
 * round but those the few-rounds test let go; absent, racing (settled cells left out of later
 * rounds).
 */
export const ROUNDS_RULE = 2;

/**
 * How far past its time budget a group may run to reach the rounds a verdict needs
 * (MIN_ROUNDS_FOR_VERDICT), as a multiple of the budget. The line it draws (the budget × 3 ÷ 5 per
 * round) must lie far from any group's pace: a group whose rounds take about as long as the
 * line gets its 5 rounds in one run and stops after 1 in the next, and the two runs then disagree
 * on its decision.
 */
export const VERDICT_STRETCH = 3;

/**
 * Whether a group's time is up after `done` rounds. With the rounds a verdict needs, at its
 * budget `maxMs`. With fewer, by whether it can still reach them: at the pace of its rounds so
 * far they must end within VERDICT_STRETCH × maxMs. So a group whose rounds take just over a
 * fifth of the budget gets its 5th round (without it, it stops at 4 with nothing resolved — no
 * CI is judged below 5 rounds — while the same group a second faster resolves at 5: chance),
 * and one whose rounds are far too long for 5 (CM5 on 10,000 Books at 10 Mbit/s: minutes each)
 * is past its time after its first: the runner then runs only the rounds that could close a
 * comparison by the few-rounds test (closingRound).
 *
 * @param done rounds the group has, resumed ones included
 * @param here rounds run since `elapsedMs` started counting (this session)
 */
export function timeIsUp(done, here, elapsedMs, maxMs) {
  if (done < 1 || here < 1) return false;
  if (done >= MIN_ROUNDS_FOR_VERDICT) return elapsedMs >= maxMs;
  return elapsedMs + (MIN_ROUNDS_FOR_VERDICT - done) * (elapsedMs / here) > VERDICT_STRETCH * maxMs;
}

/**
 * What a round of `visit` is expected to cost (ms): each cell's median so far, as many times as a
 * visit iterates it (iterationsPerVisit, fewer once a visit reaches visitMaxMs).
 */
export function roundCost(visit, samples, rounds) {
  const each = new Map();
  for (const id of visit) {
    const own = samples.filter((s) => s.case_id === id).map((s) => s.total_ms);
    if (own.length) each.set(id, median(own));
  }
  return roundCostOf(visit, each, rounds);
}

/** The same from each cell's time per iteration ({case_id → ms}; a cell without one costs nothing). */
export function roundCostOf(visit, each, rounds) {
  let cost = 0;
  for (const id of visit) {
    const ms = each.get(id);
    if (!(ms > 0)) continue;
    cost += ms * Math.min(rounds.iterationsPerVisit, Math.max(1, Math.ceil(rounds.visitMaxMs / ms)));
  }
  return cost;
}

/**
 * A closing round for a group past its time with fewer rounds than a CI needs: the cells whose
 * comparisons one more round could decide (judge.js closableCells), when that round is expected
 * to end within VERDICT_STRETCH × maxMs of the rounds' start; else [] (the group stops).
 */
export function closingRound(cells, samples, judgment, elapsedMs, rounds) {
  const visit = closableCells(cells, samples, judgment);
  if (!visit.length) return [];
  return elapsedMs + roundCost(visit, samples, rounds) <= VERDICT_STRETCH * rounds.maxMs ? visit : [];
}

/**
 * Runs a group.
 *
 * @param env the client environment (runner.js)
 * @param group {id, cells}
 * @param protocol see groupProtocol
 * @param options {seed, startRound = 1, earlier = [{case_id, round, total_ms}] (a resumed group's
 *     recorded rounds, which count for the stopping rule), verified = [keys] (verification
 *     checks that passed earlier in this run, not repeated: runner.js verify), onRound(record)
 *     awaited between rounds, onProgress(info), signal, budget({warmup_ms, round_ms}) awaited
 *     once after the warm-up, giving {rounds_ms, …} (the rounds' budget instead of the
 *     protocol's maxMs, kept in the result as `budget`) or null}
 * @returns {group_id, cells: [{case_id, cell, warmup, verification, rounds (that visited it),
 *     last_round, summary}], rounds, budget (when options.budget gave one), stop: {reason, delta,
 *     looks, decision_time: {rounds,
 *     elapsed_ms} past the time budget for the decision, or null, closing_rounds: rounds run past
 *     the time budget for comparisons the few-rounds test could close (closingRound), rounds_rule
 *     (ROUNDS_RULE)}, judgment: what the group stopped on (common/judge.js judgeGroup: every
 *     comparison and margin, and the decision), time: where
 *     its time went {warmup_ms (of which counted_warmup_ms stood as round 1), rounds_ms,
 *     decision_ms, verify_ms, total_ms, round_ms (a round's mean, counted warm-up included), open
 *     (comparisons not settled)}}
 */
export async function runGroup(env, group, protocol, options = {}) {
  const { warmup, stop } = groupProtocol(protocol);
  let { rounds } = groupProtocol(protocol);
  const cells = group.cells.map(validateCell);
  const ids = cells.map(caseId);
  const byId = new Map(
    cells.map((cell, i) => [
      ids[i],
      {
        cell,
        context: scenarioContext(env, cell),
        steps: SCENARIO_STEPS[cell.scenario],
      },
    ]),
  );
  // Every sample so far, {case_id, round, total_ms}: what the judge reads after each round.
  const samples = (options.earlier ?? []).map(({ case_id: id, round, total_ms: total }) => ({
    case_id: id,
    round,
    total_ms: total,
  }));
  const progress = (info) => options.onProgress?.({ group_id: group.id, ...info });
  // Earlier looks' verdicts, kept between rounds: a round adds one bootstrap per comparison.
  const looksSeen = new Map();
  const judgeNow = () => judgeGroup(cells, samples, protocol?.stop, looksSeen);

  // A cell that computes on the client has its order checked on its first warm-up iteration's
  // own result, untimed (verify would compute it once more: a minute for CM5 on 10,000 Books).
  const known = new Set(options.verified ?? []);
  const orderChecked = new Map();
  const warmups = {};
  const firstRound = options.startRound ?? 1;
  // A long warm-up iteration (warmUp's `counted`) stands as its cell's visit of round 1: in a group
  // whose iterations take minutes, a second one only to begin round 1 would double its time.
  const counted = new Map();
  const groupStarted = env.now();
  for (const id of ids) {
    const { cell, context, steps } = byId.get(id);
    const orderKey = verificationKeys(cell).order;
    const checkOrder =
      steps.computations > 0 && orderKey && !known.has(orderKey)
        ? async ([, computed]) => {
            orderChecked.set(
              id,
              `${await verifyOrder(env, cell, computed)} (the client's order from its first warm-up iteration)`,
            );
            known.add(orderKey);
          }
        : null;
    progress({ phase: 'warmup', case_id: id });
    const { counted: sample, ...record } = await warmUp(env, context, steps, warmup, options.signal, checkOrder);
    if (sample && firstRound === 1) counted.set(id, sample);
    warmups[id] = { ...record, counted_in_round_1: counted.has(id) };
  }
  const warmupMs = env.now() - groupStarted;
  // A plan with a total time gives the group its share of what is left once the warm-up has
  // measured what a round will cost (experiments/budget/pool.js): that share is the rounds' budget.
  let budget = null;
  if (options.budget && stop) {
    const each = new Map(ids.map((id) => [id, warmups[id].last_median_ms ?? warmups[id].median_ms]));
    budget = await options.budget({ warmup_ms: warmupMs, round_ms: roundCostOf(ids, each, rounds) });
    if (budget) rounds = { ...rounds, maxMs: budget.rounds_ms };
  }
  // The rounds' clock includes the warm-up iterations that count as round 1: the pace of rounds
  // (timeIsUp) is what a round costs.
  const countedMs = [...counted.values()].reduce((sum, sample) => sum + sample.total_ms, 0);

  const started = env.now() - countedMs;
  let round = firstRound;
  let judgment = judgeNow();
  /**
   * The cells a round visits: every cell, but one whose every comparison the few-rounds test
   * decided (then more rounds of it could change nothing the report shows). A cell in no
   * comparison at all (a group of one cell) is measured every round: nothing decided it.
   */
  const needed = () => {
    if (!stop) return ids;
    const compared = new Set(judgment.comparisons.flatMap((c) => [c.a, c.b]));
    const open = new Set(judgment.comparisons.filter((c) => !byFewRounds(c)).flatMap((c) => [c.a, c.b]));
    return ids.filter((id) => open.has(id) || !compared.has(id));
  };
  /** Whether every comparison is decided: settled past the minimum rounds, or decided by the few-rounds test. */
  const allDecided = (done) =>
    judgment.settled &&
    (done >= rounds.minRounds ||
      (judgment.comparisons.length > 0 && judgment.comparisons.every((c) => byFewRounds(c))));
  let reason;
  /** The decision's extra time, once the time budget ran out: {started, rounds}. */
  let extension = null;
  let closingRounds = 0;
  for (;;) {
    const done = round - 1;
    if (stop && done >= 1 && allDecided(done)) {
      reason = 'resolved';
      break;
    }
    if (done >= rounds.maxRounds) {
      reason = stop ? 'round budget' : 'rounds done';
      break;
    }
    let visit = needed();
    if (stop && (extension || timeIsUp(done, round - firstRound, env.now() - started, rounds.maxMs))) {
      if (done < MIN_ROUNDS_FOR_VERDICT) {
        visit = closingRound(cells, samples, judgment, env.now() - started, rounds);
        if (!visit.length) {
          reason = 'time budget';
          break;
        }
        closingRounds++;
      } else {
        const clearer = decisionCells(cells, judgment).length > 0;
        if (!extension && clearer && rounds.decisionMs > 0) extension = { started: env.now(), rounds: 0 };
        if (!clearer || !extension || env.now() - extension.started >= rounds.decisionMs) {
          // Every comparison settled, short only of the plan's fewest rounds: resolved, as the
          // report counts it (none open), not cut off by the budget.
          reason = judgment.settled ? 'resolved' : 'time budget';
          break;
        }
        extension.rounds++;
      }
    }

    const order = seededShuffle(visit, roundSeed(options.seed ?? 0, group.id, round));
    const taken = [];
    for (const [position, id] of order.entries()) {
      const { context, steps } = byId.get(id);
      const visitStarted = env.now();
      if (round === 1 && counted.has(id)) {
        taken.push({ case_id: id, round, position, visit_iteration: 1, from_warmup: true, ...counted.get(id) });
        counted.delete(id);
        continue;
      }
      for (let i = 1; i <= rounds.iterationsPerVisit; i++) {
        checkAborted(options.signal);
        // The timed region straight from this loop, as the bare loop it is compared with runs.
        const region = await timed(context, steps);
        const sample = await sampleOf(env, context, steps, region);
        taken.push({ case_id: id, round, position, visit_iteration: i, ...sample });
        if (env.now() - visitStarted >= rounds.visitMaxMs) break;
      }
    }
    // Between rounds, untimed: hand the samples over, then judge.
    for (const s of taken) samples.push({ case_id: s.case_id, round, total_ms: s.total_ms });
    judgment = judgeNow();
    const judged = judgment.comparisons;
    const resolved = judged.filter((c) => isResolved(c.verdict)).length;
    await options.onRound?.({
      group_id: group.id,
      round,
      order,
      samples: taken,
      resolved,
      comparisons: judged.length,
      judged,
    });
    // Resolved at this look; settled: held for the looks the stop rule asks (what a page calls certain).
    const settled = judged.filter((c) => c.settled).length;
    progress({ phase: 'round', round, resolved, settled, comparisons: judged.length, elapsed_ms: env.now() - started });
    round++;
  }
  const decisionTime = extension && { rounds: extension.rounds, elapsed_ms: env.now() - extension.started };
  const roundsEnded = env.now();
  const roundsRun = round - firstRound;

  const results = [];
  const memo = new Map();
  for (const id of ids) {
    checkAborted(options.signal);
    progress({ phase: 'verify', case_id: id });
    const verification = await verify(env, byId.get(id).cell, memo, known, orderChecked.get(id));
    for (const key of verification.keys) known.add(key);
    const own = samples.filter((s) => s.case_id === id);
    const visited = new Set(own.map((s) => s.round));
    results.push({
      case_id: id,
      cell: byId.get(id).cell,
      warmup: warmups[id],
      verification,
      rounds: visited.size,
      last_round: visited.size ? Math.max(...visited) : null,
      summary: summarize(own.map((s) => s.total_ms)),
    });
  }
  return {
    group_id: group.id,
    cells: results,
    rounds: round - 1,
    stop: {
      reason,
      delta: stop?.delta ?? null,
      looks: stop?.looks ?? null,
      decision_time: decisionTime,
      closing_rounds: closingRounds,
      ...(stop && { rounds_rule: ROUNDS_RULE }),
    },
    judgment,
    ...(budget && { budget }),
    time: {
      warmup_ms: warmupMs,
      counted_warmup_ms: countedMs,
      rounds_ms: roundsEnded - (started + countedMs) - (decisionTime?.elapsed_ms ?? 0),
      decision_ms: decisionTime?.elapsed_ms ?? 0,
      verify_ms: env.now() - roundsEnded,
      total_ms: env.now() - groupStarted,
      round_ms: roundsRun > 0 ? (roundsEnded - started) / roundsRun : null,
      open: judgment.comparisons.filter((c) => !c.settled).length,
    },
  };
}

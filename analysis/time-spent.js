// Where a run's time went and what decided its comparisons, per group and in total, from the
// groups' records (groups.jsonl: `time`, client/group-runner.js; `judgment`, common/judge.js).
// The report's section "How the groups decided, and where the time went".

import { BOOTSTRAP_RULE, FEW_ROUNDS_RULE, MIN_ROUNDS_FOR_VERDICT, isResolved, verdictOf } from '#common/comparison.js';
import { median } from '#common/stats.js';

/** Milliseconds as the report writes a duration: 48s, 3m20s, 1h02m. */
export function duration(ms) {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60
    ? `${minutes}m${String(seconds % 60).padStart(2, '0')}s`
    : `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}

/** Group time per settled comparison as the report writes it: 0.4s under ten seconds, else as duration. */
export function perAnswer(ms) {
  return ms < 9_950 ? `${(ms / 1000).toFixed(1)}s` : duration(ms);
}

/**
 * Why a group's open comparisons stayed open, in words: its budget against the pace of its
 * rounds, or its rounds, or a difference on the δ line.
 */
export function whyOpen(group) {
  const { reason } = group.stop ?? {};
  const roundMs = group.time?.round_ms;
  if (reason === 'time budget' && group.rounds < MIN_ROUNDS_FOR_VERDICT && roundMs) {
    // Runs made before closing rounds existed do not record them, and say nothing of them.
    const closing = group.stop.closing_rounds;
    const after =
      closing === undefined
        ? ''
        : closing
          ? ` (${closing} more round${closing === 1 ? '' : 's'} ran for the comparisons it could still decide)`
          : '; no further round could decide one within three times the budget';
    return (
      `a round took ${duration(roundMs)}: the ${MIN_ROUNDS_FOR_VERDICT} rounds a CI needs did not fit the budget, ` +
      'and the stricter early test decides only ratios far outside δ' +
      after
    );
  }
  const ran = reason === 'time budget' ? 'the budget ran out' : reason === 'round budget' ? 'its rounds ran out' : null;
  if (!ran) return reason ?? '';
  // Each open comparison by what kept it open: too few rounds together, a CI clear of the δ
  // lines but not yet for the looks the stop rule asks, or a CI still across a line.
  const rule = group.judgment.margin_rule ?? 1;
  const { delta, looks } = group.judgment;
  const open = group.judgment.comparisons.filter((c) => !c.settled);
  const kinds = [
    [open.filter((c) => !(c.rounds >= MIN_ROUNDS_FOR_VERDICT)).length, 'with too few rounds together for a CI'],
    [
      open.filter((c) => c.rounds >= MIN_ROUNDS_FOR_VERDICT && isResolved(verdictOf(c, delta, rule))).length,
      `clear of the δ lines but not yet for ${looks} checks in a row`,
    ],
    [
      open.filter((c) => c.rounds >= MIN_ROUNDS_FOR_VERDICT && !isResolved(verdictOf(c, delta, rule))).length,
      'with the CI still across a δ line (a difference close to δ)',
    ],
  ].filter(([n]) => n > 0);
  return `${ran}: ${kinds.map(([n, what]) => `${n} ${what}`).join(', ')}`;
}

/**
 * What a run's time bought, from its groups' {group_id, time, comparisons, resolved} (resolved:
 * settled): the groups that had comparisons and settled none of them, and — over the groups that
 * had comparisons and recorded their time (a group of one cell has none: its time bought a
 * measurement, not an answer) — their time over the comparisons they settled.
 *
 * @returns {{answered: number, ms_per_answer: number|null, bought_nothing: string[]}}
 *     (ms_per_answer null where none of those groups resolved anything)
 */
export function whatTimeBought(groups) {
  const compared = groups.filter((g) => g.comparisons > 0);
  const timed = compared.filter((g) => g.time);
  const answered = timed.reduce((total, g) => total + g.resolved, 0);
  return {
    answered,
    ms_per_answer: answered ? timed.reduce((total, g) => total + g.time.total_ms, 0) / answered : null,
    bought_nothing: compared.filter((g) => g.resolved === 0).map((g) => g.group_id),
  };
}

/**
 * Per group: its time by phase, rounds, why it stopped, its comparisons by what decided them, and
 * what its time bought: the group time per resolved (settled) comparison, and whether it had
 * comparisons and settled none.
 *
 * @param groups read-runs.js groups
 * @returns {groups: [{group_id, time, budget (its share of a plan's total time, or null), rounds,
 *     stop, comparisons, by_bootstrap, by_few_rounds,
 *     open, resolved, ms_per_answer, bought_nothing, why_open}], total: {ms, warmup_ms, rounds_ms,
 *     decision_ms, verify_ms, comparisons, by_bootstrap, by_few_rounds, open, resolved,
 *     ...whatTimeBought}} (times only over groups that recorded them)
 */
export function timeSpent(groups) {
  const rows = groups.map((g) => {
    const all = g.judgment.comparisons;
    const open = all.filter((c) => !c.settled).length;
    const resolved = all.length - open;
    return {
      group_id: g.group_id,
      time: g.time,
      budget: g.budget ?? null,
      rounds: g.rounds,
      stop: g.stop?.reason ?? null,
      comparisons: all.length,
      by_bootstrap: all.filter((c) => c.decided_by === BOOTSTRAP_RULE || (c.settled && !c.decided_by)).length,
      by_few_rounds: all.filter((c) => c.decided_by === FEW_ROUNDS_RULE).length,
      open,
      resolved,
      ms_per_answer: g.time && resolved ? g.time.total_ms / resolved : null,
      bought_nothing: all.length > 0 && resolved === 0,
      why_open: open ? whyOpen(g) : '',
    };
  });
  const timed = rows.filter((r) => r.time);
  const sum = (of) => timed.reduce((total, r) => total + (of(r) ?? 0), 0);
  const count = (key) => rows.reduce((total, r) => total + r[key], 0);
  return {
    groups: rows,
    total: {
      ms: sum((r) => r.time.total_ms),
      warmup_ms: sum((r) => r.time.warmup_ms),
      rounds_ms: sum((r) => r.time.rounds_ms),
      decision_ms: sum((r) => r.time.decision_ms),
      verify_ms: sum((r) => r.time.verify_ms),
      comparisons: count('comparisons'),
      by_bootstrap: count('by_bootstrap'),
      by_few_rounds: count('by_few_rounds'),
      open: count('open'),
      resolved: count('resolved'),
      ...whatTimeBought(rows),
    },
  };
}

/**
 * Where a plan's estimate took its cells' times from ({memory, model}: how many were remembered
 * from earlier runs on this machine, how many modelled): said by the global setup before the
 * first group and by the report after the run.
 */
export function whereCellTimesCameFrom({ memory, model }) {
  if (model === 0) return 'every cell’s time remembered from earlier runs on this machine';
  if (memory === 0)
    return 'no cell measured on this machine before: each cell’s time modelled from its bytes, network and computation';
  const times = memory === 1 ? 'cell’s time' : 'cells’ times';
  return `${memory} ${times} remembered from earlier runs on this machine, ${model} modelled`;
}

/**
 * The MINUTES= that would give a plan's groups their minimum rounds (`need_ms`, run.json
 * `budget`), besides the run's set-up, which the total also pays: "MINUTES=40 and a few more for
 * the server's start and warm-up".
 */
export const minutesForNeed = (needMs) =>
  `MINUTES=${Math.ceil(needMs / 60_000)} and a few more for the server's start and warm-up`;

/**
 * The command that would give a run more time, for its opening's "not yet certain": where its
 * total was shorter than its groups needed, the MINUTES= that would give each its minimum rounds
 * ("PLAN=thesis MINUTES=49 npm run study, and a few minutes more for the server's start and
 * warm-up"); else twice the time its groups took ("PLAN=quick MINUTES=15 npm run study, twice this
 * run's time"); null where the groups kept no time.
 */
export function longerRun(context, groups) {
  const plan = context.plan?.name ? `PLAN=${context.plan.name} ` : '';
  const budget = context.budget;
  if (budget?.total_ms && budget.need_ms > budget.total_ms)
    return (
      `${plan}MINUTES=${Math.ceil(budget.need_ms / 60_000)} npm run study, and a few minutes more for the ` +
      "server's start and warm-up"
    );
  const spent = groups.filter((g) => g.time).reduce((sum, g) => sum + g.time.total_ms, 0);
  return spent > 0 ? `${plan}MINUTES=${Math.ceil((2 * spent) / 60_000)} npm run study, twice this run's time` : null;
}

/**
 * Where a one-session run's wall time went, from the runner's start (run.json sessions[0]
 * runner_started_at) to its last group's end: {wall_ms, before_ms (the server's start and
 * warm-up, before the first group), groups_ms (the groups' own time), between_ms (the rest: each
 * group's page and browser set-up)} — or null for a resumed run or one that did not record its start.
 */
export function runClock(context, groups) {
  const sessions = context.sessions ?? [];
  const start = Date.parse(sessions[0]?.runner_started_at);
  const timed = groups.filter((g) => g.started_at && g.finished_at && g.time);
  if (sessions.length !== 1 || !Number.isFinite(start) || !timed.length) return null;
  const first = Math.min(...timed.map((g) => Date.parse(g.started_at)));
  const last = Math.max(...timed.map((g) => Date.parse(g.finished_at)));
  const groupsMs = timed.reduce((sum, g) => sum + g.time.total_ms, 0);
  return {
    wall_ms: last - start,
    before_ms: first - start,
    groups_ms: groupsMs,
    between_ms: Math.max(0, last - first - groupsMs),
  };
}

/**
 * How a plan's total time was shared (run.json `budget`, experiments/budget/plan-cost.js), in
 * words: the total, what the groups were expected to need, and how each got its share.
 */
export function budgetParagraph(budget, clock = null) {
  const from = whereCellTimesCameFrom(budget.cells);
  const beyond = budget.beyond_total.length
    ? ` ${budget.beyond_total.length === 1 ? 'One group' : `${budget.beyond_total.length} groups`} alone needed more ` +
      `than the total (${budget.beyond_total.join(', ')}) and got the time the others left, ` +
      'in which only large differences could be decided.'
    : '';
  return (
    `The plan's total time was ${duration(budget.total_ms)}. Before the first group, its groups were expected to ` +
    `need ${duration(budget.need_ms)} to reach the stop rule's minimum rounds (${from}). Each group, once warm, got ` +
    "a share of what was left for rounds, by weight against the groups after it (each weighs the plan's own " +
    'budget per group, or its minimum rounds where those take longer; the "share for rounds" column): time a ' +
    'group did not use went to the ones after it.' +
    (budget.need_ms > budget.total_ms
      ? " The total was less than that need, so most shares were smaller than the plan's own budget per group " +
        `(${minutesForNeed(budget.need_ms)} would give every group its minimum rounds).`
      : '') +
    beyond +
    (clock
      ? ` The total counts from the run's start: before the first group, the server's start and warm-up took ` +
        `${duration(clock.before_ms)}; the groups took ${duration(clock.groups_ms)}, and each group's page and ` +
        `browser set-up between them ${duration(clock.between_ms)}; the last group ended ` +
        `${duration(clock.wall_ms)} after the start.`
      : '')
  );
}

/**
 * Whether warm-up iterations that stood as their cell's round 1 (client/group-runner.js: an
 * iteration long enough to end the warm-up alone) were already warm: each one's time over the
 * median of the same cell's later rounds, and whether it lies within the range of those later
 * iterations (the noise any one iteration of that cell has). {n, compared (those with two later
 * iterations or more), median_ratio, low, high, within (of the compared, inside that range),
 * slower (of the compared, above it), expected_slower (how many would be, were the first
 * iteration like any later one)} — or null where none stood as round 1.
 */
export function countedWarmups(cells) {
  const counted = cells.flatMap((cell) => cell.samples.filter((s) => s.from_warmup).map((first) => ({ cell, first })));
  if (!counted.length) return null;
  const compared = counted
    .map(({ cell, first }) => {
      const later = cell.samples.filter((s) => s.round > first.round).map((s) => s.total_ms);
      if (later.length < 2) return null;
      return {
        ratio: first.total_ms / median(later),
        within: first.total_ms >= Math.min(...later) && first.total_ms <= Math.max(...later),
        slower: first.total_ms > Math.max(...later),
        // Were the first like any later iteration, it would be the slowest of the n + 1 this often.
        chance: 1 / (later.length + 1),
      };
    })
    .filter(Boolean);
  const ratios = compared.map((c) => c.ratio).sort((a, b) => a - b);
  return {
    n: counted.length,
    compared: compared.length,
    median_ratio: ratios.length ? median(ratios) : null,
    low: ratios[0] ?? null,
    high: ratios.at(-1) ?? null,
    within: compared.filter((c) => c.within).length,
    slower: compared.filter((c) => c.slower).length,
    expected_slower: compared.reduce((sum, c) => sum + c.chance, 0),
  };
}

/** countedWarmups in words, for the report's time section. */
export function countedWarmupParagraph(check) {
  const one = check.n === 1;
  const stood =
    `${check.n} warm-up iteration${one ? '' : 's'} took a second or more, so ${one ? 'it' : 'each'} counted as ` +
    `its cell’s first round instead of being run again.`;
  if (!check.compared) return `${stood} None of those cells ran two later rounds to check it against.`;
  const fmt = (r) => r.toFixed(2);
  const below = check.compared - check.within - check.slower;
  const cells = check.compared === 1 ? 'One of those cells' : `${check.compared} of those cells`;
  const expected = check.expected_slower < 1 ? check.expected_slower.toFixed(1) : Math.round(check.expected_slower);
  return (
    `${stood} ${one ? 'Was it' : 'Were they'} already warm? ${cells} ran two later rounds or more to check ` +
    'against: in the median, ' +
    `the first iteration took ${fmt(check.median_ratio)}× the median of the later ones (from ${fmt(check.low)}× ` +
    `to ${fmt(check.high)}× across cells). ${check.within} lay within the range of ${
      check.compared === 1 ? 'its' : 'their'
    } cell’s later iterations, ${check.slower} above all of them and ${below} below; had first iterations been ` +
    `no slower than later ones, about ${expected} would have been above all of them by chance.`
  );
}

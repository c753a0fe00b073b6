// A plan's total time, shared among its groups while the run goes. Each group asks for its share
// once its warm-up has measured what one of its rounds costs (client/group-runner.js `budget`).
// What is left of the total, less what the groups still to come will spend on their pages and
// warm-ups (group-cost.js: estimated from the last runs' timings on this machine, or a model), is
// split between this group's rounds and theirs by weight: each group's weight is the protocol's
// own `maxMs` (every group alike: a comparison close to δ needs many rounds however cheap they
// are), or the time of its minimum rounds where that is more (a group of slow cells needs that
// much to be judged at all). A group that settles early leaves its share in the pool, so later
// groups still open get it; a group that runs over leaves less. A group whose minimum rounds
// need more than all that is left gets only what the groups after it do not claim (the run says
// before it starts which groups alone need more than the total). The share is the budget of its
// rounds (the protocol's `maxMs`), with everything that budget already means (VERDICT_STRETCH,
// closing rounds, the decision's time).

import { PAGE_MS } from './group-cost.js';

/** Kept back from the total for the report and the run's end. */
export const END_RESERVE_MS = 15_000;

export class TimePool {
  /**
   * @param totalMs the plan's total time
   * @param usedMs the time the run's groups took in earlier sessions (a resumed run)
   * @param startedMs when this session started (ms since the epoch)
   * @param groups [{id, warmup_ms, round_ms}] the groups this session will run, in their order,
   *     with their estimated warm-up and round (group-cost.js estimateGroup)
   * @param shards the machines that share the plan (--shard): each runs about 1/shards of the
   *     groups after this one
   */
  constructor({ totalMs, usedMs = 0, startedMs, groups, shards = 1 }) {
    Object.assign(this, { totalMs, usedMs, startedMs, groups, shards });
  }

  /** What is left of the total at `now`, the end's reserve kept back. */
  leftMs(now) {
    return this.totalMs - this.usedMs - (now - this.startedMs) - END_RESERVE_MS;
  }

  /**
   * The rounds' budget of group `id` after its warm-up.
   *
   * @param measured {round_ms}: what one of its rounds costs, from its warm-up
   * @param rounds the protocol's rounds {minRounds, maxMs}
   * @returns {rounds_ms, from: 'pool', total_ms, left_ms, need_ms (its minimum rounds),
   *     later_groups, later_fixed_ms (their pages and warm-ups), later_weight_ms, beyond_total:
   *     whether its minimum rounds need more than is left, floor: whether the share fell below
   *     the floor (the protocol's maxMs, or its minimum rounds if those cost less) and the floor
   *     was given}
   */
  share(id, measured, rounds, now = Date.now()) {
    const index = this.groups.findIndex((g) => g.id === id);
    const later = index < 0 ? [] : this.groups.slice(index + 1);
    const sum = (of) => later.reduce((total, g) => total + of(g), 0) / this.shards;
    const weight = (roundMs) => Math.max(rounds.maxMs, rounds.minRounds * roundMs);
    const laterFixed = sum((g) => PAGE_MS + g.warmup_ms);
    const laterWeight = sum((g) => weight(g.round_ms));
    const need = rounds.minRounds * measured.round_ms;
    const left = this.leftMs(now);
    const available = left - laterFixed;
    const beyond = need > left;
    const share = beyond
      ? available - laterWeight
      : (available * weight(measured.round_ms)) / (weight(measured.round_ms) + laterWeight);
    // Past its total a run still gives each group a try: the plan's own budget, or its minimum
    // rounds when those cost less.
    const floor = Math.min(rounds.maxMs, need);
    return {
      rounds_ms: Math.round(Math.max(share, floor)),
      from: 'pool',
      total_ms: this.totalMs,
      left_ms: Math.round(left),
      need_ms: Math.round(need),
      later_groups: Math.round(later.length / this.shards),
      later_fixed_ms: Math.round(laterFixed),
      later_weight_ms: Math.round(laterWeight),
      beyond_total: beyond,
      floor: share < floor,
    };
  }
}

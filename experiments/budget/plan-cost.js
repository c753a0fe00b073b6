// A plan's cost before it runs (group-cost.js for each of its groups), and what its total time
// (the plan's "minutes", or MINUTES=) can decide: the global setup states it before the first
// group and keeps it in run.json as `budget`; the study's groups share the total from it
// (pool.js).

import { apiPath } from '#common/schema.js';
import { groupProtocol } from '../../client/group-runner.js';
import { cellTimeKey, rememberedCellTimes } from './cell-time-memory.js';
import { estimateGroup, modelledCellMs } from './group-cost.js';
import { minutesForNeed, whereCellTimesCameFrom } from '../../analysis/time-spent.js';

/** The count a cell's bytes per object are measured at: enough objects for the format's framing to vanish. */
const SIZE_COUNT = 1000;

const sizeKey = (cell) => `${cell.object}/${cell.format}/${cell.compression}/${cell.level ?? ''}`;

/**
 * The bytes per object on the wire of every (object, format, compression, level) among `cells`,
 * as the server sends them at up to SIZE_COUNT objects: {key → bytes}. `measure(paths)` gives
 * each path's bytes on the wire (the browser's encodedBodySize: under netns only a page reaches
 * the server).
 */
export async function bytesPerObject(cells, measure) {
  const asked = new Map();
  for (const cell of cells) {
    const key = sizeKey(cell);
    if (!asked.has(key)) asked.set(key, { count: Math.min(cell.count, SIZE_COUNT), cell });
  }
  const entries = [...asked.entries()];
  const bytes = entries.length
    ? await measure(entries.map(([, { count, cell }]) => apiPath({ ...cell, count }, 0)))
    : [];
  return new Map(entries.map(([key, { count }], i) => [key, bytes[i] > 0 ? bytes[i] / count : null]));
}

/** bytesPerObject's `measure` in a page of the client: each body fetched once, its bytes from Resource Timing. */
export function measureInPage(page) {
  return (paths) =>
    page.evaluate(async (asked) => {
      const sizes = [];
      for (const path of asked) {
        const url = new URL(path, location.href).href;
        await (await fetch(url, { cache: 'no-store' })).arrayBuffer();
        sizes.push(performance.getEntriesByName(url).pop()?.encodedBodySize ?? null);
      }
      performance.clearResourceTimings();
      return sizes;
    }, paths);
}

/**
 * The cost of every group of a plan and what its total buys.
 *
 * @param groups experiments/plan.js comparisonGroups (cells with their case_id)
 * @param plan the plan ({protocol, minutes})
 * @param times {key → {ms}} the machine's remembered cell times (cell-time-memory.js)
 * @param browser {engine, version}; shaping the run's mechanism
 * @param sizes bytesPerObject's table, for the cells not remembered
 * @returns {minutes, total_ms, need_ms, cells: {memory, model}, groups: [{id, warmup_ms,
 *     round_ms, need_ms}], beyond_total: the groups that alone need more than the total}
 */
export function planCost(groups, plan, { times, browser, shaping, sizes }) {
  const protocol = groupProtocol(plan.protocol ?? {});
  const cellMs = (cell) => {
    const remembered = times[cellTimeKey(browser, shaping, cell.case_id)];
    if (remembered?.ms > 0) return { ms: remembered.ms, from: 'memory' };
    return { ms: modelledCellMs(cell, (c) => sizes.get(sizeKey(c)) ?? null), from: 'model' };
  };
  const estimates = groups.map((group) => {
    const { from, ...estimate } = estimateGroup(group, protocol, cellMs);
    return { id: group.id, ...estimate, from };
  });
  const totalMs = plan.minutes ? plan.minutes * 60_000 : null;
  return {
    minutes: plan.minutes ?? null,
    total_ms: totalMs,
    need_ms: estimates.reduce((sum, g) => sum + g.need_ms, 0),
    cells: {
      memory: estimates.reduce((sum, g) => sum + g.from.memory, 0),
      model: estimates.reduce((sum, g) => sum + g.from.model, 0),
    },
    groups: estimates.map(({ from, ...g }) => g),
    beyond_total: totalMs ? estimates.filter((g) => g.need_ms > totalMs).map((g) => g.id) : [],
  };
}

/** planCost for a run about to start: the machine's memory, and the server's sizes (`measure`) for the rest. */
export async function costOfRun(groups, plan, { measure, browser, shaping, env = process.env }) {
  const times = rememberedCellTimes(env);
  const unknown = groups
    .flatMap((g) => g.cells)
    .filter((c) => !(times[cellTimeKey(browser, shaping, c.case_id)]?.ms > 0));
  const sizes = await bytesPerObject(unknown, measure);
  return planCost(groups, plan, { times, browser, shaping, sizes });
}

const groupsNeed = (n) => (n === 1 ? 'one group needs' : `${n} groups need`);
const minutesOf = (ms) => `${Math.round(ms / 60_000)} min`;

/** What the global setup says of a plan's cost before its first group. */
export function costLines(cost, planName) {
  const known = whereCellTimesCameFrom(cost.cells);
  const lines = [
    `Plan ${planName}: ${minutesOf(cost.total_ms)} in total; its ${groupsNeed(cost.groups.length)} about ` +
      `${minutesOf(cost.need_ms)} to reach the stop rule's minimum rounds (${known}). ` +
      'Each group gets a share of what is left when it starts; time a group does not need goes to the ones after it.',
  ];
  if (cost.need_ms > cost.total_ms) {
    lines.push(
      "  That is more than the total: most groups will get less than the plan's own budget per group, and more " +
        'comparisons will stay open. ' +
        `${minutesForNeed(cost.need_ms)} would give every group its minimum.`,
    );
  }
  for (const id of cost.beyond_total) {
    const need = cost.groups.find((g) => g.id === id).need_ms;
    lines.push(
      `  ${id} alone needs about ${minutesOf(need)}: it gets the time the other groups leave, ` +
        'in which only large differences can be decided (by the few-rounds test), not its minimum rounds.',
    );
  }
  return lines;
}

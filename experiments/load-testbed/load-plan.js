// Load testbed plans (experiments/load-testbed/plans/*.json), as data like the study's plans: which
// objects, formats, compressions, methods (GET answers N objects, POST sends N objects to the
// ingest endpoint), counts and bandwidths; how many connections for how long. A plan expands to
// cells; the cells that differ only in format (and compression) form one comparison group, and
// each round visits a group's cells in a seeded random order, so that what is compared is
// measured side by side, not minutes apart. The server's maximum heap and idle timeout are plan
// settings too (server_heap_mb, server_idle_timeout_s), recorded with the run.
//
// A plan with "open_loop" also finds, per cell, the highest constant rate the server sustains
// with p99 latency under a target and no errors (Vegeta; analysis/open-loop.js has the search),
// after the closed-loop measurement, which stays for comparison with the related testbed.

import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMPRESSIONS, FORMATS, OBJECT_NAMES } from '#common/catalogue.js';
import { roundSeed, seededShuffle } from '#common/comparison.js';

const PLANS = join(dirname(fileURLToPath(import.meta.url)), 'plans');
export const METHODS = Object.freeze(['GET', 'POST']);
/** Generous upper bounds: a plan asking beyond them is a typo, not a study. */
const LIMITS = Object.freeze({
  connections: 10_000,
  threads: 64,
  duration_s: 3600,
  warmup_s: 600,
  waves: 20,
  rounds: 100,
  count: 100_000,
  bandwidth_mbit: 100_000,
  server_idle_timeout_s: 3600,
  server_heap_mb: 65_536,
});
/** The constant-rate mode's settings: defaults, and the bounds a value must lie within. */
export const OPEN_LOOP_DEFAULTS = Object.freeze({
  warmup_s: 5,
  window_s: 10,
  precision: 0.1,
  max_probes: 8,
  min_per_s: 0.1,
  max_per_s: 20_000,
  start_share: 0.5,
  generators: 1,
  protocol: 'http1.1',
});
/**
 * Protocols the constant-rate mode can load with (common/protocols.js): the server's cleartext
 * HTTP/1.1, HTTP/1.1 over TLS and HTTP/2 over TLS (Vegeta's -http2).
 */
export const LOAD_PROTOCOLS = Object.freeze(['http1.1', 'http1.1-tls', 'h2']);
const OPEN_LOOP_BOUNDS = Object.freeze({
  p99_target_ms: [1, 600_000],
  warmup_s: [0, 600],
  window_s: [1, 3600],
  precision: [0.01, 1],
  max_probes: [1, 50],
  min_per_s: [0.001, 1_000_000],
  max_per_s: [0.001, 1_000_000],
  start_share: [0.01, 10],
  max_send_lag_ms: [0.1, 60_000],
  generators: [1, 16],
});

/** The server's heap must hold the study's datasets (a million objects of each kind) beside the load. */
const MIN_HEAP_MB = 1024;

const isPositiveInteger = (value, max) => Number.isInteger(value) && value >= 1 && value <= max;

/** The plans in experiments/load-testbed/plans. */
export function listLoadPlans() {
  return readdirSync(PLANS)
    .filter((f) => f.endsWith('.json'))
    .map((f) => basename(f, '.json'))
    .sort();
}

/** A plan by name (experiments/load-testbed/plans/<name>.json) or by path, checked. */
export function loadLoadPlan(nameOrPath) {
  const path = nameOrPath.endsWith('.json') ? nameOrPath : join(PLANS, `${nameOrPath}.json`);
  if (!existsSync(path)) {
    throw new Error(
      `no load plan "${nameOrPath}": the plans are ${listLoadPlans().join(', ')} (or give a path to a .json file)`,
    );
  }
  let plan;
  try {
    plan = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`${path} is not JSON: ${error.message}`, { cause: error });
  }
  return checkLoadPlan(plan, path);
}

/** Fills defaults and refuses what cannot be run, naming the field and what is allowed. */
export function checkLoadPlan(input, where = 'the plan') {
  const plan = {
    objects: ['books'],
    compressions: ['none'],
    threads: 2,
    warmup_s: 5,
    waves: 3,
    rounds: 1,
    server_idle_timeout_s: 300,
    server_heap_mb: 2048,
    ...input,
  };
  const problem = (message) => new Error(`${where}: ${message}`);
  if (typeof plan.name !== 'string' || !/^[a-z0-9-]{1,40}$/.test(plan.name))
    throw problem('"name" is 1–40 lower-case letters, digits or dashes');
  const list = (key, allowed) => {
    const value = plan[key] === 'all' ? [...allowed] : plan[key];
    if (!Array.isArray(value) || value.length === 0)
      throw problem(`"${key}" is a non-empty list of ${allowed.join(', ')} (or "all")`);
    for (const v of value)
      if (!allowed.includes(v)) throw problem(`"${key}" has ${JSON.stringify(v)}; allowed: ${allowed.join(', ')}`);
    if (new Set(value).size !== value.length) throw problem(`"${key}" lists a value twice`);
    return value;
  };
  plan.objects = list('objects', OBJECT_NAMES);
  plan.formats = list('formats', FORMATS);
  plan.compressions = list('compressions', COMPRESSIONS);
  plan.methods = list('methods', METHODS);
  for (const [key, max] of [
    ['counts', LIMITS.count],
    ['bandwidths_mbit', LIMITS.bandwidth_mbit],
  ]) {
    const values = plan[key];
    if (
      !Array.isArray(values) ||
      values.length === 0 ||
      !values.every((v) => Number.isFinite(v) && v > 0 && v <= max)
    ) {
      throw problem(`"${key}" is a non-empty list of numbers in (0, ${max}]`);
    }
  }
  if (!plan.counts.every(Number.isInteger)) throw problem('"counts" are whole numbers of objects');
  for (const key of ['connections', 'threads', 'duration_s', 'waves', 'rounds']) {
    if (!isPositiveInteger(plan[key], LIMITS[key]))
      throw problem(`"${key}" is a whole number from 1 to ${LIMITS[key]}`);
  }
  if (!Number.isInteger(plan.warmup_s) || plan.warmup_s < 0 || plan.warmup_s > LIMITS.warmup_s) {
    throw problem(`"warmup_s" is a whole number of seconds from 0 to ${LIMITS.warmup_s}`);
  }
  if (!isPositiveInteger(plan.server_idle_timeout_s, LIMITS.server_idle_timeout_s)) {
    throw problem(`"server_idle_timeout_s" is a whole number of seconds from 1 to ${LIMITS.server_idle_timeout_s}`);
  }
  if (
    !Number.isInteger(plan.server_heap_mb) ||
    plan.server_heap_mb < MIN_HEAP_MB ||
    plan.server_heap_mb > LIMITS.server_heap_mb
  ) {
    throw problem(
      `"server_heap_mb" is the server's maximum heap in MiB, ` +
        `a whole number from ${MIN_HEAP_MB} to ${LIMITS.server_heap_mb}`,
    );
  }
  if (plan.threads > plan.connections)
    throw problem('"threads" cannot exceed "connections" (wrk gives each thread at least one)');
  if (plan.open_loop !== undefined) plan.open_loop = checkOpenLoop(plan.open_loop, problem);
  return plan;
}

/** The "open_loop" block: p99_target_ms is required, the rest has defaults (OPEN_LOOP_DEFAULTS). */
function checkOpenLoop(input, problem) {
  if (input === null || typeof input !== 'object' || Array.isArray(input))
    throw problem('"open_loop" is an object with at least "p99_target_ms"');
  const known = new Set([...Object.keys(OPEN_LOOP_BOUNDS), 'protocol', 'start_per_s']);
  for (const key of Object.keys(input))
    if (!known.has(key)) throw problem(`"open_loop" has no setting "${key}"; it has ${[...known].join(', ')}`);
  // A generator late by up to a tenth of the target cannot turn a sustained rate into a failed one.
  const settings = { ...OPEN_LOOP_DEFAULTS, max_send_lag_ms: (input.p99_target_ms ?? 0) / 10, ...input };
  for (const [key, [min, max]] of Object.entries(OPEN_LOOP_BOUNDS)) {
    const value = settings[key];
    const whole = ['max_probes', 'generators', 'warmup_s', 'window_s'].includes(key);
    if (typeof value !== 'number' || !(value >= min && value <= max) || (whole && !Number.isInteger(value)))
      throw problem(`"open_loop.${key}" is a ${whole ? 'whole number' : 'number'} from ${min} to ${max}`);
  }
  if (settings.start_per_s !== undefined) {
    const start = settings.start_per_s;
    if (typeof start !== 'number' || !(start >= settings.min_per_s && start <= settings.max_per_s))
      throw problem('"open_loop.start_per_s" is a rate between "min_per_s" and "max_per_s"');
  }
  if (settings.min_per_s >= settings.max_per_s) throw problem('"open_loop.min_per_s" must be below "max_per_s"');
  if (!LOAD_PROTOCOLS.includes(settings.protocol))
    throw problem(
      `"open_loop.protocol" is one of ${LOAD_PROTOCOLS.join(', ')} (the protocols Vegeta speaks; it has no HTTP/3)`,
    );
  return settings;
}

/** A cell's id: books/json/none/GET/10/100mbit. */
export function loadCellId(cell) {
  return `${cell.object}/${cell.format}/${cell.compression}/${cell.method}/${cell.count}/${cell.bandwidth_mbit}mbit`;
}

/** The comparison group a cell belongs to: the cells that differ from it only in format or compression. */
export function loadGroupId(cell) {
  return `${cell.object}/${cell.method}/${cell.count}/${cell.bandwidth_mbit}mbit`;
}

/** Every cell of the plan, grouped: [{id, cells}], slowest links first within each object and method. */
export function loadGroups(plan) {
  const groups = new Map();
  for (const object of plan.objects) {
    for (const method of plan.methods) {
      for (const count of plan.counts) {
        for (const bandwidth of [...plan.bandwidths_mbit].sort((a, b) => a - b)) {
          for (const format of plan.formats) {
            for (const compression of plan.compressions) {
              const cell = { object, format, compression, method, count, bandwidth_mbit: bandwidth };
              const id = loadGroupId(cell);
              if (!groups.has(id)) groups.set(id, { id, cells: [] });
              groups.get(id).cells.push({ ...cell, id: loadCellId(cell) });
            }
          }
        }
      }
    }
  }
  return [...groups.values()];
}

/**
 * The order in which round `round` (from 1) visits a group's cells: seeded by the run's seed, the
 * group and the round.
 */
export function visitOrder(group, round, seed) {
  return seededShuffle(group.cells, roundSeed(seed, group.id, round));
}

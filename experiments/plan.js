// Experiment plans are data (plans/*.json): groups of dimensions whose cartesian product, minus
// each group's `exclude` rules, gives the cells. The cells then fall into comparison groups
// (comparisonGroups): the cells the report compares with each other, which run together,
// interleaved, in one page (client/group-runner.js); `protocol` says how (warm-up, rounds, when
// to stop). A rule matches a cell when every key it names matches (a value or a list of
// values); keys are object, format, decoder, compression, level, count, scenario, cm, network. A group
// may name "decoders": "all" (every decoder of each of its formats) or a list of decoder names
// (those its formats have); without it, each format's default decoder. Likewise "levels" maps a
// compression to the levels to measure it at (e.g. {"br": [1, 6, 11]}); a compression it does not
// name is measured at its default level (the catalogue's). Allowed values come from
// the catalogue (common/catalogue.js); any dimension but counts may be "all", so that a plan
// picks up a format added to the catalogue. A plan may say "extends": "<plan>" to take that plan's
// groups (and anything else it does not set itself), e.g. the same matrix with another
// protocol. Write your own plan next to the others and run it with PLAN=<name>, or
// PLAN=path/to/plan.json.

import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CMS, COMPRESSIONS, FORMATS, OBJECT_NAMES, SCENARIOS, caseId } from '#common/schema.js';
import { decodersOf, defaultDecoder, defaultLevel, levelProblem, scenarioTakesCm } from '#common/catalogue.js';
import { groupId } from '#common/comparison.js';
import { NETWORKS } from './network/profiles.js';
import { groupProtocol } from '../client/group-runner.js';

const PLANS_DIRECTORY = join(dirname(fileURLToPath(import.meta.url)), 'plans');

/** Dimension in a group → the cell key it sets, and its allowed values. */
const DIMENSIONS = [
  ['networks', 'network', Object.keys(NETWORKS)],
  ['objects', 'object', OBJECT_NAMES],
  ['formats', 'format', FORMATS],
  ['compressions', 'compression', COMPRESSIONS],
  ['counts', 'count', null],
  ['scenarios', 'scenario', SCENARIOS],
  ['cms', 'cm', CMS],
];

/** Reads plans/<name>.json, or a path to a plan file. */
export function loadPlan(nameOrPath) {
  const path = nameOrPath.endsWith('.json') ? nameOrPath : join(PLANS_DIRECTORY, `${nameOrPath}.json`);
  if (!existsSync(path)) {
    throw new Error(`No plan "${nameOrPath}" (looked for ${path}); the plans are ${listPlans().join(', ')}`);
  }
  let plan = JSON.parse(readFileSync(path, 'utf8'));
  if (plan.extends) {
    if (plan.extends === plan.name) throw new Error(`Plan ${path} extends itself`);
    const { name, description, ...base } = loadPlan(plan.extends);
    plan = { ...base, ...plan };
  }
  return validatePlan(plan, path);
}

/** The plans in experiments/plans/, by name. */
export function listPlans() {
  return readdirSync(PLANS_DIRECTORY)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -5))
    .sort();
}

function validatePlan(plan, source) {
  const problems = [];
  if (typeof plan.name !== 'string') problems.push('"name" must be a string');
  try {
    groupProtocol(plan.protocol ?? {});
  } catch (error) {
    problems.push(error.message.replace(/^Invalid protocol: /, 'protocol: '));
  }
  if (!Array.isArray(plan.groups) || plan.groups.length === 0) problems.push('"groups" must list at least one group');
  for (const [index, group] of (plan.groups ?? []).entries()) {
    if (group.decoders !== undefined && group.decoders !== 'all') {
      const offered = new Set(
        (valuesOf(group, 'formats') ?? []).filter((f) => FORMATS.includes(f)).flatMap(decodersOf),
      );
      if (!Array.isArray(group.decoders) || group.decoders.length === 0) {
        problems.push(`group ${index + 1}: "decoders" must be "all" or a list of decoder names`);
      } else {
        for (const name of group.decoders) {
          if (!offered.has(name))
            problems.push(
              `group ${index + 1}: decoders has ${JSON.stringify(name)}; its formats offer ${[...offered].join(', ')}`,
            );
        }
      }
    }
    if (group.levels !== undefined) {
      if (!group.levels || typeof group.levels !== 'object' || Array.isArray(group.levels)) {
        problems.push(`group ${index + 1}: "levels" must map compressions to lists of levels, e.g. {"br": [1, 6, 11]}`);
      } else {
        const measured = valuesOf(group, 'compressions') ?? [];
        for (const [compression, levels] of Object.entries(group.levels)) {
          if (!measured.includes(compression)) {
            problems.push(
              `group ${index + 1}: levels names ${JSON.stringify(compression)}, which is not one of its compressions (${measured.join(', ')})`,
            );
          } else if (!Array.isArray(levels) || levels.length === 0) {
            problems.push(`group ${index + 1}: levels of ${compression} must be a list of levels`);
          } else {
            for (const level of levels) {
              const problem = levelProblem(compression, level);
              if (problem) problems.push(`group ${index + 1}: ${problem}`);
            }
          }
        }
      }
    }
    for (const [dimension, , allowed] of DIMENSIONS) {
      const values = valuesOf(group, dimension);
      if (!Array.isArray(values) || values.length === 0) {
        problems.push(`group ${index + 1} needs "${dimension}" (a list)`);
      } else if (allowed) {
        for (const value of values) {
          if (!allowed.includes(value))
            problems.push(
              `group ${index + 1}: ${dimension} has ${JSON.stringify(value)}; allowed: ${allowed.join(', ')}`,
            );
        }
      } else if (!values.every((v) => Number.isInteger(v) && v >= 1)) {
        problems.push(`group ${index + 1}: counts must be whole numbers ≥ 1`);
      }
    }
  }
  if (problems.length) throw new Error(`Plan ${source} is not valid: ${problems.join('; ')}`);
  return plan;
}

/** A group's values of a dimension; "all" means every value the catalogue (or the network profiles) has. */
function valuesOf(group, dimension) {
  const allowed = DIMENSIONS.find(([name]) => name === dimension)?.[2];
  return group[dimension] === 'all' && allowed ? [...allowed] : group[dimension];
}

/** The decoders a group measures for one of its formats. */
function decodersIn(group, format) {
  if (group.decoders === undefined) return [defaultDecoder(format)];
  if (group.decoders === 'all') return decodersOf(format);
  return decodersOf(format).filter((name) => group.decoders.includes(name));
}

/** The levels a group measures a compression at (none: [null], it has no levels). */
function levelsIn(group, compression) {
  return group.levels?.[compression] ?? [defaultLevel(compression)];
}

function matches(rule, cell) {
  return Object.entries(rule).every(([key, value]) => (Array.isArray(value) ? value : [value]).includes(cell[key]));
}

/**
 * The plan's cells, in order (network first, so shaping changes seldom), without duplicates.
 * `network` (from NETWORK) replaces every group's networks.
 */
export function expandPlan(plan, { network } = {}) {
  if (network && !NETWORKS[network]) {
    throw new Error(`Unknown network "${network}"; the profiles are ${Object.keys(NETWORKS).join(', ')}`);
  }
  const cells = new Map();
  for (const group of plan.groups) {
    let partial = [{}];
    for (const [dimension, key] of DIMENSIONS) {
      const values = dimension === 'networks' && network ? [network] : valuesOf(group, dimension);
      partial = partial.flatMap((cell) => values.map((value) => ({ ...cell, [key]: value })));
    }
    partial = partial.flatMap((cell) => decodersIn(group, cell.format).map((decoder) => ({ ...cell, decoder })));
    partial = partial.flatMap((cell) => levelsIn(group, cell.compression).map((level) => ({ ...cell, level })));
    for (const cell of partial) {
      if ((group.exclude ?? []).some((rule) => matches(rule, cell))) continue;
      if (!scenarioTakesCm(cell.scenario, cell.cm)) continue; // scenario 1 has CM0; 2–5 compute
      const ordered = {
        object: cell.object,
        format: cell.format,
        decoder: cell.decoder,
        compression: cell.compression,
        level: cell.level,
        count: cell.count,
        scenario: cell.scenario,
        cm: cell.cm,
        network: cell.network,
      };
      cells.set(caseId(ordered), ordered);
    }
  }
  const networkOrder = Object.keys(NETWORKS);
  return [...cells.values()].sort((a, b) => networkOrder.indexOf(a.network) - networkOrder.indexOf(b.network));
}

/** The plan's comparison groups, [{id, cells}], network first (so shaping changes seldom). */
export function comparisonGroups(plan, options = {}) {
  const groups = new Map();
  for (const cell of expandPlan(plan, options)) {
    const id = groupId(cell);
    if (!groups.has(id)) groups.set(id, { id, network: cell.network, cells: [] });
    groups.get(id).cells.push(cell);
  }
  return [...groups.values()];
}

// Experiment plans are data (plans/*.json): groups of dimensions whose cartesian product, minus
// each group's `exclude` rules, gives the cells. The cells then fall into comparison groups
// (comparisonGroups): the cells the report compares with each other, which run together,
// interleaved, in one page (client/group-runner.js); `protocol` says how (warm-up, rounds, when
// to stop). A group lists the values of every dimension of a cell (common/cell.js) under its plan
// key (objects, formats, compressions, counts, scenarios, cms, networks; "protocols" may be left
// out for cleartext HTTP/1.1). A rule matches a cell
// when every key it names matches (a value or a list of values); keys are the cell's. A group
// may name "decoders": "all" (every decoder of each of its formats) or a list of decoder names
// (those its formats have); without it, each format's default decoder. Likewise "levels" maps a
// compression to the levels to measure it at (e.g. {"br": [1, 6, 11]}); a compression it does not
// name is measured at its default level (the catalogue's). Allowed values come from
// the catalogue (common/catalogue.js); any dimension but counts may be "all", so that a plan
// picks up a format added to the catalogue. A plan may say "extends": "<plan>" to take that plan's
// groups (and anything else it does not set itself), e.g. the same matrix with another
// protocol. Write your own plan next to the others and run it with PLAN=<name>, or
// PLAN=path/to/plan.json. A plan may bring datasets of its own (docs/datasets.md): "datasets"
// maps a name to a JSON or JSON Lines file (relative to the repository), or to {"file", "proto",
// "message"} with the dataset's own .proto; DATA=path or DATA=name=path (several, comma-separated)
// adds to them, DATA_PROTO=name=path#Message gives one its .proto, and a group's "objects":
// "datasets" stands for all of them. A plan may give its total time, "minutes" (MINUTES= sets or
// overrides it): each group's rounds then get a share of what is left (budget/pool.js) instead of
// the protocol's fixed maxMs.

import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FORMATS, decodersOf, levelProblem } from '#common/catalogue.js';
import { DIMENSIONS, caseId, cellProblems, completeCell, expandGroup, groupId } from '#common/cell.js';
import { DATASET_NAME, declareDataset } from '#common/datasets.js';
import { groupProtocol } from '../client/group-runner.js';

const PLANS_DIRECTORY = join(dirname(fileURLToPath(import.meta.url)), 'plans');
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * DATA's datasets: "path" (named after the file: its base name up to the first dot, lowercased,
 * other characters than a–z, 0–9 and - made -) or "name=path", comma-separated.
 */
export function parseData(data) {
  const datasets = {};
  for (const item of (data ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const equals = item.indexOf('=');
    const path = equals < 0 ? item : item.slice(equals + 1);
    const name =
      equals < 0
        ? basename(path)
            .split('.')[0]
            .toLowerCase()
            .replace(/[^a-z0-9-]/g, '-')
            .replace(/^[^a-z]+/, '')
            .slice(0, 32)
        : item.slice(0, equals);
    if (!DATASET_NAME.test(name)) {
      throw new Error(
        `DATA=${item}: "${name}" is not a dataset name (lowercase letters, digits and "-", ` +
          `starting with a letter, at most 32 characters); write DATA=name=${path}`,
      );
    }
    datasets[name] = path;
  }
  return datasets;
}

/**
 * DATA_PROTO's .proto files (docs/datasets.md#your-own-proto): "name=path#Message", comma-separated,
 * or "path#Message" alone when there is one dataset (`only`): {name: {proto, message}}.
 */
export function parseDataProto(dataProto, only) {
  const protos = {};
  for (const item of (dataProto ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const equals = item.indexOf('=');
    const hash = item.lastIndexOf('#');
    const name = equals < 0 ? only : item.slice(0, equals);
    if (hash < 0 || hash === item.length - 1 || !name) {
      throw new Error(
        `DATA_PROTO=${item}: write name=path/to/file.proto#Message (or path#Message with one dataset in DATA)`,
      );
    }
    protos[name] = { proto: item.slice(equals + 1, hash), message: item.slice(hash + 1) };
  }
  return protos;
}

/** A plan's dataset entry, a file or {file, proto, message}, as the latter. */
export function datasetSource(entry) {
  return typeof entry === 'string' ? { file: entry } : entry;
}

/** The plan with DATA's datasets added, each declared, and "objects": "datasets" spelled out. */
function withDatasets(plan, data, source, dataProto) {
  const datasets = { ...(plan.datasets ?? {}), ...parseData(data) };
  const given = Object.keys(datasets);
  const problems = [];
  for (const [name, proto] of Object.entries(parseDataProto(dataProto, given.length === 1 ? given[0] : null))) {
    if (!datasets[name]) problems.push(`DATA_PROTO names ${name}, which is not one of the datasets`);
    else datasets[name] = { file: datasetSource(datasets[name]).file, ...proto };
  }
  for (const [name, entry] of Object.entries(datasets)) {
    const { file: path, proto, message } = datasetSource(entry);
    if (!DATASET_NAME.test(name) || ['books', 'videos'].includes(name)) {
      problems.push(`datasets has "${name}", which is not a dataset name`);
    } else if (typeof path !== 'string' || !existsSync(resolve(ROOT, path))) {
      problems.push(`dataset ${name}: no file ${typeof path === 'string' ? resolve(ROOT, path) : '(none given)'}`);
    } else if (proto !== undefined && !existsSync(resolve(ROOT, proto))) {
      problems.push(`dataset ${name}: no .proto ${resolve(ROOT, proto)}`);
    } else if (proto !== undefined && !message) {
      problems.push(`dataset ${name}: a .proto needs the name of its message of one object ("message")`);
    } else {
      declareDataset(name);
    }
  }
  const names = Object.keys(datasets);
  const groups = (plan.groups ?? []).map((group) => {
    if (group.objects !== 'datasets') return group;
    if (names.length === 0) {
      problems.push(
        `${group.name ? `group "${group.name}"` : 'a group'} measures "datasets", but none is given: ` +
          'run with DATA=path/to/data.json (or DATA=name=path), or list them under the plan\'s "datasets"',
      );
    }
    return { ...group, objects: names };
  });
  if (problems.length) throw new Error(`Plan ${source} is not valid: ${problems.join('; ')}`);
  return { ...plan, datasets, groups };
}
/** The dimensions a plan group lists itself (decoders and levels have their own forms, below). */
const LISTED = DIMENSIONS.filter((d) => !d.planOptional);
/** Those a group may list or leave out for the default (protocols), checked like LISTED when listed. */
const MAY_LIST = DIMENSIONS.filter((d) => d.planOptional && !['decoder', 'level'].includes(d.name));
const dimensionNamed = (name) => DIMENSIONS.find((d) => d.name === name);

/**
 * Reads plans/<name>.json, or a path to a plan file; `data` is DATA's datasets (parseData),
 * `dataProto` DATA_PROTO's .proto files (parseDataProto).
 */
export function loadPlan(nameOrPath, { data, dataProto } = {}) {
  const path = nameOrPath.endsWith('.json') ? nameOrPath : join(PLANS_DIRECTORY, `${nameOrPath}.json`);
  if (!existsSync(path)) {
    throw new Error(`No plan "${nameOrPath}" (looked for ${path}); the plans are ${listPlans().join(', ')}`);
  }
  let plan = JSON.parse(readFileSync(path, 'utf8'));
  if (plan.extends) {
    if (plan.extends === plan.name) throw new Error(`Plan ${path} extends itself`);
    const { name, title, description, ...base } = loadPlan(plan.extends, { data, dataProto });
    plan = { ...base, ...plan };
  }
  return validatePlan(withDatasets(plan, data, path, dataProto), path);
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
  if (plan.minutes != null && !(typeof plan.minutes === 'number' && plan.minutes > 0)) {
    problems.push('"minutes" must be a number of minutes above 0 (the plan\'s total time), or null for none');
  }
  if (plan.minutes != null && plan.protocol?.stop === null) {
    problems.push('"minutes" needs a stop rule to share out: with "stop": null every group runs all its rounds');
  }
  if (!Array.isArray(plan.groups) || plan.groups.length === 0) problems.push('"groups" must list at least one group');
  for (const [index, group] of (plan.groups ?? []).entries()) {
    if (group.decoders !== undefined && group.decoders !== 'all') {
      const offered = new Set(
        (valuesOf(group, dimensionNamed('format')) ?? []).filter((f) => FORMATS.includes(f)).flatMap(decodersOf),
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
        const measured = valuesOf(group, dimensionNamed('compression')) ?? [];
        for (const [compression, levels] of Object.entries(group.levels)) {
          if (!measured.includes(compression)) {
            problems.push(
              `group ${index + 1}: levels names ${JSON.stringify(compression)}, ` +
                `which is not one of its compressions (${measured.join(', ')})`,
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
    for (const dimension of [...LISTED, ...MAY_LIST.filter((d) => group[d.plan] !== undefined)]) {
      const values = valuesOf(group, dimension);
      if (!Array.isArray(values) || values.length === 0) {
        problems.push(`group ${index + 1} needs "${dimension.plan}" (a list)`);
        continue;
      }
      const allowed = dimension.values?.({});
      for (const value of values) {
        const fits = allowed ? allowed.includes(value) : Number.isInteger(value) && value >= 1;
        if (!fits) {
          problems.push(
            allowed
              ? `group ${index + 1}: ${dimension.plan} has ${JSON.stringify(value)}; allowed: ${allowed.join(', ')}`
              : `group ${index + 1}: ${dimension.plan} must be whole numbers ≥ 1`,
          );
        }
      }
    }
  }
  if (problems.length) throw new Error(`Plan ${source} is not valid: ${problems.join('; ')}`);
  return plan;
}

/** A group's values of a dimension; "all" means every value the dimension allows. */
function valuesOf(group, dimension) {
  const listed = group[dimension.plan];
  return listed === 'all' && dimension.values ? [...dimension.values({})] : listed;
}

function matches(rule, cell) {
  return Object.entries(rule).every(([key, value]) => (Array.isArray(value) ? value : [value]).includes(cell[key]));
}

/**
 * The plan's cells, in order (network first, so shaping changes seldom), without duplicates.
 * `network` (from NETWORK) replaces every group's networks.
 */
export function expandPlan(plan, { network } = {}) {
  const networks = DIMENSIONS.find((d) => d.name === 'network').values();
  if (network && !networks.includes(network)) {
    throw new Error(`Unknown network "${network}"; the profiles are ${networks.join(', ')}`);
  }
  const cells = new Map();
  for (const group of plan.groups) {
    const listed = Object.fromEntries(LISTED.map((d) => [d.name, valuesOf(group, d)]));
    for (const raw of expandGroup(group, { ...listed, ...(network ? { network: [network] } : {}) })) {
      if ((group.exclude ?? []).some((rule) => matches(rule, raw))) continue;
      // Scenario 1 takes CM0 only, the others CM1–CM5: a product of both lists has cells that
      // do not exist.
      if (cellProblems(raw).length) continue;
      const cell = completeCell(raw);
      cells.set(caseId(cell), cell);
    }
  }
  return [...cells.values()].sort((a, b) => networks.indexOf(a.network) - networks.indexOf(b.network));
}

/**
 * The plan's comparison groups, [{id, network, protocol, cells}] with each cell's case_id first,
 * network first (so shaping changes seldom).
 */
export function comparisonGroups(plan, options = {}) {
  const groups = new Map();
  for (const cell of expandPlan(plan, options)) {
    const id = groupId(cell);
    if (!groups.has(id)) groups.set(id, { id, network: cell.network, protocol: cell.protocol, cells: [] });
    groups.get(id).cells.push({ case_id: caseId(cell), ...cell });
  }
  return [...groups.values()];
}

/**
 * The groups a Playwright session will run: those whose test title (`<project> study.spec.js
 * <group id>`, as Playwright's -g and --grep-invert see it) its project's grep patterns let through.
 */
export function groupsSelected(groups, { name = '', grep, grepInvert } = {}) {
  const any = (patterns, title) =>
    [patterns ?? []].flat().some((pattern) => {
      pattern.lastIndex = 0;
      return pattern.test(title);
    });
  return groups.filter((group) => {
    const title = `${name} study.spec.js ${group.id}`;
    return (grep === undefined || any(grep, title)) && !any(grepInvert, title);
  });
}

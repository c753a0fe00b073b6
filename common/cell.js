// A cell is one configuration measured in one situation: the unit a study times. This module is
// the one definition of its dimensions. Each dimension says its name, its allowed values (from the
// catalogue, or the network profiles), its default, its part in the case id and in a comparison
// group's id, its plan key and CSV column, and whether comparisons vary it. Case ids, validation,
// plan expansion, CSV columns, group ids and comparison pairs are all derived from the table, so a
// new dimension (a dataset, a browser, a protocol) is one entry here.

import {
  CATALOGUE,
  CMS,
  LABELS,
  FORMAT_ENTRIES,
  COMPRESSIONS,
  COMPRESSION_ENTRIES,
  FORMATS,
  OBJECT_NAMES,
  SCENARIOS,
  SCENARIO_ENTRIES,
  decodersOf,
  defaultDecoder,
  defaultLevel,
  levelProblem,
  scenarioTakesCm,
} from './catalogue.js';
import { broughtNames } from './datasets.js';
import { NETWORK_NAMES } from './network-profiles.js';
import { DEFAULT_PROTOCOL, PROTOCOL_NAMES, protocolLabel } from './protocols.js';

/** The levels a compression offers, default first (none: [null], it has no levels). */
function levelsOf(compression) {
  const levels = COMPRESSION_ENTRIES[compression]?.levels;
  if (!levels) return [null];
  const all = Array.from({ length: levels.max - levels.min + 1 }, (_, i) => levels.min + i);
  return [levels.default, ...all.filter((level) => level !== levels.default)];
}

/**
 * The dimensions, in the order of a results file's columns. Per dimension:
 *   name      the cell's key
 *   plan      the key a plan group lists its values under (`planOptional`: a group may leave it
 *             out, for the defaults)
 *   values    (cell) → the allowed values, or null for whole numbers ≥ 1
 *   of        the dimension whose value this one's values depend on (a decoder's format)
 *   describe  (value, cell) → the value in words, as the page's choices show it
 *   fallback  (cell) → the value of a cell that names none; undefined: the cell must name one
 *             (`optional` dimensions may stay absent: a cell run by hand has no network)
 *   id        {slot, prefix, omitDefault}: the case id joins the parts of one slot, in table
 *             order, and the slots with "/"; omitDefault leaves the default value out
 *   group     the same for a comparison group's id; null: the family stands for it
 *   compared  whether comparisons vary it (the others make the situation)
 *   pairing   how a comparison along it pairs cells: 'all' (every two values), 'default' (each
 *             value against the default), with `atDefault`: the dimensions that must be at their
 *             default in both, and `baseline`: a value compared with every value of them
 */
export const DIMENSIONS = Object.freeze(
  [
    {
      name: 'object',
      plan: 'objects',
      // The generated kinds and the datasets users brought (common/datasets.js).
      values: () => [...OBJECT_NAMES, ...broughtNames()],
      describe: (value) => LABELS.object(value),
      id: { slot: 0 },
      group: { slot: 0 },
    },
    {
      name: 'format',
      plan: 'formats',
      values: () => FORMATS,
      describe: (value) => LABELS.format(value),
      fallback: () => 'json',
      id: { slot: 2 },
      group: { slot: 4 },
      compared: true,
      pairing: { kind: 'all', atDefault: ['decoder'] },
    },
    {
      name: 'decoder',
      of: 'format',
      plan: 'decoders',
      planOptional: true,
      // pbjs's static code exists for proto/lab.proto only: a brought dataset has the others.
      values: (cell) =>
        FORMATS.includes(cell.format)
          ? decodersOf(cell.format).filter((d) => !(d === 'static' && broughtNames().includes(cell.object)))
          : [],
      describe: (value, cell) =>
        `${value} · ${FORMAT_ENTRIES[cell.format]?.decoders.find((d) => d.name === value)?.label}`,
      fallback: (cell) => defaultDecoder(cell.format),
      id: { slot: 2, prefix: '+', omitDefault: true },
      group: { slot: 4, prefix: '+', omitDefault: true },
      compared: true,
      pairing: { kind: 'default' },
    },
    {
      name: 'compression',
      plan: 'compressions',
      values: () => COMPRESSIONS,
      describe: (value) => LABELS.compression(value),
      fallback: () => 'none',
      id: { slot: 3 },
      group: { slot: 5 },
      compared: true,
      pairing: { kind: 'all', atDefault: ['level'], baseline: 'none' },
    },
    {
      name: 'level',
      plan: 'levels',
      planOptional: true,
      values: (cell) => levelsOf(cell.compression),
      fallback: (cell) => defaultLevel(cell.compression),
      id: { slot: 3, prefix: '-', omitDefault: true },
      group: { slot: 5, prefix: '-', omitDefault: true },
      compared: true,
      pairing: { kind: 'default' },
    },
    {
      name: 'count',
      plan: 'counts',
      values: null,
      id: { slot: 1 },
      group: { slot: 1 },
    },
    {
      name: 'scenario',
      plan: 'scenarios',
      values: () => SCENARIOS,
      describe: (value) => `${value} · ${LABELS.scenario(value)}`,
      fallback: () => 1,
      id: { slot: 4, prefix: 'scenario' },
      group: null,
      compared: true,
      pairing: { kind: 'family' },
    },
    {
      name: 'cm',
      plan: 'cms',
      values: () => CMS,
      describe: (value) => `CM${value} · ${CATALOGUE.computation_models.find((m) => m.level === value)?.label}`,
      fallback: () => 0,
      id: { slot: 5, prefix: 'cm' },
      group: { slot: 3, prefix: 'cm', omitWhenNoComputation: true },
    },
    {
      name: 'network',
      plan: 'networks',
      values: () => NETWORK_NAMES,
      optional: true,
      id: { slot: 6 },
      group: { slot: 2 },
    },
    {
      // How the page reaches the server (common/protocols.js): a situation, like the network;
      // cleartext HTTP/1.1, the default, is left out of ids, so earlier runs' ids stay as they were.
      name: 'protocol',
      plan: 'protocols',
      planOptional: true,
      values: () => PROTOCOL_NAMES,
      describe: (value) => `${value} · ${protocolLabel(value)}`,
      fallback: () => DEFAULT_PROTOCOL,
      id: { slot: 7, omitDefault: true },
      group: { slot: 6, omitDefault: true },
    },
  ].map((dimension) => Object.freeze({ compared: false, optional: false, planOptional: false, ...dimension })),
);

/** Scenario families (formats, side, caching) by name, from the catalogue. */
export const FAMILIES = Object.freeze(Object.fromEntries(CATALOGUE.scenario_families.map((f) => [f.name, f])));

/** The family of a cell's scenario. */
export function familyOf(cell) {
  return FAMILIES[SCENARIO_ENTRIES[cell.scenario]?.family];
}

/** Whether a cell's scenario belongs to the family `name` (formats, side, caching). */
export function inFamily(cell, name) {
  return SCENARIO_ENTRIES[cell.scenario]?.family === name;
}

/** What a scenario does, from the catalogue: {family, computes (none|server|client), cached, …}. */
export function scenarioOf(cell) {
  return SCENARIO_ENTRIES[cell.scenario];
}

/**
 * The functions a cell table gives: a copy of DIMENSIONS with one more entry gets them all
 * (the tests do so with a made-up dimension).
 */
export function cellModel(dimensions) {
  const byName = new Map(dimensions.map((d) => [d.name, d]));
  const fallbackOf = (dimension, cell) => (dimension.fallback ? dimension.fallback(cell) : undefined);

  /** A cell with every default filled in, keys in table order. */
  function complete(cell) {
    const out = {};
    for (const dimension of dimensions) {
      const value = cell[dimension.name] ?? fallbackOf(dimension, { ...cell, ...out });
      if (value !== undefined || !dimension.optional) out[dimension.name] = value === undefined ? null : value;
    }
    return out;
  }

  /** Why a cell is not valid, one problem a dimension, or [] when it is. */
  function problems(cell) {
    const found = [];
    const c = complete(cell);
    for (const dimension of dimensions) {
      const value = c[dimension.name];
      if (dimension.optional && value === undefined) continue;
      if (dimension.name === 'level') {
        const problem = COMPRESSIONS.includes(c.compression) ? levelProblem(c.compression, value) : null;
        if (problem) found.push(problem);
        continue;
      }
      const allowed = dimension.values ? dimension.values(c) : null;
      // A value that depends on another (a decoder on its format) is checked once that one is valid.
      if (allowed && !allowed.length) continue;
      const fits = allowed ? allowed.includes(value) : Number.isInteger(value) && value >= 1;
      if (!fits) {
        const name = dimension.of ? `${dimension.name} of ${c[dimension.of]}` : dimension.name;
        found.push(allowed ? `${name} must be one of ${allowed.join(', ')}` : `${name} must be a whole number ≥ 1`);
      }
    }
    if (SCENARIOS.includes(c.scenario) && CMS.includes(c.cm) && !scenarioTakesCm(c.scenario, c.cm)) {
      found.push(
        SCENARIO_ENTRIES[c.scenario].computations === 0
          ? `scenario ${c.scenario} has no computation: cm must be 0`
          : `scenario ${c.scenario} computes: cm must be one of ${CMS.filter((cm) => cm > 0).join(', ')}`,
      );
    }
    return found;
  }

  /** Checks and completes a cell; throws one error naming every problem. */
  function validate(cell) {
    const found = problems(cell ?? {});
    if (found.length) throw new Error(`Invalid cell: ${found.join('; ')}`);
    return complete(cell);
  }

  /** A value's part in an id, or null when it has none. */
  function part(spec, dimension, cell) {
    const value = cell[dimension.name];
    if (value === undefined || value === null) return null;
    if (spec.omitDefault && value === fallbackOf(dimension, cell)) return null;
    if (spec.omitWhenNoComputation && scenarioOf(cell)?.computations === 0) return null;
    return `${spec.prefix ?? ''}${value}`;
  }

  /** Joins the parts of the dimensions `which` picks, slot by slot. */
  function joined(cell, which, skip = () => false) {
    const slots = new Map();
    for (const dimension of dimensions) {
      const spec = which(dimension);
      if (!spec || skip(dimension)) continue;
      const text = part(spec, dimension, cell);
      if (text === null) continue;
      slots.set(spec.slot, `${slots.get(spec.slot) ?? ''}${text}`);
    }
    return [...slots.entries()].sort(([a], [b]) => a - b).map(([, text]) => text);
  }

  /**
   * The case id of a cell, e.g. books/10000/protobuf/gzip/scenario2/cm3/10mbit: a decoder other
   * than the format's default joins the format with "+" (books/10/xml+sax/none/…), and a level
   * other than the compression's default joins it with "-" (books/10/json/br-11/…).
   */
  function caseId(cell) {
    return joined(complete(cell), (d) => d.id).join('/');
  }

  /**
   * The comparison group of a cell: its family and every dimension the family does not vary, e.g.
   * formats/books/1000/10mbit, side/books/1000/10mbit/cm3, caching/books/10/unthrottled/cm2/json/none.
   */
  function groupId(cell) {
    const c = complete(cell);
    const family = familyOf(c);
    return [
      family.name,
      ...joined(
        c,
        (d) => d.group,
        (d) => family.varies.includes(d.name),
      ),
    ].join('/');
  }

  /** A cell's value of a dimension, its default filled in. */
  const valueOf = (cell, name) => cell[name] ?? fallbackOf(byName.get(name), cell);
  /** The position of a value in its dimension's order (default first for 'default' pairing). */
  function rankIn(dimension, cell) {
    const value = valueOf(cell, dimension.name);
    if (dimension.pairing.kind === 'family') return familyOf(cell)?.compared.indexOf(value) ?? -1;
    return (dimension.values?.(cell) ?? []).indexOf(value);
  }
  const atDefault = (cell, name) => valueOf(cell, name) === fallbackOf(byName.get(name), cell);

  /**
   * The comparisons of a group: every pair of its cells that differ in exactly one compared
   * dimension its family varies, ordered as the dimension lists its values so that a ratio reads
   * "first / second". Pairing rules per dimension (DIMENSIONS' `pairing`): formats are compared at
   * their default decoders and compressions at their default levels — except that no compression
   * (the baseline) is compared with every compression at every level; a decoder is compared with
   * its format's default, a level with its compression's default; scenarios in their family's
   * order (client against server; a second request against the cached client), recorded under
   * the family's name.
   *
   * @returns [{dimension, a, b}] with a and b cells of `cells`
   */
  function comparisons(cells) {
    const pairs = [];
    const compared = dimensions.filter((d) => d.compared);
    for (const dimension of compared) {
      for (const a of cells) {
        const family = familyOf(a);
        if (!family?.varies.includes(dimension.name)) continue;
        for (const b of cells) {
          const differing = compared.filter((d) => valueOf(a, d.name) !== valueOf(b, d.name));
          const others = dimensions.filter((d) => !d.compared && valueOf(a, d.name) !== valueOf(b, d.name));
          if (others.length || familyOf(b) !== family) continue;
          const [ra, rb] = [rankIn(dimension, a), rankIn(dimension, b)];
          if (ra < 0 || rb < 0 || ra >= rb) continue;
          const { kind, atDefault: dependents = [], baseline } = dimension.pairing;
          const dependentDiffer = differing.filter((d) => d !== dimension);
          if (kind === 'default') {
            if (ra !== 0 || dependentDiffer.length) continue;
          } else if (kind === 'all') {
            if (dependentDiffer.some((d) => !dependents.includes(d.name))) continue;
            const isBaseline = baseline !== undefined && valueOf(a, dimension.name) === baseline;
            if (!isBaseline && dependents.some((name) => !atDefault(a, name) || !atDefault(b, name))) continue;
          } else if (dependentDiffer.length) continue;
          pairs.push({ dimension: kind === 'family' ? family.name : dimension.name, a, b });
        }
      }
    }
    return pairs;
  }

  /** A plan group's values of a dimension; "all" means every value the dimension allows. */
  function planValues(group, dimension, cell) {
    const listed = group[dimension.plan];
    if (dimension.name === 'decoder') {
      if (listed === undefined) return [fallbackOf(dimension, cell)];
      return listed === 'all' ? dimension.values(cell) : dimension.values(cell).filter((d) => listed.includes(d));
    }
    if (dimension.name === 'level') return group.levels?.[cell.compression] ?? [fallbackOf(dimension, cell)];
    if (listed === undefined) return dimension.fallback ? [fallbackOf(dimension, cell)] : undefined;
    return listed === 'all' && dimension.values ? dimension.values(cell) : listed;
  }

  /** The cells of one plan group, in table order of their dimensions (before exclusion rules). */
  function expandGroup(group, overrides = {}) {
    let partial = [{}];
    for (const dimension of dimensions) {
      partial = partial.flatMap((cell) => {
        const values = overrides[dimension.name] ?? planValues(group, dimension, cell);
        return (values ?? [undefined]).map((value) =>
          value === undefined ? cell : { ...cell, [dimension.name]: value },
        );
      });
    }
    return partial;
  }

  return {
    dimensions,
    complete,
    problems,
    validate,
    caseId,
    groupId,
    comparisons,
    expandGroup,
    /** A results file's cell columns, after case_id. */
    columns: dimensions.map((d) => d.name),
    /** The dimensions that make a situation: those no comparison varies. */
    situation: dimensions.filter((d) => !d.compared).map((d) => d.name),
  };
}

const MODEL = cellModel(DIMENSIONS);

export const {
  complete: completeCell,
  problems: cellProblems,
  validate: validateCell,
  caseId,
  groupId,
  comparisons: groupComparisons,
  expandGroup,
  columns: CELL_COLUMNS,
  situation: SITUATION_DIMENSIONS,
} = MODEL;

/**
 * The key of a cell's situation (every dimension no comparison varies), e.g. books/1000/cm3/10mbit,
 * books/1000/cm3/10mbit/h2.
 */
export function situationKey(cell) {
  const c = completeCell(cell);
  // A value that ids leave out at its default (the protocol's http1.1) is left out here too.
  const leftOut = (name) => {
    const dimension = DIMENSIONS.find((d) => d.name === name);
    return dimension.id?.omitDefault && c[name] === dimension.fallback?.(c);
  };
  return SITUATION_DIMENSIONS.filter((name) => !leftOut(name))
    .map((name) => c[name])
    .filter((v) => v !== undefined && v !== null)
    .join('/');
}

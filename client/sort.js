// Computation models CM0–CM5 in the browser (docs/method.md, computation models), giving exactly the server's order:
// JavaScript's standard stable sort (Array.prototype.sort), ascending; strings by UTF-16 code
// units (< and >, never localeCompare), numbers numerically, false before true.

import { OBJECTS, fieldType } from '#common/schema.js';
import { REPETITIONS } from '#common/catalogue.js';
import { broughtDataset } from '#common/datasets.js';

function comparator(name, type) {
  switch (type) {
    case 'string':
      return (a, b) => (a[name] < b[name] ? -1 : a[name] > b[name] ? 1 : 0);
    case 'bool':
      return (a, b) => (a[name] === b[name] ? 0 : a[name] ? 1 : -1);
    default:
      return (a, b) => a[name] - b[name];
  }
}

/** Comparators built once per kind, so a timed computation allocates nothing but its copy. */
const SEQUENCES = Object.fromEntries(
  Object.entries(OBJECTS).map(([object, kind]) => [
    object,
    kind.sortSequence.map((name) => comparator(name, fieldType(object, name))),
  ]),
);

/**
 * A brought dataset's sort on one scalar field (docs/datasets.md#computation): an object without
 * the value first, then as for the Books; numbers with < and > (so -0 equals 0, as on the server).
 */
function broughtComparator(name, type) {
  const compare = type === 'bool' ? (a, b) => (a === b ? 0 : a ? 1 : -1) : (a, b) => (a < b ? -1 : a > b ? 1 : 0);
  return (x, y) => {
    const a = x[name];
    const b = y[name];
    const aMissing = a === undefined || a === null;
    const bMissing = b === undefined || b === null;
    if (aMissing || bMissing) return aMissing === bMissing ? 0 : aMissing ? -1 : 1;
    return compare(a, b);
  };
}

/** A brought dataset's comparators, built once per description. */
const BROUGHT_SEQUENCES = new WeakMap();
function broughtSequence(dataset) {
  if (!BROUGHT_SEQUENCES.has(dataset)) {
    const types = new Map(dataset.fields.map((field) => [field.name, field.type]));
    BROUGHT_SEQUENCES.set(
      dataset,
      dataset.sort_keys.map((name) => broughtComparator(name, types.get(name))),
    );
  }
  return BROUGHT_SEQUENCES.get(dataset);
}

function sequenceOf(object) {
  if (Object.hasOwn(SEQUENCES, object)) return SEQUENCES[object];
  const dataset = broughtDataset(object);
  if (!dataset) throw new Error(`no dataset ${object}`);
  return broughtSequence(dataset);
}

/** The property names CMk sorts by, in order. */
export function sortSteps(object, cm) {
  if (cm === 0) return [];
  const sequence = Object.hasOwn(OBJECTS, object) ? OBJECTS[object].sortSequence : broughtDataset(object).sort_keys;
  if (cm === 1) return [sequence[0]];
  return Array.from({ length: REPETITIONS[cm] }, () => sequence).flat();
}

/** Runs CMk on a copy of `objects` and returns the copy (CM0 returns `objects` itself). */
export function compute(object, cm, objects) {
  if (cm === 0) return objects;
  const sequence = sequenceOf(object);
  const sorted = objects.slice();
  if (cm === 1) return sorted.sort(sequence[0]);
  for (let repetition = 0; repetition < REPETITIONS[cm]; repetition++) {
    for (const compare of sequence) sorted.sort(compare);
  }
  return sorted;
}

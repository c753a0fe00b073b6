// Computation models CM0–CM5 in the browser (docs/method.md, computation models), giving exactly the server's order:
// JavaScript's standard stable sort (Array.prototype.sort), ascending; strings by UTF-16 code
// units (< and >, never localeCompare), numbers numerically, false before true.

import { OBJECTS, fieldType } from '#common/schema.js';
import { REPETITIONS } from '#common/catalogue.js';

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

/** The property names CMk sorts by, in order. */
export function sortSteps(object, cm) {
  if (cm === 0) return [];
  const sequence = OBJECTS[object].sortSequence;
  if (cm === 1) return [sequence[0]];
  return Array.from({ length: REPETITIONS[cm] }, () => sequence).flat();
}

/** Runs CMk on a copy of `objects` and returns the copy (CM0 returns `objects` itself). */
export function compute(object, cm, objects) {
  if (cm === 0) return objects;
  const sequence = SEQUENCES[object];
  const sorted = objects.slice();
  if (cm === 1) return sorted.sort(sequence[0]);
  for (let repetition = 0; repetition < REPETITIONS[cm]; repetition++) {
    for (const compare of sequence) sorted.sort(compare);
  }
  return sorted;
}

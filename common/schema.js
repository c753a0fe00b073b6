// The object kinds as every layer sees them, derived from the catalogue (the server's enums):
// field names and types in order, the XML element names, the protobuf list message and CM2's
// sort sequence; a request's API path; the plain objects every format decodes to. A cell's
// dimensions and ids are common/cell.js.

import { CATALOGUE, defaultLevel } from './catalogue.js';
import { broughtDataset, plainDifference, plainObject } from './datasets.js';

/** @typedef {'string'|'int'|'float'|'bool'} FieldType */

/**
 * Object name → {element, label, listType, listField, fields: [[name, FieldType]], sortSequence}
 * (CM2 sorts once per property of sortSequence, in order; CM1 on its first only).
 */
export const OBJECTS = Object.freeze(
  Object.fromEntries(
    CATALOGUE.objects.map((o) => [
      o.name,
      Object.freeze({
        element: o.element,
        label: o.label,
        listType: o.protobuf_list,
        listField: o.protobuf_list_field,
        fields: Object.freeze(o.fields.map((f) => Object.freeze([f.name, f.type]))),
        sortSequence: o.sort_sequence,
      }),
    ]),
  ),
);

/**
 * The API path of a request (docs/method.md, computation models's parameters), e.g.
 * /api/books?count=10&format=json&compression=br&level=6&cm=0. A compression's level is always
 * named (its default when the cell names none), so that what was measured does not depend on
 * the server's defaults; none takes no level.
 */
export function apiPath({ object, count, format, compression, level }, cm) {
  const query = new URLSearchParams({ count: String(count), format, compression });
  const chosen = level ?? defaultLevel(compression);
  if (chosen !== null) query.set('level', String(chosen));
  query.set('cm', String(cm));
  return `/api/${object}?${query}`;
}

/** The type of one field of an object kind. */
export function fieldType(object, name) {
  const field = OBJECTS[object].fields.find(([fieldName]) => fieldName === name);
  if (!field) throw new Error(`${object} have no field ${name}`);
  return field[1];
}

/**
 * The shortest decimal that reads back as the same 32-bit float: what the server writes in
 * JSON and XML for a float. Protobuf carries the float itself (1234.57 arrives as
 * 1234.5699462890625); this maps it back so every format gives the same plain objects.
 */
export function shortestFloat32(value) {
  const target = Math.fround(value);
  for (let digits = 1; digits <= 9; digits++) {
    const candidate = Number(target.toPrecision(digits));
    if (Math.fround(candidate) === target) return candidate;
  }
  return target;
}

/** A plain object with exactly the kind's fields, in the method's order, floats as shortestFloat32. */
export function toPlain(object, source) {
  const brought = broughtDataset(object);
  if (brought) return plainObject(brought.fields, source);
  const plain = {};
  for (const [name, type] of OBJECTS[object].fields) {
    const value = source[name];
    plain[name] = type === 'float' ? shortestFloat32(value) : value;
  }
  return plain;
}

/** Where two lists of objects first differ, in words, or null when they are the same. */
export function firstDifference(object, expected, actual) {
  if (expected.length !== actual.length) {
    return `expected ${expected.length} ${object}, got ${actual.length}`;
  }
  if (broughtDataset(object)) {
    for (let i = 0; i < expected.length; i++) {
      const difference = plainDifference(`${object}[${i}]`, expected[i], actual[i]);
      if (difference) return difference;
    }
    return null;
  }
  const fields = OBJECTS[object].fields;
  for (let i = 0; i < expected.length; i++) {
    for (const [name, type] of fields) {
      const a = expected[i][name];
      const b = actual[i][name];
      const same = type === 'float' ? Math.fround(a) === Math.fround(b) : a === b;
      if (!same) {
        return `${object}[${i}].${name}: expected ${JSON.stringify(a)}, got ${JSON.stringify(b)}`;
      }
    }
  }
  return null;
}

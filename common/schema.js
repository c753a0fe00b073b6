// The object kinds and cells as every layer sees them (SPEC §1–2, §4), derived from the
// catalogue (the server's enums): field names and types in SPEC order, the XML element names,
// the protobuf list message and CM2's sort sequence; a cell's API path and case id.

import {
  CATALOGUE,
  CMS,
  COMPRESSIONS,
  FORMATS,
  OBJECT_NAMES,
  SCENARIOS,
  defaultDecoder,
  defaultLevel,
} from './catalogue.js';

export { CMS, COMPRESSIONS, FORMATS, OBJECT_NAMES, SCENARIOS };

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
 * The API path of a request (SPEC §4's parameters), e.g.
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

/** A plain object with exactly the kind's fields, in SPEC order, floats as shortestFloat32. */
export function toPlain(object, source) {
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

/** A cell's compression in ids: its name, and "-<level>" when the level is not the default ("br-11"). */
export function compressionId({ compression, level }) {
  return level !== undefined && level !== null && level !== defaultLevel(compression)
    ? `${compression}-${level}`
    : compression;
}

/**
 * The case id of a cell, e.g. books/10000/protobuf/gzip/scenario2/cm3/10mbit. A decoder other
 * than the format's default joins the format with "+" (books/10/xml+sax/none/…), and a level
 * other than the compression's default joins it with "-" (books/10/json/br-11/…), so the ids of
 * cells with the defaults are those runs have always had.
 */
export function caseId(cell) {
  const decoder = cell.decoder && cell.decoder !== defaultDecoder(cell.format) ? `+${cell.decoder}` : '';
  const id = `${cell.object}/${cell.count}/${cell.format}${decoder}/${compressionId(cell)}/scenario${cell.scenario}/cm${cell.cm}`;
  return cell.network ? `${id}/${cell.network}` : id;
}

// The two object kinds as the client sees them (SPEC §1–2, §4): field names and types in
// SPEC order, the XML element names, the protobuf list message, and CM2's sort sequence.
// Mirrors proto/lab.proto and the server's ObjectKind; the tests check them against both.

/** @typedef {'string'|'int'|'float'|'bool'} FieldType */

export const OBJECTS = Object.freeze({
  books: Object.freeze({
    element: 'book',
    listType: 'responsetimelab.BookList',
    listField: 'books',
    /** @type {ReadonlyArray<[string, FieldType]>} */
    fields: Object.freeze([
      ['title', 'string'], ['author', 'string'], ['description', 'string'], ['image', 'string'],
      ['numInStock', 'int'], ['price', 'float'], ['type', 'string'], ['onSale', 'bool'],
    ]),
    /** CM2: one stable ascending sort per property, in this order; CM1 is the first only. */
    sortSequence: Object.freeze(['author', 'description', 'image', 'price', 'numInStock', 'type', 'onSale']),
  }),
  videos: Object.freeze({
    element: 'video',
    listType: 'responsetimelab.VideoList',
    listField: 'videos',
    fields: Object.freeze([
      ['uri', 'string'], ['title', 'string'], ['format', 'string'], ['height', 'int'],
      ['width', 'int'], ['length', 'int'], ['views', 'int'], ['enabled', 'bool'],
    ]),
    sortSequence: Object.freeze(['title', 'uri', 'format', 'height', 'width', 'length', 'views', 'enabled']),
  }),
});

export const OBJECT_NAMES = Object.freeze(Object.keys(OBJECTS));
export const FORMATS = Object.freeze(['json', 'xml', 'protobuf']);
export const COMPRESSIONS = Object.freeze(['none', 'gzip']);
export const SCENARIOS = Object.freeze([1, 2, 3, 4, 5]);
export const CMS = Object.freeze([0, 1, 2, 3, 4, 5]);

/** The API path of a request (SPEC §4's parameters), e.g. /api/books?count=10&format=json&compression=none&cm=0. */
export function apiPath({ object, count, format, compression }, cm) {
  const query = new URLSearchParams({ count: String(count), format, compression, cm: String(cm) });
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

/** The case id of a cell, e.g. books/10000/protobuf/gzip/scenario2/cm3. */
export function caseId(cell) {
  const id = `${cell.object}/${cell.count}/${cell.format}/${cell.compression}/scenario${cell.scenario}/cm${cell.cm}`;
  return cell.network ? `${id}/${cell.network}` : id;
}

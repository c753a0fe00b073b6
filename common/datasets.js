// Datasets users bring (docs/datasets.md): their descriptions as the server publishes them
// (GET /api/datasets/{name}: the inferred schema's fields, the .proto and its messages, the sort
// keys), registered once per page or process, and the rules by which their decoded objects are
// compared: a field without a value (absent, null, a Protobuf default of an optional field) is
// absent; an absent array is an empty one (Protobuf cannot tell them apart); every integer and
// float compares as a JavaScript number, so a 64-bit integer beyond ±2^53 compares as the double
// nearest to it (JSON.parse, the reference, cannot hold it exactly).

const BROUGHT = new Map();
const DECLARED = new Set();

/** A dataset's name: lowercase letters, digits and "-", from a letter, at most 32 characters. */
export const DATASET_NAME = /^[a-z][a-z0-9-]{0,31}$/;

/** Registers a brought dataset from the server's description of it; returns the description. */
export function addDataset(description) {
  if (!description || !DATASET_NAME.test(description.name) || !Array.isArray(description.fields)) {
    throw new Error(`not a dataset description: ${JSON.stringify(description)?.slice(0, 200)}`);
  }
  const frozen = Object.freeze({ ...description });
  BROUGHT.set(description.name, frozen);
  return frozen;
}

/** The registered description of a brought dataset, or undefined. */
export function broughtDataset(name) {
  return BROUGHT.get(name);
}

/**
 * Declares a brought dataset's name before its description is known (a plan names it before the
 * server has it), so that cells may name it.
 */
export function declareDataset(name) {
  if (!DATASET_NAME.test(name)) {
    throw new Error(
      `"${name}" is not a dataset name: lowercase letters, digits and "-", ` +
        'starting with a letter, at most 32 characters',
    );
  }
  DECLARED.add(name);
}

/** The names of the declared and registered brought datasets. */
export function broughtNames() {
  return [...new Set([...DECLARED, ...BROUGHT.keys()])];
}

/** A field's base type and whether it is an array: 'int64[]' → ['int64', true]. */
export function baseType(type) {
  return type.endsWith('[]') ? [type.slice(0, -2), true] : [type, false];
}

function plainNumber(value) {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (value && typeof value.toNumber === 'function') return value.toNumber(); // protobuf.js Long
  return Number(value);
}

function plainValue(base, field, value) {
  switch (base) {
    case 'object':
      return plainObject(field.fields, value);
    case 'int32':
    case 'int64':
    case 'double':
      return plainNumber(value);
    default:
      return value;
  }
}

/** One decoded object of any format as a plain object with the schema's fields, by the rules above. */
export function plainObject(fields, source) {
  const plain = {};
  for (const field of fields) {
    const [base, repeated] = baseType(field.type);
    const value = source[field.name];
    if (repeated) {
      plain[field.name] = (value ?? []).map((element) => plainValue(base, field, element));
    } else if (value !== undefined && value !== null) {
      plain[field.name] = plainValue(base, field, value);
    }
  }
  return plain;
}

/** Where two plain values first differ, as a path and the two values, or null. */
export function plainDifference(path, expected, actual) {
  if (Array.isArray(expected) || Array.isArray(actual)) {
    if (!Array.isArray(expected) || !Array.isArray(actual) || expected.length !== actual.length) {
      return `${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
    }
    for (let i = 0; i < expected.length; i++) {
      const difference = plainDifference(`${path}[${i}]`, expected[i], actual[i]);
      if (difference) return difference;
    }
    return null;
  }
  if (expected && typeof expected === 'object' && actual && typeof actual === 'object') {
    for (const key of new Set([...Object.keys(expected), ...Object.keys(actual)])) {
      const difference = plainDifference(`${path}.${key}`, expected[key], actual[key]);
      if (difference) return difference;
    }
    return null;
  }
  return Object.is(expected, actual) || expected === actual
    ? null
    : `${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
}

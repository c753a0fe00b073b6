// Both XML styles of a brought dataset (docs/datasets.md#formats), decoded from its schema: the
// root <name>, one <item> per object; a field is an attribute (a scalar, in the attribute style)
// or a child element of its name; an array is a child element with one <item> per element.
// Values are typed by the schema as the source study typed the Books (numbers are numbers,
// booleans booleans); an int64 becomes the nearest JavaScript number. With DOMParser, and with
// saxen's events, which build the same objects without a document tree.

import { baseType } from '#common/datasets.js';

const ELEMENT_NODE = 1;

const CONVERT = {
  string: (t) => t,
  int32: (t) => Number(t),
  int64: (t) => Number(t),
  double: (t) => Number(t),
  bool: (t) => t === 'true',
};

/** A schema's fields as a Map(name → {field, base, repeated, convert}), built once per schema. */
const TABLES = new WeakMap();
function table(fields) {
  if (!TABLES.has(fields)) {
    TABLES.set(
      fields,
      new Map(
        fields.map((field) => {
          const [base, repeated] = baseType(field.type);
          return [field.name, { field, base, repeated, convert: CONVERT[base] }];
        }),
      ),
    );
  }
  return TABLES.get(fields);
}

function domObject(fields, element) {
  const plain = {};
  const entries = table(fields);
  for (let i = 0; i < element.attributes.length; i++) {
    const attribute = element.attributes[i];
    const entry = entries.get(attribute.name);
    if (entry && entry.convert && !entry.repeated) plain[attribute.name] = entry.convert(attribute.value);
  }
  for (let child = element.firstChild; child; child = child.nextSibling) {
    if (child.nodeType !== ELEMENT_NODE) continue;
    const entry = entries.get(child.nodeName);
    if (!entry) continue;
    if (entry.repeated) {
      const list = [];
      for (let item = child.firstChild; item; item = item.nextSibling) {
        if (item.nodeType === ELEMENT_NODE) list.push(domValue(entry, item));
      }
      plain[child.nodeName] = list;
    } else {
      plain[child.nodeName] = domValue(entry, child);
    }
  }
  return plain;
}

function domValue(entry, element) {
  return entry.base === 'object' ? domObject(entry.field.fields, element) : entry.convert(element.textContent);
}

/** The objects of a brought dataset's XML document, with a DOM parser. */
export function decodeDom(root, dataset) {
  const objects = [];
  for (let element = root.firstChild; element; element = element.nextSibling) {
    if (element.nodeType === ELEMENT_NODE) objects.push(domObject(dataset.fields, element));
  }
  return objects;
}

/** The objects of a brought dataset's XML document, from a saxen parser's events. */
export function decodeSax(parser, xml, dataset, checkRoot) {
  const objects = [];
  const stack = [];
  const readAttributes = (fields, attributes, decodeEntities, target) => {
    const values = attributes();
    for (const [name, entry] of table(fields)) {
      if (!entry.repeated && entry.convert && name in values) {
        target[name] = entry.convert(decodeEntities(values[name])); // saxen hands them over raw
      }
    }
  };
  const objectFrame = (fields, attributes, decodeEntities, target) => {
    readAttributes(fields, attributes, decodeEntities, target);
    return { kind: 'object', fields: table(fields), target };
  };
  const close = () => {
    const frame = stack.pop();
    if (frame.kind === 'text') frame.assign(frame.value);
  };
  parser.on('openTag', (name, attributes, decodeEntities, selfClosing) => {
    if (stack.length === 0) {
      checkRoot(0, name, dataset.name);
      stack.push({ kind: 'root' });
      if (selfClosing) stack.pop();
      return;
    }
    const top = stack[stack.length - 1];
    let frame = { kind: 'skip' };
    if (top.kind === 'root') {
      const target = {};
      objects.push(target);
      frame = objectFrame(dataset.fields, attributes, decodeEntities, target);
    } else if (top.kind === 'object') {
      const entry = top.fields.get(name);
      if (entry?.repeated) {
        const list = [];
        top.target[name] = list;
        frame = { kind: 'array', entry, list };
      } else if (entry?.base === 'object') {
        const target = {};
        top.target[name] = target;
        frame = objectFrame(entry.field.fields, attributes, decodeEntities, target);
      } else if (entry) {
        frame = { kind: 'text', value: '', assign: (value) => (top.target[name] = entry.convert(value)) };
      }
    } else if (top.kind === 'array') {
      const { entry, list } = top;
      if (entry.base === 'object') {
        const target = {};
        list.push(target);
        frame = objectFrame(entry.field.fields, attributes, decodeEntities, target);
      } else {
        frame = { kind: 'text', value: '', assign: (value) => list.push(entry.convert(value)) };
      }
    }
    stack.push(frame);
    if (selfClosing) close();
  });
  parser.on('text', (chars, decodeEntities) => {
    const top = stack[stack.length - 1];
    if (top?.kind === 'text') top.value += decodeEntities(chars);
  });
  parser.on('closeTag', (name, decodeEntities, selfClosing) => {
    if (!selfClosing) close();
  });
  parser.parse(xml);
  return objects;
}

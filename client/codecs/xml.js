// XML with every field a child element (docs/method.md#formats): as the source study decoded it —
// response.text(), DOMParser, then every object mapped to a plain object literal with typed
// values (numbers are numbers, booleans are booleans) — and with saxen, a streaming (SAX)
// parser that builds the same objects from its events without a document tree.

import { Parser } from 'saxen';
import { OBJECTS } from '#common/schema.js';
import { broughtDataset } from '#common/datasets.js';
import { decodeDom, decodeSax } from './xml-brought.js';

export const ELEMENT_NODE = 1;

/** Converters from text to a field's type. */
const CONVERT = { string: (t) => t, int: (t) => Number(t), float: (t) => Number(t), bool: (t) => t === 'true' };

/** Object name → Map(field name → converter), built once. */
export const FIELD_CONVERTERS = Object.freeze(
  Object.fromEntries(
    Object.entries(OBJECTS).map(([object, kind]) => [
      object,
      new Map(kind.fields.map(([name, type]) => [name, CONVERT[type]])),
    ]),
  ),
);

/** Object name → [[field name, converter]], in field order: the same, as a list to iterate. */
export const FIELD_LIST = Object.freeze(
  Object.fromEntries(Object.entries(FIELD_CONVERTERS).map(([object, map]) => [object, Object.freeze([...map])])),
);

/** Both XMLs read the body as text. */
export const text = (response) => response.text();

/** The root element of a parsed document, checked to be <object>. */
export function documentRoot(DOMParserImpl, xml, object) {
  const document = new DOMParserImpl().parseFromString(xml, 'application/xml');
  const root = document.documentElement;
  if (!root || root.nodeName !== object) {
    const error = document.getElementsByTagName('parsererror')[0];
    throw new Error(`not a <${object}> document${error ? `: ${error.textContent.trim()}` : ''}`);
  }
  return root;
}

/** A saxen parser whose errors throw. */
export function saxParser() {
  const parser = new Parser();
  parser.on('error', (error) => {
    throw error;
  });
  return parser;
}

/** Throws unless the element opened at depth 0 is the document's expected root. */
export function checkRoot(depth, name, object) {
  if (depth === 0 && name !== object) throw new Error(`not a <${object}> document: the root is <${name}>`);
}

/** @param DOMParserImpl the browser's DOMParser; tests in Node pass another implementation */
export function createDecoders({ DOMParser: DOMParserImpl = globalThis.DOMParser } = {}) {
  return {
    dom: {
      read: text,
      /** @returns plain objects, one per <book>/<video> child of the root */
      decode(xml, object) {
        const root = documentRoot(DOMParserImpl, xml, object);
        const brought = broughtDataset(object);
        if (brought) return decodeDom(root, brought);
        const convert = FIELD_CONVERTERS[object];
        const objects = [];
        for (let element = root.firstChild; element; element = element.nextSibling) {
          if (element.nodeType !== ELEMENT_NODE) continue;
          const plain = {};
          for (let field = element.firstChild; field; field = field.nextSibling) {
            if (field.nodeType !== ELEMENT_NODE) continue;
            const fromText = convert.get(field.nodeName);
            if (fromText) plain[field.nodeName] = fromText(field.textContent);
          }
          objects.push(plain);
        }
        return objects;
      },
    },
    sax: {
      read: text,
      decode(xml, object) {
        const brought = broughtDataset(object);
        if (brought) return decodeSax(saxParser(), xml, brought, checkRoot);
        const convert = FIELD_CONVERTERS[object];
        const parser = saxParser();
        const objects = [];
        let depth = 0;
        let current = null;
        let field = null;
        let value = '';
        parser.on('openTag', (name, attributes, decodeEntities, selfClosing) => {
          checkRoot(depth, name, object);
          if (depth === 1) current = {};
          else if (depth === 2) {
            field = convert.get(name) ? name : null;
            value = '';
          }
          if (selfClosing) {
            if (depth === 1) objects.push(current);
            else if (depth === 2 && field) current[field] = convert.get(field)('');
          } else {
            depth++;
          }
        });
        parser.on('text', (chars, decodeEntities) => {
          if (depth === 3 && field) value += decodeEntities(chars);
        });
        parser.on('closeTag', (name, decodeEntities, selfClosing) => {
          if (selfClosing) return;
          depth--;
          if (depth === 2 && field) {
            current[field] = convert.get(field)(value);
            field = null;
          } else if (depth === 1) objects.push(current);
        });
        parser.parse(xml);
        return objects;
      },
    },
  };
}

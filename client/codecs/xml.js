// XML as the source study decoded it: response.text(), DOMParser, then every object mapped to a
// plain object literal with typed values (numbers are numbers, booleans are booleans).

import { OBJECTS } from '../schema.js';

const ELEMENT_NODE = 1;

/** Converters from an element's text to the field's type, built once per kind. */
const CONVERT = { string: (t) => t, int: (t) => Number(t), float: (t) => Number(t), bool: (t) => t === 'true' };

/** @param DOMParserImpl the browser's DOMParser; tests in Node pass another implementation */
export function createXmlCodec(DOMParserImpl = globalThis.DOMParser) {
  const types = Object.fromEntries(Object.entries(OBJECTS).map(([object, kind]) => [
    object, new Map(kind.fields.map(([name, type]) => [name, CONVERT[type]])),
  ]));
  return {
    name: 'xml',
    read: (response) => response.text(),
    /** @returns plain objects, one per <book>/<video> child of the root */
    decode(text, object) {
      const document = new DOMParserImpl().parseFromString(text, 'application/xml');
      const root = document.documentElement;
      if (!root || root.nodeName !== object) {
        const error = document.getElementsByTagName('parsererror')[0];
        throw new Error(`not a <${object}> document${error ? `: ${error.textContent.trim()}` : ''}`);
      }
      const convert = types[object];
      const objects = [];
      for (let element = root.firstChild; element; element = element.nextSibling) {
        if (element.nodeType !== ELEMENT_NODE) continue;
        const plain = {};
        for (let field = element.firstChild; field; field = field.nextSibling) {
          if (field.nodeType !== ELEMENT_NODE) continue;
          const to = convert.get(field.nodeName);
          if (to) plain[field.nodeName] = to(field.textContent);
        }
        objects.push(plain);
      }
      return objects;
    },
  };
}

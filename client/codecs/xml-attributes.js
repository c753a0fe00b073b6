// XML with every field an attribute (docs/method.md, related studies): <books><book title="…" author="…" …/>…</books>,
// decoded like the child-element XML — response.text(), DOMParser, typed plain objects — and
// with saxen's streaming parser, which hands each element's attributes over as it meets it.

import { ELEMENT_NODE, FIELD_LIST, checkRoot, documentRoot, saxParser, text } from './xml.js';
import { broughtDataset } from '#common/datasets.js';
import { decodeDom, decodeSax } from './xml-brought.js';

export function createDecoders({ DOMParser: DOMParserImpl = globalThis.DOMParser } = {}) {
  return {
    dom: {
      read: text,
      decode(xml, object) {
        const root = documentRoot(DOMParserImpl, xml, object);
        const brought = broughtDataset(object);
        if (brought) return decodeDom(root, brought);
        const convert = FIELD_LIST[object];
        const objects = [];
        for (let element = root.firstChild; element; element = element.nextSibling) {
          if (element.nodeType !== ELEMENT_NODE) continue;
          const plain = {};
          for (const [name, to] of convert) {
            const value = element.getAttribute(name);
            if (value !== null) plain[name] = to(value);
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
        const convert = FIELD_LIST[object];
        const parser = saxParser();
        const objects = [];
        let depth = 0;
        parser.on('openTag', (name, attributes, decodeEntities, selfClosing) => {
          checkRoot(depth, name, object);
          if (depth === 1) {
            const values = attributes();
            const plain = {};
            for (const [field, to] of convert) {
              if (field in values) plain[field] = to(decodeEntities(values[field])); // saxen hands them over raw
            }
            objects.push(plain);
          }
          if (!selfClosing) depth++;
        });
        parser.on('closeTag', (name, decodeEntities, selfClosing) => {
          if (!selfClosing) depth--;
        });
        parser.parse(xml);
        return objects;
      },
    },
  };
}

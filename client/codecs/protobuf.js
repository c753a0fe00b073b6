// Protobuf, with protobuf.js: as the source study decoded it (response.arrayBuffer() →
// Uint8Array → decode() of the types read from the project's one .proto at run time), and with
// the static code pbjs generated from the same .proto at build time
// (./generated/protobuf-static.js, written by scripts/client-libraries.sh).
//
// decode() gives protobuf.js message objects: every field reads as on a plain object (proto3
// defaults such as 0 and false come from the prototype). The timed path stops there, as the
// source's did; schema.toPlain() turns them into plain objects for comparisons.

import { OBJECTS } from '#common/schema.js';
import { broughtDataset } from '#common/datasets.js';
import createStaticRoot from './generated/protobuf-static.js';

const bytes = (response) => response.arrayBuffer();

/**
 * @param protobuf the protobuf.js library (full build: it parses .proto text)
 * @param protoText the text of proto/lab.proto
 */
export function createDecoders({ protobuf, protoText }) {
  const reflection = protobuf.parse(protoText, { keepCase: true }).root;
  const generated = createStaticRoot(protobuf);
  const lists = (lookup) =>
    Object.fromEntries(
      Object.entries(OBJECTS).map(([object, kind]) => [object, { type: lookup(kind.listType), field: kind.listField }]),
    );
  // A brought dataset's list type, parsed from its own .proto at run time, once per description.
  const broughtTypes = new WeakMap();
  const broughtList = (dataset) => {
    if (!broughtTypes.has(dataset)) {
      const root = protobuf.parse(dataset.protobuf.text, { keepCase: true }).root;
      broughtTypes.set(dataset, { type: root.lookupType(dataset.protobuf.message), field: 'items' });
    }
    return broughtTypes.get(dataset);
  };
  const codec = (types, brought) => ({
    read: bytes,
    decode(buffer, object) {
      const list = Object.hasOwn(types, object) ? types[object] : brought(object);
      return list.type.decode(new Uint8Array(buffer))[list.field];
    },
  });
  const staticCode = (name) =>
    name.split('.').reduce((namespace, part) => namespace?.[part], generated) ??
    (() => {
      throw new Error(`the static protobuf code has no ${name}: rebuild it (scripts/client-libraries.sh)`);
    })();
  return {
    reflection: codec(
      lists((name) => reflection.lookupType(name)),
      (object) => {
        const dataset = broughtDataset(object);
        if (!dataset) throw new Error(`no dataset ${object}: register its description first`);
        return broughtList(dataset);
      },
    ),
    static: codec(lists(staticCode), (object) => {
      throw new Error(
        `the static decoder has no code for ${object}: pbjs generates it from proto/lab.proto at build time; ` +
          'a brought dataset has the reflection decoder',
      );
    }),
  };
}

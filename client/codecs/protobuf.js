// Protobuf as the source study decoded it: response.arrayBuffer() → Uint8Array → decode() of
// protobuf.js, with the types read from the project's one .proto (proto/lab.proto).
//
// decode() gives protobuf.js message objects: every field reads as on a plain object (proto3
// defaults such as 0 and false come from the prototype). The timed path stops there, as the
// source's did; schema.toPlain() turns them into plain objects for comparisons.

import { OBJECTS } from '../schema.js';

/**
 * @param protobuf the protobuf.js library (full build: it parses .proto text)
 * @param protoText the text of proto/lab.proto
 */
export function createProtobufCodec(protobuf, protoText) {
  const root = protobuf.parse(protoText, { keepCase: true }).root;
  const lists = Object.fromEntries(Object.entries(OBJECTS).map(([object, kind]) => [
    object, { type: root.lookupType(kind.listType), field: kind.listField },
  ]));
  return {
    name: 'protobuf',
    read: (response) => response.arrayBuffer(),
    decode(buffer, object) {
      const list = lists[object];
      return list.type.decode(new Uint8Array(buffer))[list.field];
    },
  };
}

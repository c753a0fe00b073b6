// MessagePack: the server's body is an array of maps (jackson-dataformat-msgpack: integers in
// their shortest form, floats as float32). Two well-kept decoders: msgpackr and the reference
// @msgpack/msgpack. Both give plain objects; a float32 arrives widened to a double, as with
// Protobuf; schema.toPlain() maps it back for comparisons.

import { Unpackr } from 'msgpackr';
import { Decoder as ReferenceDecoder } from '@msgpack/msgpack';

const bytes = (response) => response.arrayBuffer();

export function createDecoders() {
  // Plain objects for maps, no record extension: standard MessagePack only.
  const msgpackr = new Unpackr({ useRecords: false, mapsAsObjects: true });
  const reference = new ReferenceDecoder();
  return {
    msgpackr: { read: bytes, decode: (buffer) => msgpackr.unpack(new Uint8Array(buffer)) },
    msgpack: { read: bytes, decode: (buffer) => reference.decode(new Uint8Array(buffer)) },
  };
}

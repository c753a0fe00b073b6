// CBOR (RFC 8949): the server's body is an array of maps (Jackson's CBOR writer: integers in
// their shortest form, floats as float32, maps of indefinite length). Two well-kept decoders:
// cbor2 (the successor of node-cbor) and cborg. Both give plain objects for maps with text
// keys; a float32 arrives widened to a double (12.34 as 12.340000152587890625), as with
// Protobuf; schema.toPlain() maps it back for comparisons.

import { decode as cbor2Decode } from 'cbor2';
import { decode as cborgDecode } from 'cborg';

const bytes = (response) => response.arrayBuffer();

export function createDecoders() {
  return {
    cbor2: { read: bytes, decode: (buffer) => cbor2Decode(new Uint8Array(buffer)) },
    cborg: { read: bytes, decode: (buffer) => cborgDecode(new Uint8Array(buffer)) },
  };
}

// CBOR (RFC 8949): the server's body is an array of maps (Jackson's CBOR writer: integers in
// their shortest form, floats as float32, maps of indefinite length). Two well-kept decoders:
// cbor-x and cborg. Both give plain objects; a float32 arrives widened to a double (12.34 as
// 12.340000152587890625), as with Protobuf; schema.toPlain() maps it back for comparisons.

import { Decoder as CborX } from 'cbor-x';
import { decode as cborgDecode } from 'cborg';

const bytes = (response) => response.arrayBuffer();

export function createDecoders() {
  // Plain objects for maps (no Map instances), no record extension: standard CBOR only.
  const cborX = new CborX({ useRecords: false, mapsAsObjects: true });
  return {
    'cbor-x': { read: bytes, decode: (buffer) => cborX.decode(new Uint8Array(buffer)) },
    cborg: { read: bytes, decode: (buffer) => cborgDecode(new Uint8Array(buffer)) },
  };
}

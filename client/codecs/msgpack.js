// MessagePack: the server's body is an array of maps (jackson-dataformat-msgpack: integers in
// their shortest form, floats as float32), decoded by the reference @msgpack/msgpack into plain
// objects; a float32 arrives widened to a double, as with Protobuf; schema.toPlain() maps it
// back for comparisons. (msgpackr, the faster alternative, is not used: its optional native
// add-on makes npm 11 write a package-lock.json that `npm ci` then refuses.)

import { Decoder } from '@msgpack/msgpack';

const bytes = (response) => response.arrayBuffer();

export function createDecoders() {
  const decoder = new Decoder();
  return {
    msgpack: { read: bytes, decode: (buffer) => decoder.decode(new Uint8Array(buffer)) },
  };
}

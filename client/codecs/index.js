// The three codecs of SPEC §2, by the name the server's `format` parameter uses.

import { createJsonCodec } from './json.js';
import { createProtobufCodec } from './protobuf.js';
import { createXmlCodec } from './xml.js';

/**
 * @param {{protobuf: object, protoText: string, DOMParser?: Function}} dependencies
 * @returns {{json: object, xml: object, protobuf: object}} codecs with read(response) and decode(body, object)
 */
export function createCodecs({ protobuf, protoText, DOMParser = globalThis.DOMParser }) {
  return {
    json: createJsonCodec(),
    xml: createXmlCodec(DOMParser),
    protobuf: createProtobufCodec(protobuf, protoText),
  };
}

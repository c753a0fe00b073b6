// The browser's decoders, by format and decoder name as the catalogue lists them: one module
// per format (./<format>.js) whose createDecoders(dependencies) returns {<decoder>: codec}, a
// codec being {read(response) → body, decode(body, object) → objects}. Adding a format is its
// module here; this file finds it by the catalogue's name.

import { FORMATS, decodersOf, defaultDecoder } from '#common/catalogue.js';

/**
 * @param dependencies what the modules need from their environment: {protobuf (protobuf.js),
 *     protoText (proto/lab.proto), DOMParser (the browser's, or another in Node)}
 * @returns {Promise<Record<string, Record<string, {read: Function, decode: Function}>>>}
 *     codecs[format][decoder]
 */
export async function createCodecs(dependencies) {
  const codecs = {};
  for (const format of FORMATS) {
    const module = await import(`./${format}.js`);
    const decoders = await module.createDecoders(dependencies);
    const wanted = decodersOf(format);
    const missing = wanted.filter((name) => typeof decoders[name]?.decode !== 'function');
    const extra = Object.keys(decoders).filter((name) => !wanted.includes(name));
    if (missing.length || extra.length) {
      const missingText = missing.length ? `missing ${missing.join(', ')}` : '';
      const extraText = extra.length ? ` unknown ${extra.join(', ')}` : '';
      throw new Error(`client/codecs/${format}.js disagrees with the catalogue: ${missingText}${extraText}`);
    }
    codecs[format] = Object.freeze(decoders);
  }
  return Object.freeze(codecs);
}

/** The codec of a cell: its format's decoder (the default when the cell names none). */
export function codecOf(codecs, format, decoder = defaultDecoder(format)) {
  const codec = codecs[format]?.[decoder];
  if (!codec) throw new Error(`no decoder "${decoder}" for ${format}`);
  return codec;
}

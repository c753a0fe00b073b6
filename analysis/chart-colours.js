// One colour per configuration (format, decoder, compression, level) in every chart, fixed by
// the catalogue's order, so that a reader who learns "JSON is blue" can rely on it everywhere:
// a format has its hue; its other decoders are duller; each compression a lighter or darker
// shade of it, each level a little more.

import { COMPRESSIONS, COMPRESSION_ENTRIES, FORMATS, decodersOf, defaultLevel } from '#common/catalogue.js';

/**
 * The formats' hues, in catalogue order (JSON, Protobuf, XML, XML (attributes), CBOR,
 * MessagePack, then round again): Vega's category10 without its red, green and grey, which the
 * charts keep for what is not a configuration (compressing faster or not, reference lines).
 */
const FORMAT_HUES = Object.freeze(['#1f77b4', '#ff7f0e', '#9467bd', '#17becf', '#8c564b', '#e377c2', '#bcbd22']);

/**
 * Per compression in catalogue order (none, GZIP, deflate, Brotli, zstd, then round again): how
 * far the format's hue moves towards white (positive) or black (negative). None keeps the hue;
 * the others alternate light and dark so that neighbours in the catalogue differ most.
 */
const COMPRESSION_SHADES = Object.freeze([0, 0.4, -0.35, 0.62, -0.55]);

/** How far a level's shade moves per level away from the compression's default, and at most. */
const LEVEL_STEP = 0.04;
const LEVEL_MAX = 0.2;

/** How much a format's non-default decoder is greyed (per decoder after the first). */
const DECODER_GREY = 0.4;

const rgb = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
const hex = (channels) =>
  `#${channels
    .map((v) =>
      Math.round(Math.min(255, Math.max(0, v)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
/** `channels` moved a fraction `t` of the way to `target`. */
const mix = (channels, target, t) => channels.map((v, i) => v + (target[i] - v) * t);

/**
 * The colour of a configuration, the same in every chart and every run: from the catalogue's
 * position of its format, decoder and compression, and its level. An unknown format or
 * compression (a run from another catalogue) gets grey rather than an error.
 */
export function configurationColour({ format, decoder, compression, level }) {
  const formatIndex = FORMATS.indexOf(format);
  const compressionIndex = COMPRESSIONS.indexOf(compression);
  if (formatIndex < 0 || compressionIndex < 0) return '#6e7781';
  let channels = rgb(FORMAT_HUES[formatIndex % FORMAT_HUES.length]);
  const decoderIndex = Math.max(0, decoderOrder(format, decoder));
  if (decoderIndex > 0) {
    const grey = channels.reduce((a, b) => a + b, 0) / 3;
    channels = mix(channels, [grey, grey, grey], Math.min(0.8, DECODER_GREY * decoderIndex));
  }
  let shade = COMPRESSION_SHADES[compressionIndex % COMPRESSION_SHADES.length];
  const levels = COMPRESSION_ENTRIES[compression].levels;
  if (levels && level !== null && level !== undefined) {
    // Higher levels darker, lower ones lighter, around the compression's default.
    const offset = Math.max(-LEVEL_MAX, Math.min(LEVEL_MAX, (level - defaultLevel(compression)) * LEVEL_STEP));
    shade -= offset;
  }
  channels = shade >= 0 ? mix(channels, [255, 255, 255], Math.min(0.85, shade)) : mix(channels, [0, 0, 0], -shade);
  return hex(channels);
}

/** A decoder's place among its format's decoders (the default first), -1 when unknown. */
function decoderOrder(format, decoder) {
  if (!FORMATS.includes(format)) return -1;
  return decoder === undefined || decoder === null ? 0 : decodersOf(format).indexOf(decoder);
}

/**
 * Sorts configurations as the catalogue lists them: format, decoder, compression, level. Charts
 * list their rows and legends in this order, so a configuration keeps its place as well as its colour.
 */
export function configurationOrder(a, b) {
  const key = (c) => [
    FORMATS.indexOf(c.format),
    Math.max(0, decoderOrder(c.format, c.decoder)),
    COMPRESSIONS.indexOf(c.compression),
    c.level ?? defaultLevel(c.compression) ?? 0,
  ];
  const [x, y] = [key(a), key(b)];
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] - y[i];
  return 0;
}

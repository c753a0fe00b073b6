// The weighted index of a client study (docs/method.md, related studies): per configuration (format × decoder ×
// compression) of one situation (object, N, network), four measured figures — the server's
// encode time, the transfer time, the bytes on the wire and the browser's decode time — each
// divided by the baseline's (default: JSON with its default decoder, no compression) and
// combined with weights (default 40/20/35/5, in that order). The baseline scores 1; lower is
// better. The report ranks by it and the page recomputes it when the weights change.
//
// Figures are computed per sample, then summarized with the one median (stats.js):
//   encode_ms   Server-Timing serialize + compress (the server's work to make the body); for a
//               streamed body, whose header leaves before the body is done, they cover its
//               first bytes only ("first 65536 bytes"), and the figure is scaled up by the
//               body's bytes on the wire (an estimate, linear in size)
//   transfer_ms Resource Timing responseEnd − responseStart
//   bytes       Resource Timing transferSize (headers and body as they crossed the wire;
//               encodedBodySize where the browser reports no transfer size)
//   decode_ms   from the last byte to decoded objects: the sample's request time minus its
//               Resource Timing duration (the same measure for response.json(), which parses
//               while it reads, and for decoders that run after text() or arrayBuffer())
// Times below the isolated timer's resolution (5 µs) count as 5 µs, so a ratio never divides by 0.

import { medianOrNull } from './stats.js';
import { defaultDecoder } from './catalogue.js';

export const FIGURES = Object.freeze(['encode_ms', 'transfer_ms', 'bytes', 'decode_ms']);
export const DEFAULT_WEIGHTS = Object.freeze({ encode_ms: 40, transfer_ms: 20, bytes: 35, decode_ms: 5 });
export const DEFAULT_BASELINE = Object.freeze({ format: 'json', compression: 'none' });
const RESOLUTION_MS = 0.005;

/**
 * A Server-Timing duration of a sample for the whole body: as sent when it covers the whole
 * body, scaled up by the body's bytes on the wire when it covers only the first part of a
 * streamed body ("first 65536 bytes"; an estimate, linear in size); null without one.
 */
export function wholeBodyMs(ms, covers, encodedBodySize) {
  if (!Number.isFinite(ms)) return null;
  const head = /^first (\d+) bytes$/.exec(covers ?? '');
  return head && encodedBodySize > Number(head[1]) ? ms * (encodedBodySize / Number(head[1])) : ms;
}

/** One sample's four figures (null where the sample lacks what a figure needs). */
export function sampleFigures(s) {
  const encode = Number.isFinite(s.server_serialize_ms)
    ? wholeBodyMs(s.server_serialize_ms + (s.server_compress_ms ?? 0), s.server_serialize_covers, s.encoded_body_size)
    : null;
  const bytes = s.transfer_size > 0 ? s.transfer_size : (s.encoded_body_size ?? null);
  const decode =
    Number.isFinite(s.request_ms) && Number.isFinite(s.rt_duration_ms)
      ? Math.max(0, s.request_ms - s.rt_duration_ms)
      : (s.decode_ms ?? null);
  return { encode_ms: encode, transfer_ms: s.rt_transfer_ms ?? null, bytes, decode_ms: decode };
}

/** A cell's figures: the median of each over its samples. */
export function cellFigures(samples) {
  const per = samples.map(sampleFigures);
  return Object.fromEntries(FIGURES.map((f) => [f, medianOrNull(per.map((p) => p[f]))]));
}

/** Checks weights {encode_ms, transfer_ms, bytes, decode_ms}: non-negative, not all 0. */
export function checkWeights(weights) {
  const values = FIGURES.map((f) => weights[f]);
  if (!values.every((w) => Number.isFinite(w) && w >= 0) || values.every((w) => w === 0)) {
    throw new Error(
      `weights must be four numbers ≥ 0, not all 0 (encode, transfer, size, decode), got ${values.join('/')}`,
    );
  }
  return weights;
}

/** "40/20/35/5" or "40,20,35,5" → weights. */
export function parseWeights(text) {
  const parts = String(text).split(/[/,]/).map(Number);
  if (parts.length !== 4) throw new Error(`weights are four numbers (encode/transfer/size/decode), got "${text}"`);
  return checkWeights(Object.fromEntries(FIGURES.map((f, i) => [f, parts[i]])));
}

const floor = (figure, value) => (figure === 'bytes' ? value : Math.max(value, RESOLUTION_MS));

/**
 * Ranks configurations per situation.
 *
 * @param rows [{situation, configuration: {format, decoder, compression}, figures}] (figures
 *     from cellFigures)
 * @returns [{situation, baseline, ranking: [{configuration, figures, normalized, index}]}],
 *     situations without their baseline left out; configurations lacking a figure get index null
 */
export function rankByIndex(rows, { weights = DEFAULT_WEIGHTS, baseline = DEFAULT_BASELINE } = {}) {
  checkWeights(weights);
  const total = FIGURES.reduce((sum, f) => sum + weights[f], 0);
  const baseDecoder = baseline.decoder ?? defaultDecoder(baseline.format);
  const situations = new Map();
  for (const row of rows) {
    if (!situations.has(row.situation)) situations.set(row.situation, []);
    situations.get(row.situation).push(row);
  }
  const out = [];
  for (const [situation, list] of situations) {
    const base = list.find(
      ({ configuration: c }) =>
        c.format === baseline.format &&
        c.compression === baseline.compression &&
        (c.decoder ?? defaultDecoder(c.format)) === baseDecoder,
    );
    if (!base) continue;
    const ranking = list
      .map(({ configuration, figures }) => {
        const normalized = {};
        for (const f of FIGURES) {
          normalized[f] =
            Number.isFinite(figures[f]) && Number.isFinite(base.figures[f]) && base.figures[f] > 0
              ? floor(f, figures[f]) / floor(f, base.figures[f])
              : null;
        }
        const complete = FIGURES.every((f) => weights[f] === 0 || normalized[f] !== null);
        const index = complete
          ? FIGURES.reduce((sum, f) => sum + (weights[f] ? weights[f] * normalized[f] : 0), 0) / total
          : null;
        return { configuration, figures, normalized, index };
      })
      .sort((a, b) => (a.index ?? Infinity) - (b.index ?? Infinity));
    out.push({ situation, baseline: base.configuration, ranking });
  }
  return out;
}

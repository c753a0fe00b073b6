// The formats' own figures: bytes per format for each N, raw and under every compression (the
// measurement the logging library published, on our data), and the weighted index ranking of
// configurations (common/weighted-index.js). Both come from scenario 1 cells' raw samples.

import { DEFAULT_PROTOCOL } from '#common/protocols.js';
import { inFamily } from '#common/cell.js';
import { COMPRESSIONS, FORMATS, LABELS, compressionLabel, defaultLevel } from '#common/catalogue.js';
import { medianOrNull } from '#common/stats.js';
import { configurationWords } from '#common/answer-words.js';
import { DEFAULT_WEIGHTS, FIGURES, cellFigures, rankByIndex } from '#common/weighted-index.js';

/** The median size, of the sizes the browser reported (it reports 0 where it withholds them). */
const medianOf = (values) => medianOrNull(values.filter((v) => v > 0));

/** The key of a compression at a level in the size table: "gzip-6", "br-11". */
const compressedKey = (compression, level) => `${compression}-${level ?? defaultLevel(compression)}`;
/** A size table key as a reader sees it, the level always named: "GZIP 6", "Brotli 11". */
export function compressedName(key) {
  const [compression, level] = key.split('-');
  return compressionLabel(compression, Number(level), { explicit: true });
}

/**
 * Bytes per object kind, N and format: the body raw (decodedBodySize) and on the wire under
 * each compression and level measured (encodedBodySize), with bytes per object.
 * @returns [{object, count, format, raw_bytes, raw_per_object, compressed: {"gzip-6": {bytes, per_object}, …}}]
 */
export function sizeTable(cells) {
  const rows = new Map();
  for (const c of cells.filter((cell) => inFamily(cell.cell, 'formats'))) {
    const { object, count, format, compression, level } = c.cell;
    const key = `${object}/${count}/${format}`;
    if (!rows.has(key)) rows.set(key, { object, count, format, raw: [], compressed: {} });
    const row = rows.get(key);
    row.raw.push(...c.samples.map((s) => s.decoded_body_size));
    if (compression !== 'none') {
      (row.compressed[compressedKey(compression, level)] ??= []).push(...c.samples.map((s) => s.encoded_body_size));
    } else {
      row.raw.push(...c.samples.map((s) => s.encoded_body_size));
    }
  }
  const order = (r) => [r.object, r.count, FORMATS.indexOf(r.format)];
  return [...rows.values()]
    .sort((a, b) => {
      const [x, y] = [order(a), order(b)];
      return x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : x[1] - y[1] || x[2] - y[2];
    })
    .map((r) => {
      const raw = medianOf(r.raw);
      return {
        object: r.object,
        count: r.count,
        format: r.format,
        raw_bytes: raw,
        raw_per_object: raw === null ? null : raw / r.count,
        compressed: Object.fromEntries(
          Object.entries(r.compressed).map(([compression, values]) => {
            const bytes = medianOf(values);
            return [compression, { bytes, per_object: bytes === null ? null : bytes / r.count }];
          }),
        ),
      };
    });
}

/** The size table as a header and rows of text, one column pair per compression and level measured. */
export function sizeTableRows(table) {
  const measured = new Set(table.flatMap((r) => Object.keys(r.compressed)));
  const keyOrder = (key) => {
    const [compression, level] = key.split('-');
    return [COMPRESSIONS.indexOf(compression), Number(level)];
  };
  const compressions = [...measured].sort((a, b) => keyOrder(a)[0] - keyOrder(b)[0] || keyOrder(a)[1] - keyOrder(b)[1]);
  // The level only where one compression was measured at several ("GZIP 1", "GZIP 9"); else "GZIP".
  const levels = (compression) => compressions.filter((k) => k.split('-')[0] === compression).length;
  const name = (key) => (levels(key.split('-')[0]) > 1 ? compressedName(key) : compressionLabel(key.split('-')[0]));
  const kb = (bytes) => (bytes === null || bytes === undefined ? '—' : (bytes / 1000).toFixed(bytes < 10_000 ? 2 : 1));
  const per = (value) => (value === null || value === undefined ? '—' : value.toFixed(1));
  const header = [
    'objects',
    'N',
    'format',
    'raw kB',
    'raw B/object',
    ...compressions.flatMap((c) => [`${name(c)} kB`, `${name(c)} B/object`]),
  ];
  const rows = table.map((r) => [
    r.object,
    r.count,
    LABELS.format(r.format),
    kb(r.raw_bytes),
    per(r.raw_per_object),
    ...compressions.flatMap((c) => [kb(r.compressed[c]?.bytes), per(r.compressed[c]?.per_object)]),
  ]);
  return { header, rows };
}

/**
 * The rows the weighted index ranks: one per scenario 1 cell, its situation and four figures. A
 * situation is object/N/network, and /protocol where that is not cleartext HTTP/1.1.
 */
export function indexRows(cells) {
  return cells
    .filter((c) => inFamily(c.cell, 'formats'))
    .map((c) => ({
      situation: [c.cell.object, c.cell.count, c.cell.network, c.cell.protocol]
        .filter((part, i) => i < 3 || (part && part !== DEFAULT_PROTOCOL))
        .join('/'),
      configuration: {
        format: c.cell.format,
        decoder: c.cell.decoder,
        compression: c.cell.compression,
        level: c.cell.level ?? defaultLevel(c.cell.compression),
      },
      figures: cellFigures(c.samples),
    }));
}

/** The weighted index ranking per situation, for these weights. */
export function indexRanking(cells, weights = DEFAULT_WEIGHTS) {
  return rankByIndex(indexRows(cells), { weights });
}

/** A ranking as a header and rows of text. */
export function indexTableRows(situation) {
  const header = ['rank', 'configuration', 'index', ...FIGURES.map((f) => `${f.replace('_ms', '')} ×`)];
  const rows = situation.ranking.map((r, i) => [
    i + 1,
    configurationWords({ ...r.configuration, scenario: 1 }),
    r.index === null ? '—' : r.index.toFixed(3),
    ...FIGURES.map((f) => (r.normalized[f] === null ? '—' : r.normalized[f].toFixed(2))),
  ]);
  return { header, rows };
}

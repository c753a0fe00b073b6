// A brought dataset's size table (docs/datasets.md#the-example-datasets): raw and compressed bytes,
// whole and per object, for every format and every compression at its default level, as the run
// measured them on the wire when it brought the dataset (run.json's datasets[].sizes); and, for an
// example dataset of a related study, the study's published figures beside the lab's, with why they
// differ. `npm run sizes` prints the same table.

import { COMPRESSIONS, FORMATS, LABELS } from '#common/catalogue.js';

/**
 * What the related studies published for their data, in kilobytes of 1,000 bytes, and why the lab's
 * figures for the same kind of data differ: the logging library's 10,000 log messages, raw and
 * zlib-compressed (docs/method.md, related studies).
 */
export const PUBLISHED = Object.freeze({
  'log-messages': {
    source: 'the logging library (SPEC §9): 10,000 log lines, raw and zlib-compressed',
    objects: 10_000,
    kilobytes: { json: { none: 920, deflate: 28 }, cbor: { none: 550, deflate: 28 } },
    differences: [
      "CBOR raw: a logging library's own CBOR encoder can write a time as a CBOR time tag with a binary " +
        "number (about 9 bytes); a JSON dataset has only strings for times, so the lab's CBOR carries each " +
        'RFC 3339 string (24 characters and a 2-byte header), and a time costs it about as much as in JSON.',
      "Compressed: the lab compresses the whole list at the compression's default level; the library's " +
        'figures are for its own lines and its own zlib settings, which it does not state beside them, so ' +
        'the compressed sizes are comparable only in order of magnitude.',
    ],
  },
});

const kb = (bytes) => (bytes / 1000).toFixed(1);
const perObject = (bytes, count) => (bytes / count).toFixed(1);
const compressed = () => COMPRESSIONS.filter((c) => c !== 'none');

/**
 * The size table as a header and rows of text.
 * @param sizes {format: {compression: bytes}} for `count` objects
 */
export function sizeTableRows(count, sizes) {
  const header = [
    'format',
    'raw kB',
    'raw B/object',
    ...compressed().flatMap((c) => [`${LABELS.compression(c)} kB`, `${LABELS.compression(c)} B/object`]),
  ];
  const rows = FORMATS.filter((f) => sizes[f]).map((format) => {
    const row = sizes[format];
    return [
      LABELS.format(format),
      kb(row.none),
      perObject(row.none, count),
      ...compressed().flatMap((c) => (row[c] === undefined ? ['—', '—'] : [kb(row[c]), perObject(row[c], count)])),
    ];
  });
  return { header, rows };
}

/** The published figures beside the lab's, as a header and rows; null for a dataset without any. */
export function publishedRows(name, sizes) {
  const published = PUBLISHED[name];
  if (!published) return null;
  const header = ['format', 'published raw kB', 'lab raw kB', 'published zlib kB', 'lab deflate (zlib) kB'];
  const rows = Object.entries(published.kilobytes).map(([format, figures]) => [
    LABELS.format(format),
    String(figures.none),
    kb(sizes[format].none),
    String(figures.deflate),
    kb(sizes[format].deflate),
  ]);
  return { header, rows };
}

/** What the size table holds, in words. */
export function sizesNote(name, count) {
  return (
    `Bytes on the wire for the first ${count.toLocaleString('en-US')} objects of ${name} (the dataset as ` +
    'given), in kB (1,000 bytes), and per object; each compression at its default level. Measured once, ' +
    'when the run brought the dataset.'
  );
}

/**
 * The report's sections for the datasets a run brought that have sizes: a table each, and the
 * published figures beside it with the differences explained where a related study published any.
 */
export function datasetSizeSections(datasets) {
  return (datasets ?? [])
    .filter((d) => d.sizes)
    .flatMap((d) => {
      const count = d.sizes.objects;
      const published = publishedRows(d.name, d.sizes.bytes);
      return [
        {
          heading: `Sizes of ${d.name}`,
          paragraphs: [sizesNote(d.name, count)],
          table: sizeTableRows(count, d.sizes.bytes),
        },
        ...(published
          ? [
              {
                subheading: `${d.name} beside the published sizes`,
                paragraphs: [
                  `Published by ${PUBLISHED[d.name].source}, beside the lab's. Where they differ:`,
                  ...PUBLISHED[d.name].differences,
                ],
                table: published,
              },
            ]
          : []),
      ];
    });
}

/** The size table and, where there are any, the published figures, as Markdown. */
export function sizeTableMarkdown(name, count, sizes) {
  const table = (t) => [
    `| ${t.header.join(' | ')} |`,
    `|---|${t.header
      .slice(1)
      .map(() => '---:')
      .join('|')}|`,
    ...t.rows.map((r) => `| ${r.join(' | ')} |`),
  ];
  const lines = [
    `### Sizes of ${name} (${count} objects)`,
    '',
    sizesNote(name, count),
    '',
    ...table(sizeTableRows(count, sizes)),
  ];
  const published = publishedRows(name, sizes);
  if (published) {
    lines.push('', `Published by ${PUBLISHED[name].source}, beside the lab's:`, '', ...table(published));
    lines.push('', 'Where they differ:', '', ...PUBLISHED[name].differences.map((d) => `- ${d}`));
  }
  return lines.join('\n') + '\n';
}

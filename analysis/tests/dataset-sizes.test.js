// A brought dataset's size table in the report: every format and compression, bytes whole and per
// object, the dataset named; for an example dataset of a related study, the published figures beside
// the lab's with the differences explained.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { COMPRESSIONS, FORMATS } from '#common/catalogue.js';
import { PUBLISHED, datasetSizeSections, publishedRows, sizeTableMarkdown, sizeTableRows } from '../dataset-sizes.js';
import { makeReport } from '../report.js';
import { syntheticRun } from './synthetic-run.js';

/** Sizes as a run records them: every format × compression, raw bytes 100 × the format's position + 1. */
function sizes() {
  return Object.fromEntries(
    FORMATS.map((format, f) => [
      format,
      Object.fromEntries(COMPRESSIONS.map((c, i) => [c, c === 'none' ? 100_000 * (f + 1) : 2_000 * (f + 1) + i])),
    ]),
  );
}

test('the size table has every format, raw and each compression, whole in kB and per object', () => {
  const { header, rows } = sizeTableRows(1000, sizes());
  assert.equal(header.length, 3 + 2 * (COMPRESSIONS.length - 1));
  assert.equal(rows.length, FORMATS.length);
  assert.deepEqual(rows[0].slice(0, 3), ['JSON', '100.0', '100.0']);
  assert.deepEqual(rows[1].slice(1, 5), ['200.0', '200.0', '4.0', '4.0']);
});

test("published figures stand beside the lab's only for a dataset a related study published", () => {
  assert.equal(publishedRows('my-logs', sizes()), null);
  const { rows } = publishedRows('log-messages', sizes());
  const cbor = rows.find((r) => r[0] === 'CBOR');
  const at = FORMATS.indexOf('cbor') + 1;
  assert.deepEqual(cbor, [
    'CBOR',
    String(PUBLISHED['log-messages'].kilobytes.cbor.none),
    (100 * at).toFixed(1),
    String(PUBLISHED['log-messages'].kilobytes.cbor.deflate),
    ((2_000 * at + COMPRESSIONS.indexOf('deflate')) / 1000).toFixed(1),
  ]);
  const markdown = sizeTableMarkdown('log-messages', 10_000, sizes());
  assert.match(markdown, /### Sizes of log-messages \(10000 objects\)/);
  assert.match(markdown, /Where they differ:\n\n- CBOR raw: /);
});

test("a run's report has each brought dataset's size table, named, and an example's published sizes", async () => {
  const { path } = syntheticRun();
  const contextFile = join(path, 'run.json');
  const context = JSON.parse(readFileSync(contextFile, 'utf8'));
  context.datasets = [
    { name: 'log-messages', objects: 10_000, sizes: { objects: 10_000, bytes: sizes() } },
    { name: 'orders', objects: 20_000, given_objects: 500, sizes: { objects: 500, bytes: sizes() } },
    { name: 'old-run', objects: 10 },
  ];
  writeFileSync(contextFile, JSON.stringify(context));
  assert.equal(datasetSizeSections(context.datasets).length, 3);

  await makeReport([path]);

  const md = readFileSync(join(path, 'report.md'), 'utf8');
  assert.match(md, /## Sizes of log-messages\n\nBytes on the wire for the first 10,000 objects of log-messages/);
  assert.match(md, /### log-messages beside the published sizes\n\nPublished by the logging library/);
  assert.match(md, /CBOR raw: a logging library's own CBOR encoder/);
  assert.match(md, /## Sizes of orders\n\nBytes on the wire for the first 500 objects of orders/);
  assert.doesNotMatch(md, /orders beside the published/);
  assert.doesNotMatch(md, /Sizes of old-run/);
  const orders = md.slice(md.indexOf('## Sizes of orders'));
  assert.match(orders, /\| JSON \| 100\.0 \| 200\.0 \|/);
});

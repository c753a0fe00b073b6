// The size table of a dataset (docs/datasets.md#size-tables): raw and compressed bytes, whole and
// per object, for every format and compression at its default level, as the server sends them
// (the bytes on the wire, counted here without decompressing). For the example datasets it puts
// the related studies' published figures beside the lab's (docs/method.md, related studies).
//
//   node experiments/datasets/sizes.js [--base-url http://localhost:8080] [--bring file] <name> [out-dir]
//
// With --bring, the file is brought first (PUT /api/datasets/<name>). Prints the table as
// Markdown; with out-dir, writes sizes-<name>.md and sizes-<name>.json there.

import { request } from 'node:http';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMPRESSIONS, FORMATS, LABELS, defaultLevel } from '#common/catalogue.js';

/**
 * What the related studies published for their data, in kilobytes of 1,000 bytes: the logging
 * library's 10,000 log messages, raw and zlib-compressed (docs/method.md, related studies).
 */
export const PUBLISHED = Object.freeze({
  'log-messages': {
    source: 'the logging library (SPEC §9): 10,000 log lines, raw and zlib-compressed',
    objects: 10_000,
    kilobytes: { json: { none: 920, deflate: 28 }, cbor: { none: 550, deflate: 28 } },
  },
});

/** The bytes of one GET on the wire, undecompressed. */
function wireBytes(url) {
  return new Promise((resolvePromise, reject) => {
    request(url, (response) => {
      if (response.statusCode !== 200) {
        reject(new Error(`${url}: HTTP ${response.statusCode}`));
        response.resume();
        return;
      }
      let bytes = 0;
      response.on('data', (chunk) => (bytes += chunk.length));
      response.on('end', () => resolvePromise(bytes));
    })
      .on('error', reject)
      .end();
  });
}

/** Every format × compression's bytes for the whole dataset: {format: {compression: bytes}}. */
export async function measureSizes(baseUrl, name, count) {
  const sizes = {};
  for (const format of FORMATS) {
    sizes[format] = {};
    for (const compression of COMPRESSIONS) {
      const level = defaultLevel(compression);
      const levelPart = level === null ? '' : `&level=${level}`;
      const query = `count=${count}&format=${format}&compression=${compression}${levelPart}`;
      sizes[format][compression] = await wireBytes(new URL(`/api/${name}?${query}`, baseUrl));
    }
  }
  return sizes;
}

const kb = (bytes) => (bytes / 1000).toFixed(1);
const perObject = (bytes, count) => (bytes / count).toFixed(1);
const headers = (compression) => `${LABELS.compression(compression)} kB | ${LABELS.compression(compression)} B/object`;

/** The size table as Markdown, with the published figures beside it where there are any. */
export function sizeTable(name, count, sizes) {
  const compressions = COMPRESSIONS.filter((c) => c !== 'none');
  const published = PUBLISHED[name];
  const lines = [
    `### Sizes of ${name} (${count} objects)`,
    '',
    'Bytes on the wire for the whole dataset, in kB (1,000 bytes), and per object; ' +
      'each compression at its default level.',
    '',
    `| format | raw kB | raw B/object | ${compressions.map(headers).join(' | ')} |`,
    `|---|---:|---:|${compressions.map(() => '---:|---:').join('|')}|`,
  ];
  for (const format of FORMATS) {
    const row = sizes[format];
    lines.push(
      `| ${LABELS.format(format)} | ${kb(row.none)} | ${perObject(row.none, count)} | ` +
        `${compressions.map((c) => `${kb(row[c])} | ${perObject(row[c], count)}`).join(' | ')} |`,
    );
  }
  if (published) {
    lines.push('', `Published by ${published.source}, beside the lab's:`, '');
    lines.push(
      '| format | published raw kB | lab raw kB | published zlib kB | lab deflate (zlib) kB |',
      '|---|---:|---:|---:|---:|',
    );
    for (const [format, figures] of Object.entries(published.kilobytes)) {
      lines.push(
        `| ${LABELS.format(format)} | ${figures.none} | ${kb(sizes[format].none)} | ` +
          `${figures.deflate} | ${kb(sizes[format].deflate)} |`,
      );
    }
  }
  return lines.join('\n') + '\n';
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  let baseUrl = 'http://localhost:8080';
  let bring = null;
  const positional = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--base-url') baseUrl = args[++i];
    else if (args[i] === '--bring') bring = args[++i];
    else positional.push(args[i]);
  }
  const [name, outDirectory] = positional;
  if (!name) {
    console.error('usage: node experiments/datasets/sizes.js [--base-url URL] [--bring file] <name> [out-dir]');
    process.exit(2);
  }
  if (bring) {
    const response = await fetch(new URL(`/api/datasets/${name}`, baseUrl), {
      method: 'PUT',
      body: readFileSync(bring),
    });
    if (response.status !== 201) throw new Error(`the server refused ${bring}: ${(await response.json()).message}`);
  }
  const described = await (await fetch(new URL(`/api/datasets/${name}`, baseUrl))).json();
  if (described.code) throw new Error(described.message);
  const sizes = await measureSizes(baseUrl, name, described.objects);
  const table = sizeTable(name, described.objects, sizes);
  console.log(table);
  if (outDirectory) {
    mkdirSync(outDirectory, { recursive: true });
    writeFileSync(join(outDirectory, `sizes-${name}.md`), table);
    writeFileSync(
      join(outDirectory, `sizes-${name}.json`),
      JSON.stringify({ name, objects: described.objects, sha256: described.sha256, bytes: sizes }, null, 2) + '\n',
    );
  }
}

// Brings a plan's datasets (docs/datasets.md) to the server before a run: each file is PUT to
// /api/datasets/<name>; a dataset with fewer objects than the plan's largest count for it is
// brought again repeated up to that count (PUT …?repeat=N). Then its size table is measured on
// the wire (sizes.js), once, for the report. Returns what run.json records of each: its file, name,
// object count, content hash, schema and sizes.
//
//   node experiments/datasets/bring.js <base url> <datasets as JSON> <largest counts as JSON>
//
// does the same from inside a network namespace (SHAPING=netns: netns.js#bringInNamespace) and
// prints the records as JSON.

import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { measureSizes } from './sizes.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * PUT /api/datasets/<name>: the file as the body, or with its own .proto a multipart body (data,
 * proto, message).
 */
async function put(baseUrl, name, body, repeat, proto) {
  const url = new URL(`/api/datasets/${name}${repeat ? `?repeat=${repeat}` : ''}`, baseUrl);
  let sent = body;
  if (proto) {
    sent = new FormData();
    sent.append('data', new Blob([body]), 'data');
    sent.append('proto', new Blob([proto.text]), 'proto');
    sent.append('message', proto.message);
  }
  const response = await fetch(url, { method: 'PUT', body: sent });
  const answer = await response.json();
  if (response.status !== 201) {
    throw new Error(`The server refused dataset ${name} (HTTP ${response.status}): ${answer.message}`);
  }
  return answer;
}

/** The plan's largest count of each of its datasets: {name: count}. */
export function largestCounts(plan, cells) {
  return Object.fromEntries(
    Object.keys(plan.datasets ?? {}).map((name) => [
      name,
      Math.max(0, ...cells.filter((c) => c.object === name).map((c) => c.count)),
    ]),
  );
}

/**
 * @param datasets name → file, or {file, proto, message} (a plan's `datasets`)
 * @param largest name → the plan's largest count for it (largestCounts)
 * @param log where to say that a dataset was repeated
 */
export async function bringDatasets(baseUrl, datasets, largest, log = console.log) {
  const brought = [];
  for (const [name, entry] of Object.entries(datasets ?? {})) {
    const { file: path, proto: protoPath, message } = typeof entry === 'string' ? { file: entry } : entry;
    const body = readFileSync(resolve(ROOT, path));
    const proto = protoPath ? { text: readFileSync(resolve(ROOT, protoPath), 'utf8'), message } : null;
    let description = await put(baseUrl, name, body, 0, proto);
    const given = description.objects;
    const most = largest[name] ?? 0;
    if (most > given) {
      description = await put(baseUrl, name, body, most, proto);
      log(`Dataset ${name}: ${given} objects in ${path}, repeated up to ${most} (the plan's largest count).`);
    }
    const sizes = { objects: given, bytes: await measureSizes(baseUrl, name, given) };
    const { xml_example: xmlExample, ...recorded } = description;
    brought.push({
      file: path,
      ...(protoPath ? { proto_file: protoPath } : {}),
      given_objects: given,
      repeated_to: most > given ? most : null,
      ...recorded,
      sizes,
    });
  }
  return brought;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [baseUrl, datasets, largest] = process.argv.slice(2);
  try {
    const brought = await bringDatasets(baseUrl, JSON.parse(datasets), JSON.parse(largest), console.error);
    console.log(JSON.stringify(brought));
  } catch (error) {
    console.error(error.message);
    process.exitCode = 1;
  }
}

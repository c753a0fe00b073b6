// Brings a plan's datasets (docs/datasets.md) to the server before a run: each file is PUT to
// /api/datasets/<name>; a dataset with fewer objects than the plan's largest count for it is
// brought again repeated up to that count (PUT …?repeat=N). Returns what run.json records of each:
// its file, name, object count, content hash and schema.

import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

async function put(baseUrl, name, body, repeat) {
  const url = new URL(`/api/datasets/${name}${repeat ? `?repeat=${repeat}` : ''}`, baseUrl);
  const response = await fetch(url, { method: 'PUT', body });
  const answer = await response.json();
  if (response.status !== 201) {
    throw new Error(`The server refused dataset ${name} (HTTP ${response.status}): ${answer.message}`);
  }
  return answer;
}

/**
 * @param plan a loaded plan (its `datasets`: name → file)
 * @param cells the plan's cells, for the largest count of each dataset
 */
export async function bringDatasets(baseUrl, plan, cells) {
  const brought = [];
  for (const [name, path] of Object.entries(plan.datasets ?? {})) {
    const file = resolve(ROOT, path);
    const body = readFileSync(file);
    let description = await put(baseUrl, name, body);
    const largest = Math.max(0, ...cells.filter((c) => c.object === name).map((c) => c.count));
    const given = description.objects;
    if (largest > given) {
      description = await put(baseUrl, name, body, largest);
      console.log(
        `Dataset ${name}: ${given} objects in ${path}, repeated up to ${largest} (the plan's largest count).`,
      );
    }
    const { xml_example: xmlExample, ...recorded } = description;
    brought.push({ file: path, given_objects: given, repeated_to: largest > given ? largest : null, ...recorded });
  }
  return brought;
}

// The folders depend on each other in one direction only: common (shared code) ← analysis ←
// client ← experiments. A module may import its own folder, and the folders before it.

import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const ORDER = ['common', 'analysis', 'client', 'experiments'];

function modules(folder) {
  const out = [];
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (name === 'node_modules' || name === 'generated') continue;
    if (statSync(path).isDirectory()) out.push(...modules(path));
    else if (/\.(m?js)$/.test(name)) out.push(path);
  }
  return out;
}

/** The folder (of ORDER) a module specifier of `file` points into, or null for packages and node:. */
function targetFolder(file, specifier) {
  if (specifier.startsWith('#common/')) return 'common';
  if (!specifier.startsWith('.')) return null;
  const [top] = relative(ROOT, resolve(dirname(file), specifier)).split('/');
  return top;
}

test('no folder imports a folder that depends on it', () => {
  const problems = [];
  for (const folder of ORDER) {
    for (const file of modules(join(ROOT, folder))) {
      const source = readFileSync(file, 'utf8');
      for (const [, specifier] of source.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]/g)) {
        const target = targetFolder(file, specifier);
        if (target === null || target === folder) continue;
        if (!ORDER.includes(target) || ORDER.indexOf(target) > ORDER.indexOf(folder)) {
          const allowed = ORDER.slice(0, ORDER.indexOf(folder)).join(', ') || 'nothing else';
          problems.push(`${relative(ROOT, file)} imports ${specifier} (${folder} may import ${allowed})`);
        }
      }
    }
  }
  assert.deepStrictEqual(problems, []);
});

test('one median and one CSV writer', () => {
  const definitions = { median: [], csv: [] };
  for (const folder of ORDER) {
    for (const file of modules(join(ROOT, folder))) {
      if (file.includes(`${join('common', 'tests')}`)) continue;
      const source = readFileSync(file, 'utf8');
      if (/function median\s*\(|const median\s*=\s*\(/.test(source)) definitions.median.push(relative(ROOT, file));
      if (/replace\(\/"\/g, '""'\)/.test(source)) definitions.csv.push(relative(ROOT, file));
    }
  }
  assert.deepStrictEqual(definitions, { median: ['common/stats.js'], csv: ['common/csv.js'] });
});

// The page's import map (index.html) is complete and points at files that exist: every bare
// import of the page's modules is mapped, every mapped npm file is in node_modules, and the
// packages are exactly package.json's dependencies (which the server serves under /vendor/npm/).

import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT } from './fixtures.js';

const CLIENT = join(ROOT, 'client');
const html = readFileSync(join(CLIENT, 'index.html'), 'utf8');
const map = JSON.parse(/<script type="importmap">([\s\S]*?)<\/script>/.exec(html)[1]).imports;
const dependencies = Object.keys(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).dependencies ?? {});

function pageModules(folder) {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (['tests', 'bench'].includes(name)) return [];
    if (statSync(path).isDirectory()) return pageModules(path);
    return name.endsWith('.js') ? [path] : [];
  });
}

test('every bare import of the page is in its import map', () => {
  const unmapped = [];
  for (const file of [...pageModules(CLIENT), ...pageModules(join(ROOT, 'common'))]) {
    if (/(chromium|run-directory|playwright\.config)\.js$/.test(file)) continue; // Node-only modules
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(
      /(?:^|\n)\s*import[^'"]*?from\s+['"]([^'"]+)['"]/g,
    )) {
      if (specifier.startsWith('.') || specifier.startsWith('node:')) continue;
      const mapped =
        map[specifier] ?? Object.entries(map).find(([prefix]) => prefix.endsWith('/') && specifier.startsWith(prefix));
      if (!mapped) unmapped.push(`${file.slice(ROOT.length + 1)}: ${specifier}`);
    }
  }
  assert.deepStrictEqual(unmapped, []);
});

test("the mapped npm files exist and their packages are package.json's dependencies", () => {
  const mappedPackages = new Set();
  for (const [specifier, target] of Object.entries(map)) {
    if (specifier === '#common/') {
      assert.equal(target, '/common/');
      continue;
    }
    const match = /^\/vendor\/npm\/((?:@[^/]+\/)?[^/]+)\/(.+)$/.exec(target);
    assert.ok(match, `${specifier} → ${target} is not under /vendor/npm/<package>/`);
    mappedPackages.add(match[1]);
    assert.ok(existsSync(join(ROOT, 'node_modules', match[1], match[2])), `${target} is not in node_modules (npm ci)`);
  }
  assert.deepStrictEqual([...mappedPackages].sort(), [...dependencies].sort());
});

// The page's import map (index.html) is complete and points at files that exist: every bare
// import of the page's modules (the vendor bundles' included) is mapped; each package is one
// module made from it at set-up (client/vendor/<package>.js, scripts/client-libraries.sh) that
// exports what the package exports; and the packages are exactly package.json's dependencies.

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

test("each package is mapped to its one module, and the packages are package.json's dependencies", async () => {
  const mappedPackages = [];
  for (const [specifier, target] of Object.entries(map)) {
    if (specifier === '#common/') {
      assert.equal(target, '/common/');
      continue;
    }
    assert.equal(target, `/vendor/${specifier}.js`, `${specifier} is mapped to its package's one module`);
    mappedPackages.push(specifier);
    const bundle = join(CLIENT, 'vendor', `${specifier}.js`);
    assert.ok(existsSync(bundle), `${bundle} is missing (scripts/client-libraries.sh makes it)`);
    // What the page gets under the name is what the package gives (Node may load a package's
    // CommonJS build, whose interop adds `default` and `__esModule`).
    const names = (module) =>
      Object.keys(module)
        .filter((name) => !['default', '__esModule'].includes(name))
        .sort();
    assert.deepStrictEqual(names(await import(bundle)), names(await import(specifier)), specifier);
  }
  assert.deepStrictEqual(mappedPackages.sort(), [...dependencies].sort());
});

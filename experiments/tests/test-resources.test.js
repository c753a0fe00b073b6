// The tests' ports and namespace names (test-resources.js) do not collide: every server a test
// starts takes its port and the next (admin), so no two tests' offsets under RTL_TEST_PORT_BASE,
// nor their default ports, may be closer than 2; no two tests share a namespace suffix. Nor do
// the benchmarks' default ports collide with each other's or the tests' (their TLS ports are
// picked by the system, or follow the cleartext port at 8443 − 8080 and more, clear of them all).

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ENGINES } from '#common/browsers/engines.js';

/** The directories npm test takes its Node tests from (scripts/test.sh). */
const TEST_DIRECTORIES = ['common/tests', 'client/tests', 'experiments/tests', 'analysis/tests'];
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Every literal call of `name` with a first and second argument, in every test file: [file, first, second]. */
function calls(name, argument) {
  const call = new RegExp(`\\b${name}\\(\\s*(${argument})\\s*,\\s*(${argument})\\s*\\)`, 'g');
  return TEST_DIRECTORIES.flatMap((directory) =>
    readdirSync(join(ROOT, directory))
      .filter((file) => file.endsWith('.js') && file !== 'test-resources.js')
      .flatMap((file) =>
        [...readFileSync(join(ROOT, directory, file), 'utf8').matchAll(call)].map((m) => [file, m[1], m[2]]),
      ),
  );
}

/** The pairs of `values` (with where each is from) closer than `gap`. */
function tooClose(values, gap) {
  const sorted = [...values].sort((a, b) => a[0] - b[0]);
  return sorted.slice(1).flatMap((v, i) => (v[0] - sorted[i][0] < gap ? [[sorted[i], v]] : []));
}

test("no two tests' ports overlap, under RTL_TEST_PORT_BASE or by default", () => {
  const ports = calls('testPort', '\\d+').map(([file, port, offset]) => ({ file, port: +port, offset: +offset }));
  assert.ok(ports.length >= 6, `found ${ports.length} testPort calls: the scan must see the tests' ports`);
  const where = (p) => `${p.file}: testPort(${p.port}, ${p.offset})`;
  for (const key of ['offset', 'port']) {
    const close = tooClose(
      ports.map((p) => [p[key], where(p)]),
      2,
    );
    assert.deepStrictEqual(
      close.map(([a, b]) => `${a[1]} and ${b[1]}`),
      [],
      `${key}s within 1 of each other (each server also takes the next port)`,
    );
  }
});

/** The benchmarks' default ports: `const …PORT = 18…` or `…PORT ?? 18…` in experiments/bench. */
function benchmarkPorts() {
  const directory = join(ROOT, 'experiments', 'bench');
  return readdirSync(directory)
    .filter((file) => file.endsWith('.mjs'))
    .flatMap((file) =>
      [...readFileSync(join(directory, file), 'utf8').matchAll(/PORT\b[^=\n]*(?:=|\?\?)\s*(\d{4,5})\b/g)].map((m) => [
        +m[1],
        `${file}: ${m[1]}`,
      ]),
    );
}

test("the benchmarks' ports collide with no other benchmark's or test's", () => {
  const benchmarks = benchmarkPorts();
  assert.ok(benchmarks.length >= 7, `found ${benchmarks.length} benchmark ports: the scan must see them`);
  const tests = calls('testPort', '\\d+').map(([file, port]) => [+port, `${file}: testPort(${port})`]);
  // The browser suite's servers (client/playwright.config.js, E2E_PORT): one per engine, two apart.
  const e2e = Object.keys(ENGINES).map((name, i) => [18080 + 2 * i, `client/playwright.config.js: ${name}'s server`]);
  const close = tooClose([...benchmarks, ...tests, ...e2e], 2);
  assert.deepStrictEqual(
    close.map(([a, b]) => `${a[1]} and ${b[1]}`),
    [],
    'ports within 1 of each other (each server also takes the next port)',
  );
});

test('no two tests share a namespace name', () => {
  const names = calls('testNamespace', "'[^']*'");
  assert.ok(names.length >= 4, `found ${names.length} testNamespace calls`);
  for (const index of [1, 2]) {
    const seen = names.map((n) => n[index]);
    assert.deepStrictEqual(
      seen.filter((name, i) => seen.indexOf(name) !== i),
      [],
      'shared namespace names',
    );
  }
});

// The memory of the last calibration of Chromium's emulation: where a run's calibration starts.

import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { NETWORKS } from '../network/profiles.js';
import { memoryFile, memoryKey, rememberFactor, startingFactor } from '../network/cdp-calibration-memory.js';
import { temporaryDirectory } from '#common/temporary-directory.js';
import { KEPT_FOR_DAYS, readMemory, remember } from '../machine-memory.js';

const env = () => ({ RTL_CACHE_DIR: join(temporaryDirectory('rtl-cdp-memory-'), 'cache') });
const KEY = memoryKey('150.0.1', '10mbit', NETWORKS['10mbit']);

test('with nothing remembered a calibration starts from 1, and from what was remembered after', () => {
  const cache = env();
  assert.deepStrictEqual(startingFactor(KEY, cache), { factor: 1, from: 'none remembered: Chromium as it is' });
  assert.equal(rememberFactor(KEY, 1.0734, cache), true);
  const start = startingFactor(KEY, cache);
  assert.equal(start.factor, 1.0734);
  assert.match(start.from, /^the last calibration on this machine \(\d{4}-\d\d-\d\dT.*cdp-calibration\.json\)$/);
  // Written whole and renamed: no partial file is left beside it.
  assert.deepStrictEqual(readdirSync(join(memoryFile(cache), '..')), ['cdp-calibration.json']);
});

test('a factor is remembered per browser version and profile, and a new one replaces the old', () => {
  const cache = env();
  rememberFactor(KEY, 1.07, cache);
  const otherVersion = memoryKey('151.0.0', '10mbit', NETWORKS['10mbit']);
  const otherProfile = memoryKey('150.0.1', 'cable', NETWORKS.cable);
  assert.notEqual(otherVersion, KEY);
  assert.notEqual(otherProfile, KEY);
  assert.equal(startingFactor(otherVersion, cache).factor, 1);
  assert.equal(startingFactor(otherProfile, cache).factor, 1);
  rememberFactor(otherProfile, 1.02, cache);
  rememberFactor(KEY, 1.09, cache);
  assert.equal(startingFactor(KEY, cache).factor, 1.09);
  assert.equal(startingFactor(otherProfile, cache).factor, 1.02);
});

test('an unreadable or odd memory starts from 1, and one that cannot be written is no error', () => {
  const cache = env();
  const file = memoryFile(cache);
  mkdirSync(join(file, '..'), { recursive: true });
  for (const text of ['{half', '[1.07]', 'null', JSON.stringify({ [KEY]: { factor: -2 } })]) {
    writeFileSync(file, text);
    assert.equal(startingFactor(KEY, cache).factor, 1, text);
  }
  // A cache directory where a file is: nothing can be made under it.
  writeFileSync(join(file, '..', 'a-file'), '');
  assert.equal(rememberFactor(KEY, 1.07, { RTL_CACHE_DIR: join(file, '..', 'a-file', 'cache') }), false);
});

test('a memory keeps what was renewed within its days, and drops older entries when written', () => {
  const file = join(temporaryDirectory('rtl-memory-age-'), 'memory.json');
  const now = Date.parse('2026-06-01T00:00:00Z');
  const daysAgo = (days) => new Date(now - days * 86_400_000).toISOString();
  writeFileSync(
    file,
    JSON.stringify({ old: { at: daysAgo(KEPT_FOR_DAYS + 1) }, recent: { at: daysAgo(3) }, undated: {} }),
  );
  assert.equal(remember(file, { fresh: { at: daysAgo(0) } }, now), true);
  assert.deepEqual(Object.keys(readMemory(file)).sort(), ['fresh', 'recent', 'undated']);
});

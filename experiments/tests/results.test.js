import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, appendFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { RunDirectory, mergeRuns, readJsonLines, readRun } from '../results.js';

const cell = (count) => ({ object: 'books', format: 'json', compression: 'none', count, scenario: 1, cm: 0, network: 'unthrottled' });
const id = (count) => `books/${count}/json/none/scenario1/cm0/unthrottled`;

function runWith(planName, counts) {
  const run = new RunDirectory(mkdtempSync(join(tmpdir(), 'rtl-run-')));
  run.writeContext({ plan: { name: planName } });
  for (const count of counts) {
    const writer = run.startCell(id(count), cell(count));
    for (let rep = 1; rep <= 3; rep++) writer.sample({ rep, total_ms: count + rep });
    writer.complete({ n: 3, summary: { median: count + 2 }, verification: { passed: true } });
  }
  return run;
}

test('samples stream in with the cell\'s parameters; a completed cell is recorded', () => {
  const run = runWith('smoke', [10, 100]);
  const { cells, samples } = readRun(run.path);
  assert.deepStrictEqual(cells.map((c) => c.case_id), [id(10), id(100)]);
  assert.equal(samples.length, 6);
  assert.deepStrictEqual(Object.keys(samples[0]).slice(0, 10),
    ['case_id', 'attempt', 'object', 'format', 'compression', 'count', 'scenario', 'cm', 'network', 'rep']);
  assert.equal(samples[0].total_ms, 11);
});

test('a cell killed mid-way leaves no broken line to readers, and resuming drops its samples', () => {
  const run = runWith('smoke', [10]);
  const writer = run.startCell(id(100), cell(100));
  writer.sample({ rep: 1, total_ms: 5 });
  appendFileSync(run.file('samples.jsonl'), '{"case_id":"books/100/json/none/scen'); // a kill mid-write
  assert.equal(readRun(run.path).samples.length, 3, 'readers see complete cells only');
  assert.deepStrictEqual([...run.completedCaseIds()], [id(10)]);
  assert.equal(run.compact(), 2);
  assert.equal(readJsonLines(run.file('samples.jsonl')).length, 3);
  assert.ok(readFileSync(run.file('samples.jsonl'), 'utf8').endsWith('\n'));
  assert.equal(run.compact(), 0, 'compacting twice changes nothing');
});

test('a damaged line in the middle is an error, not silently skipped', () => {
  const run = runWith('smoke', [10]);
  writeFileSync(run.file('cells.jsonl'), 'not json\n{"case_id":"x"}\n');
  assert.throws(() => run.completedCells(), /cells.jsonl:1 is not JSON/);
});

test('shards merge into one run; overlapping or foreign runs are refused', () => {
  const a = runWith('quick', [10, 100]);
  const b = runWith('quick', [1000]);
  const out = join(mkdtempSync(join(tmpdir(), 'rtl-merged-')), 'merged');
  assert.deepStrictEqual(mergeRuns([a.path, b.path], out), { cells: 3, samples: 9 });
  const merged = readRun(out);
  assert.equal(merged.cells.length, 3);
  assert.equal(merged.context.merged_from.length, 2);
  assert.throws(() => mergeRuns([a.path, a.path], join(tmpdir(), 'x-never')), /is in both/);
  assert.throws(() => mergeRuns([a.path, runWith('thesis', [5]).path], join(tmpdir(), 'y-never')), /different plans/);
});

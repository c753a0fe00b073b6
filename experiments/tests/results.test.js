import assert from 'node:assert/strict';
import { readFileSync, appendFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { RunDirectory, mergeRuns, readJsonLines, readRun } from '#common/run-directory.js';
import { temporaryDirectory } from '#common/temporary-directory.js';

const cell = (count) => ({
  object: 'books',
  format: 'json',
  compression: 'none',
  count,
  scenario: 1,
  cm: 0,
  network: 'unthrottled',
});
const caseIdOf = (count) => `books/${count}/json/none/scenario1/cm0/unthrottled`;

/** A run with one comparison group per count, each of two cells (none, gzip), 3 rounds of one iteration. */
function runWith(planName, counts, context = {}) {
  const run = new RunDirectory(temporaryDirectory('rtl-run-'));
  run.writeContext({ plan: { name: planName }, seed: 1, ...context });
  for (const count of counts) recordGroup(run, count, 3);
  return run;
}

const pair = (count) => [
  { case_id: caseIdOf(count), ...cell(count) },
  { case_id: caseIdOf(count).replace('/none/', '/gzip/'), ...cell(count), compression: 'gzip' },
];

function recordGroup(run, count, rounds, { complete = true } = {}) {
  const writer = run.startGroup(`g${count}`, pair(count));
  for (let round = 1; round <= rounds; round++) {
    writer.round({
      round,
      order: pair(count).map((c) => c.case_id),
      samples: pair(count).map((c, position) => ({
        case_id: c.case_id,
        round,
        position,
        visit_iteration: 1,
        total_ms: count + round,
      })),
    });
  }
  if (complete) {
    writer.complete({
      rounds,
      stop: { reason: 'rounds done', comparisons: [] },
      cells: pair(count).map((c) => ({
        case_id: c.case_id,
        summary: { n: rounds, median: count + 2 },
        warmup: { rule: 'count' },
        verification: { passed: true },
      })),
    });
  }
  return writer;
}

test(
  'samples come in by rounds with their group, round, position and cell; ' + 'completed groups and cells are recorded',
  () => {
    const run = runWith('smoke', [10, 100]);
    const { cells, samples, groups, rounds } = readRun(run.path);
    assert.deepStrictEqual(
      cells.map((c) => c.case_id),
      [...pair(10), ...pair(100)].map((c) => c.case_id),
    );
    assert.equal(samples.length, 12);
    assert.deepStrictEqual(Object.keys(samples[0]).slice(0, 14), [
      'case_id',
      'group_id',
      'session',
      'object',
      'format',
      'compression',
      'count',
      'scenario',
      'cm',
      'network',
      'round',
      'position',
      'visit_iteration',
      'total_ms',
    ]);
    assert.equal(samples[0].total_ms, 11);
    assert.deepStrictEqual(
      groups.map((g) => g.group_id),
      ['g10', 'g100'],
    );
    assert.equal(rounds.length, 6);
  },
);

test('a group killed mid-round keeps its complete rounds; resuming drops only the unfinished round', () => {
  const run = runWith('smoke', [10]);
  const writer = recordGroup(run, 100, 2, { complete: false });
  // What a kill -9 mid-round leaves: samples of round 3 without its round line, half a line more.
  appendFileSync(
    run.file('samples.jsonl'),
    `${JSON.stringify({ case_id: caseIdOf(100), group_id: 'g100', session: writer.session, round: 3, total_ms: 5 })}\n`,
  );
  appendFileSync(run.file('samples.jsonl'), '{"case_id":"books/100/json/none/scen');
  assert.equal(readRun(run.path).samples.length, 6, 'readers see completed cells only');
  assert.deepStrictEqual([...run.completedGroupIds()], ['g10']);
  assert.equal(run.compact(), 2);
  assert.equal(readJsonLines(run.file('samples.jsonl')).length, 10, "the killed group's two complete rounds stay");
  assert.ok(readFileSync(run.file('samples.jsonl'), 'utf8').endsWith('\n'));
  assert.equal(run.compact(), 0, 'compacting twice changes nothing');
  const resumed = run.startGroup('g100', pair(100)).earlier();
  assert.equal(resumed.lastRound, 2);
  assert.equal(resumed.samples.length, 4);
});

test('a group killed between its cells and its group line is not complete, and its rerun does not repeat them', () => {
  const run = runWith('smoke', [10]);
  const writer = recordGroup(run, 100, 2, { complete: false });
  // What a kill -9 inside complete() leaves: the group's cells appended, its groups.jsonl line not.
  appendFileSync(
    run.file('cells.jsonl'),
    `${JSON.stringify({ case_id: caseIdOf(100), group_id: 'g100', session: writer.session })}\n`,
  );
  assert.ok(
    run.completedCells().every((c) => c.group_id === 'g10'),
    'readers see the cells of completed groups only',
  );
  run.compact();
  assert.ok(
    readJsonLines(run.file('cells.jsonl')).every((c) => c.group_id === 'g10'),
    'resuming drops the orphaned cells before the group runs again',
  );
});

test('sessions are appended to run.json', () => {
  const run = runWith('smoke', [10], { sessions: [{ kind: 'started' }] });
  run.addSession({ kind: 'resumed' });
  assert.deepStrictEqual(
    run.readContext().sessions.map((s) => s.kind),
    ['started', 'resumed'],
  );
});

test('a damaged line in the middle is an error, not silently skipped', () => {
  const run = runWith('smoke', [10]);
  writeFileSync(run.file('cells.jsonl'), 'not json\n{"case_id":"x"}\n');
  assert.throws(() => run.completedCells(), /cells.jsonl:1 is not JSON/);
});

test('shards merge into one run; overlapping, foreign or differently made runs are refused, saying why', () => {
  const firstShard = runWith('quick', [10, 100]);
  const secondShard = runWith('quick', [1000]);
  const out = join(temporaryDirectory('rtl-merged-'), 'merged');
  assert.deepStrictEqual(mergeRuns([firstShard.path, secondShard.path], out), { cells: 6, samples: 18 });
  const merged = readRun(out);
  assert.equal(merged.cells.length, 6);
  assert.equal(merged.groups.length, 3);
  assert.equal(merged.context.merged_from.length, 2);
  assert.throws(() => mergeRuns([firstShard.path, firstShard.path], join(tmpdir(), 'x-never')), /is in both/);
  assert.throws(
    () => mergeRuns([firstShard.path, runWith('thesis', [5]).path], join(tmpdir(), 'y-never')),
    /different plans/,
  );
  for (const [context, why] of [
    [{ seed: 2 }, /seed: 1 ≠ 2/],
    [{ dataset: { seed: 1, size: 5 } }, /dataset/],
    [{ shaping: 'netns' }, /network shaping/],
    [{ server: { settings: { head_bytes: 1024 } } }, /server settings/],
  ]) {
    assert.throws(
      () => mergeRuns([firstShard.path, runWith('quick', [7], context).path], join(tmpdir(), 'z-never')),
      why,
    );
  }
});

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { VERDICTS } from '#common/comparison.js';
import { describeStrays, strayCounts, verdictsByLook } from '../stray-verdicts.js';
import { syntheticRun } from './synthetic-run.js';

const CLI = new URL('../stray-verdicts-cli.js', import.meta.url).pathname;

const { A_FASTER: A, B_FASTER: B, EQUIVALENT: E, UNRESOLVED: U } = VERDICTS;

test('a settle rule is replayed on verdict sequences: what settled, what was sampled on, what strayed later', () => {
  const sequences = [
    [U, A, U, U, U], // a stray interval: settles at 1 look, open again later; never at 2 or 3
    [U, B, B, B, B], // steady: settles under every rule, sampled on, never strays
    [A, A, A, B, B], // settles, then turns the other way
    [E, E, A], // equivalent, then a faster: another verdict, not the opposite
    [U, U, B], // resolved at the last look only: settles at 1, nothing after it
    [U, U, U],
  ];
  assert.deepStrictEqual(strayCounts(sequences, 1), {
    looks: 1,
    settled: 5,
    sampled_on: 4,
    changed_later: 2,
    opposite_later: 1,
    waited_looks: 0,
  });
  assert.deepStrictEqual(strayCounts(sequences, 2), {
    looks: 2,
    settled: 3,
    sampled_on: 3,
    changed_later: 1,
    opposite_later: 1,
    waited_looks: 3,
  });
  assert.deepStrictEqual(strayCounts(sequences, 3), {
    looks: 3,
    settled: 2,
    sampled_on: 2,
    changed_later: 0,
    opposite_later: 1,
    waited_looks: 4,
  });
  assert.match(
    describeStrays({ comparisons: 6, rules: [strayCounts(sequences, 3)] })[1],
    /^settled at 3 looks in a row: 2 settled, 2 of them sampled on .* 0 had another verdict .* 1 turned the other way; 4 looks waited in all$/,
  );
});

test('the verdict at each look is judged on the samples up to it, over the rounds both cells ran in', () => {
  // a 10 ms, b 20 ms in every round: no verdict before the 5th shared round, a faster from it on.
  const samples = (ms, rounds) =>
    rounds.flatMap((round) => [
      { round, value: ms },
      { round, value: ms },
    ]);
  const verdicts = verdictsByLook(samples(10, [1, 2, 3, 4, 5, 6, 7, 8]), samples(20, [1, 2, 3, 4, 5, 7, 8]), 0.05);
  assert.deepStrictEqual(verdicts, [U, U, U, U, A, A, A]);
});

test('the command replays a run directory and says how to call it', () => {
  const { path } = syntheticRun({ seed: 9 }); // fixed rounds, no stop rule: nothing to replay
  const run = spawnSync(process.execPath, [CLI, path], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /^0 comparisons replayed look by look\nsettled at 1 look in a row: 0 settled/);
  assert.equal(spawnSync(process.execPath, [CLI], { encoding: 'utf8' }).status, 2);
  assert.equal(spawnSync(process.execPath, [CLI, '/nonexistent'], { encoding: 'utf8' }).status, 1);
});

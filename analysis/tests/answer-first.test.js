// The report's opening section: every number in it is the one its rule gives, recomputed here
// from the run's files (samples.jsonl and the judgments in groups.jsonl) without the report's code.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { makeReport } from '../report.js';
import { ms } from '../answer-first.js';
import { syntheticRun } from './synthetic-run.js';

const lines = (path) =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));

/** The median as numpy computes it, written again here as an independent reference. */
function referenceMedian(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = (sorted.length - 1) / 2;
  return (sorted[Math.floor(middle)] + sorted[Math.ceil(middle)]) / 2;
}

test('every number in the opening section is the one its rule gives', async () => {
  const { path } = syntheticRun();
  await makeReport([path]);
  const { opening } = JSON.parse(readFileSync(join(path, 'report-data.json'), 'utf8'));
  const samples = lines(join(path, 'samples.jsonl'));
  const judged = lines(join(path, 'groups.jsonl')).flatMap((g) => g.judgment.comparisons);
  const medianOf = (id) => referenceMedian(samples.filter((s) => s.case_id === id).map((s) => s.total_ms));
  const decisions = JSON.parse(readFileSync(join(path, 'report-data.json'), 'utf8')).decisions;
  assert.equal(opening.situations.length, decisions.length, 'one paragraph a situation');
  for (const [i, { text, numbers }] of opening.situations.entries()) {
    const fastest = decisions[i].fastest_case_id;
    // The time: the fastest configuration's median over all its samples.
    assert.ok(Math.abs(numbers.fastest_ms - medianOf(fastest)) < 1e-9, text);
    assert.ok(text.includes(ms(numbers.fastest_ms)), text);
    for (const other of numbers.others) {
      // +X ms: the other's median minus the fastest's.
      assert.ok(Math.abs(other.extra_ms - (medianOf(other.case_id) - medianOf(fastest))) < 1e-9, text);
      assert.ok(text.includes(`+${ms(other.extra_ms)}`), `${text} has +${ms(other.extra_ms)}`);
      if (other.ratio === null) continue;
      // k× slower: the judged ratio over matched rounds, the other over the fastest.
      const pair = judged.find(
        (c) => (c.a === other.case_id && c.b === fastest) || (c.a === fastest && c.b === other.case_id),
      );
      const ratio = pair.a === other.case_id ? pair.ratio : 1 / pair.ratio;
      assert.ok(Math.abs(other.ratio - ratio) < 1e-9, text);
      assert.ok(ratio > 1, 'every ratio reads "k× slower", k above 1');
      assert.ok(text.includes(`${other.ratio.toFixed(2)}× slower`), text);
    }
  }
  const words = [...opening.situations.map((s) => s.text), opening.general, opening.reading].join(' ').split(/\s+/);
  assert.ok(words.length < 600, `${words.length} words`);
});

test('the opening names a winner only where its group decided one, and counts what held', async () => {
  const { path } = syntheticRun();
  await makeReport([path]);
  const report = JSON.parse(readFileSync(join(path, 'report-data.json'), 'utf8'));
  for (const [i, decision] of report.decisions.entries()) {
    const { text } = report.opening.situations[i];
    assert.equal(text.includes('no clear winner'), decision.recommendation === 'no clear winner', text);
  }
  const clear = report.decisions.filter((d) => d.recommendation !== 'no clear winner').length;
  assert.match(report.opening.general, new RegExp(`clearly the fastest in ${clear} of ${report.decisions.length}`));
  const md = readFileSync(join(path, 'report.md'), 'utf8');
  assert.ok(md.indexOf('## What to choose') < md.indexOf('## This run'), 'the answer first, the method after');
  // 10 Mbit/s, N=1000 (by design): Protobuf with GZIP wins clearly.
  assert.match(md, /1,000 Books at 10 Mbit\/s: Protobuf with GZIP, [\d.]+ ms — clearly the fastest\./);
});

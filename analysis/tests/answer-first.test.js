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
      // +X ms: the other's median minus the fastest's, over the rounds both ran (as the ratio).
      const roundsOf = (id) => new Set(samples.filter((s) => s.case_id === id).map((s) => s.round));
      const [roundsOther, roundsFastest] = [roundsOf(other.case_id), roundsOf(fastest)];
      const shared = (id) =>
        referenceMedian(
          samples
            .filter((s) => s.case_id === id && roundsOther.has(s.round) && roundsFastest.has(s.round))
            .map((s) => s.total_ms),
        );
      assert.ok(Math.abs(other.extra_ms - (shared(other.case_id) - shared(fastest))) < 1e-9, text);
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
  // Short: the whole section, as a reader sees it, within its budget (answer-first.js OPENING_WORDS).
  const md = readFileSync(join(path, 'report.md'), 'utf8');
  const section = md.slice(md.indexOf('## What to choose'), md.indexOf('## This run'));
  const words = section.split(/\s+/).filter(Boolean).length;
  assert.ok(words < 600, `${words} words`);
  for (const s of opening.situations) assert.ok(section.includes(s.text), `${s.text} is in the section`);
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
  assert.match(
    md,
    /\*\*Books at 10 Mbit\/s, nothing sorted:\*\*\n\n(- .*\n)*- 1,000 Books: Protobuf with GZIP, [\d.]+ ms — clearly fastest\./,
  );
});

test('every ratio in the text says its direction in words, k× slower or faster with k at least 1', async () => {
  const { path } = syntheticRun();
  await makeReport([path]);
  const md = readFileSync(join(path, 'report.md'), 'utf8');
  const text = md.slice(0, md.indexOf('## Method'));
  const ratios = [...text.matchAll(/(\d+(?:\.\d+)?)×(–\d+(?:\.\d+)?×)?(.{0,8})/g)];
  assert.ok(ratios.length > 20, `${ratios.length} ratios`);
  for (const [whole, k, , after] of ratios) {
    assert.match(after, /^ (slower|faster)/, `"${whole}" says which way`);
    assert.ok(Number(k) >= 1, `"${whole}": k at least 1`);
  }
  // The source's figures and ours the same way round: each claim row names one direction.
  const rows = text.split('\n').filter((line) => line.startsWith('| ') && /source|GZIP|Protobuf/.test(line));
  for (const row of rows.filter((r) => r.includes('Protobuf (Book'))) {
    assert.match(row, /\| JSON [^|]*than Protobuf[^|]*\| JSON [^|]*than Protobuf/, row);
  }
});

test('with many situations the opening names fewer alternatives and stays under 1,500 words', async () => {
  const { readRuns } = await import('../read-runs.js');
  const { analyse } = await import('../report.js');
  const { answerFirst, OPENING_WORDS } = await import('../answer-first.js');
  const loaded = readRuns([syntheticRun().path]);
  const { decisions } = analyse(loaded);
  // The thesis plan's 62 situations, as seven copies of these ten.
  const many = Array.from({ length: 7 }, () => decisions).flat();
  const opening = answerFirst(many, loaded.cells, loaded.judging);
  const words = [...opening.paragraphs, opening.general, opening.reading].join(' ').split(/\s+/).length;
  assert.ok(words < OPENING_WORDS.most && OPENING_WORDS.most < 1500, `${words} words`);
  const few = answerFirst(decisions, loaded.cells, loaded.judging);
  const named = (o) => o.situations.reduce((n, s) => n + s.numbers.others.length, 0) / o.situations.length;
  assert.ok(named(opening) < named(few), 'fewer alternatives named per situation');
});

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { temporaryDirectory } from '#common/temporary-directory.js';
import ProgressReporter, { COMPLETED_EARLIER, whereTheTimeWent } from '../progress-reporter.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const REPORTER = fileURLToPath(new URL('../progress-reporter.js', import.meta.url));

const time = (warmup, rounds, decision, verify, round, open) => ({
  warmup_ms: warmup,
  rounds_ms: rounds,
  decision_ms: decision,
  verify_ms: verify,
  total_ms: warmup + rounds + decision + verify,
  round_ms: round,
  open,
});

test("the run's closing lines: where the time went, what stayed open, the longest groups", () => {
  const groups = [
    {
      group_id: 'side/books/10000/10mbit/cm5',
      time: time(500_000, 40_000, 0, 1_000, 540_000, 2),
      resolved: 0,
      comparisons: 2,
    },
    {
      group_id: 'formats/books/10/unthrottled',
      time: time(2_000, 30_000, 10_000, 500, 150, 1),
      resolved: 5,
      comparisons: 6,
    },
    {
      group_id: 'caching/books/10/unthrottled/cm2/json/none',
      time: time(1_000, 3_000, 0, 200, 1_000, 0),
      resolved: 0,
      comparisons: 0,
    },
  ];
  const lines = whereTheTimeWent(groups, 2);
  assert.match(lines[0], /^Where the time went: 9m48s in 3 groups: warm-up 8m23s \(86 %\), rounds 1m13s \(12 %\)/);
  assert.equal(lines[1], '  3 comparisons open, in 2 groups.');
  // 583,500 ms of the two groups with comparisons over their 5 resolved ones; the single-cell group
  // had none to resolve, and its time is left out.
  assert.equal(
    lines[2],
    '  1m57s of group time per settled comparison (5 settled); 1 group settled none: side/books/10000/10mbit/cm5.',
  );
  assert.match(lines[4], /side\/books\/10000\/10mbit\/cm5 {2}9m01s: warm-up 8m20s, rounds 40s, 2 open/);
  assert.equal(lines.length, 6);
  assert.match(
    whereTheTimeWent([{ ...groups[1], resolved: 6 }])[2],
    /^ {2}7\.1s of group time per settled comparison \(6 settled\); every group with comparisons settled at least one\.$/,
  );
  assert.deepStrictEqual(whereTheTimeWent([]), []);
});

test("the closing lines count a group's answers as the report does: settled, not leaning", (t) => {
  const printed = [];
  t.mock.method(console, 'log', (line) => printed.push(line));
  const reporter = new ProgressReporter();
  const group = {
    title: 'formats/books/10/unthrottled',
    annotations: [
      // 2 of 4 have a verdict, 1 of them settled: 3 open (time.open), 1 answer.
      { type: 'time', description: JSON.stringify(time(1_000, 4_000, 0, 0, 100, 3)) },
      { type: 'rounds', description: '20' },
      { type: 'resolved', description: '2/4' },
      { type: 'stop', description: 'time budget' },
    ],
  };
  reporter.onBegin({}, { allTests: () => [group] });
  reporter.onTestEnd(group, { status: 'passed', duration: 6_000 });
  reporter.onEnd({ status: 'passed' });
  assert.ok(
    printed.includes(
      '  5.0s of group time per settled comparison (1 settled); every group with comparisons settled at least one.',
    ),
    printed.join('\n'),
  );
});

test('a group Playwright did not run after a failure is "not run", never "already complete"', () => {
  // A real Playwright run of three tests with the study's reporter: the study's own skip (completed
  // earlier), a failing beforeAll, after which Playwright skips the rest without a reason.
  const directory = temporaryDirectory('rtl-reporter-');
  symlinkSync(join(ROOT, 'node_modules'), join(directory, 'node_modules'));
  writeFileSync(join(directory, 'package.json'), '{"type": "module"}');
  writeFileSync(
    join(directory, 'playwright.config.js'),
    `import { defineConfig } from '@playwright/test';
export default defineConfig({ testDir: '.', workers: 1, reporter: [[${JSON.stringify(REPORTER)}]] });
`,
  );
  writeFileSync(
    join(directory, 'groups.spec.js'),
    `import { test } from '@playwright/test';
test.describe('done earlier', () => {
  test.beforeEach(({ baseURL: _b }, testInfo) => testInfo.skip(true, ${JSON.stringify(COMPLETED_EARLIER)}));
  test('formats/books/10/unthrottled', () => {});
});
test.describe('a failed set-up', () => {
  test.beforeAll(() => { throw new Error('the set-up failed'); });
  test('formats/videos/10/unthrottled', () => {});
  test('side/books/10/unthrottled/cm2', () => {});
});
`,
  );
  const result = spawnSync(join(ROOT, 'node_modules', '.bin', 'playwright'), ['test'], {
    cwd: directory,
    encoding: 'utf8',
    timeout: 120_000,
  });
  const output = `${result.stdout}${result.stderr}`;
  assert.match(output, /\[1\/3\] formats\/books\/10\/unthrottled {2}already complete/, output);
  assert.match(output, /\[2\/3\] formats\/videos\/10\/unthrottled {2}FAILED: .*the set-up failed/, output);
  assert.match(output, /\[3\/3\] side\/books\/10\/unthrottled\/cm2 {2}not run: Playwright skipped it after a failure/);
  assert.equal((output.match(/already complete/g) ?? []).length, 1, output);
  assert.match(output, /^1 of 3 groups done, 1 failed, 1 not run, in /m, output);
});

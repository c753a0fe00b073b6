import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { makeReport } from '../report.js';
import { readRuns } from '../read-runs.js';
import {
  countedWarmupParagraph,
  countedWarmups,
  duration,
  longerRun,
  perAnswer,
  timeSpent,
  whyOpen,
} from '../time-spent.js';
import { syntheticRun } from './synthetic-run.js';

const comparison = (decidedBy, settled = decidedBy !== null, ci = [0.97, 1.08], rounds = 60) => ({
  decided_by: decidedBy,
  settled,
  ci_low: ci[0],
  ci_high: ci[1],
  rounds,
});
const group = (id, time, rounds, reason, comparisons) => ({
  group_id: id,
  time,
  rounds,
  stop: { reason },
  judgment: { delta: 0.05, looks: 3, margin_rule: 2, comparisons },
});
const time = (warmup, rounds, decision, verify, round, open) => ({
  warmup_ms: warmup,
  rounds_ms: rounds,
  decision_ms: decision,
  verify_ms: verify,
  total_ms: warmup + rounds + decision + verify,
  round_ms: round,
  open,
});

test('where the time went: phases summed, comparisons counted by what decided them, and why some stayed open', () => {
  const slow = group('side/books/10000/10mbit/cm5', time(500_000, 40_000, 0, 1_000, 540_000, 2), 1, 'time budget', [
    comparison('few-rounds test'),
    comparison('few-rounds test'),
    comparison(null),
    comparison(null),
  ]);
  const near = group('formats/books/10/unthrottled', time(2_000, 30_000, 10_000, 500, 150, 1), 60, 'time budget', [
    comparison('round bootstrap'),
    comparison(null),
    comparison(null, false, [1.06, 1.12]),
    comparison(null, false, [1.2, 1.4], 3),
  ]);
  const done = group(
    'caching/books/10/unthrottled/cm2/json/none',
    time(1_000, 3_000, 0, 200, 1_000, 0),
    3,
    'resolved',
    [comparison('few-rounds test')],
  );
  const { groups, total } = timeSpent([slow, near, done]);
  assert.deepStrictEqual(
    { ...total },
    {
      ms: 541_000 + 42_500 + 4_200,
      warmup_ms: 503_000,
      rounds_ms: 73_000,
      decision_ms: 10_000,
      verify_ms: 1_700,
      comparisons: 9,
      by_bootstrap: 1,
      by_few_rounds: 3,
      open: 5,
      resolved: 4,
      answered: 4,
      // 587,700 ms of group time over 4 resolved comparisons.
      ms_per_answer: 146_925,
      bought_nothing: [],
    },
  );
  // Per group: its time over what it resolved (2, 1 and 1).
  assert.deepStrictEqual(
    groups.map((g) => [g.resolved, g.ms_per_answer, g.bought_nothing]),
    [
      [2, 270_500, false],
      [1, 42_500, false],
      [1, 4_200, false],
    ],
  );
  assert.match(groups[0].why_open, /a round took 9m00s: the 5 rounds a CI needs did not fit the budget/);
  // Each open comparison by what kept it open.
  assert.equal(
    groups[1].why_open,
    'the budget ran out: 1 with too few rounds together for a CI, 1 clear of the δ lines but not yet for 3 ' +
      'checks in a row, 1 with the CI still across a δ line (a difference close to δ)',
  );
  assert.equal(groups[2].why_open, '');
  assert.equal(
    whyOpen(group('g', null, 200, 'round budget', [comparison(null)])),
    'its rounds ran out: 1 with the CI still across a δ line (a difference close to δ)',
  );
  const slowGroup = (closing) => ({
    stop: { reason: 'time budget', closing_rounds: closing },
    rounds: 1 + closing,
    time: { round_ms: 60_000 },
  });
  assert.match(whyOpen(slowGroup(2)), /\(2 more rounds ran for the comparisons it could still decide\)$/);
  assert.match(whyOpen(slowGroup(0)), /; no further round could decide one within three times the budget$/);
  assert.doesNotMatch(groups[0].why_open, /more round|no further round/, 'a run made before closing rounds');
  assert.deepStrictEqual([duration(999), duration(61_000), duration(3_720_000)], ['1s', '1m01s', '1h02m']);
});

test('a group that settled none of its comparisons bought nothing; one with none to resolve is not counted', () => {
  const stuck = group('side/books/10000/10mbit/cm2', time(200_000, 0, 0, 0, 200_000, 3), 1, 'time budget', [
    comparison(null),
    comparison(null),
  ]);
  const single = group(
    'caching/books/10/unthrottled/cm2/json/none',
    time(1_000, 2_000, 0, 0, 700, 0),
    3,
    'resolved',
    [],
  );
  const untimed = group('formats/books/10/unthrottled', null, 30, 'round budget', [comparison(null)]);
  const { groups, total } = timeSpent([stuck, single, untimed]);
  assert.deepStrictEqual(
    groups.map((g) => [g.resolved, g.ms_per_answer, g.bought_nothing]),
    [
      [0, null, true],
      [0, null, false],
      [0, null, true],
    ],
  );
  assert.deepStrictEqual(total.bought_nothing, ['side/books/10000/10mbit/cm2', 'formats/books/10/unthrottled']);
  assert.equal(total.ms_per_answer, null, 'nothing resolved: no time per answer');
  // A group of one cell has nothing to answer: its time is not charged to the run's answers.
  const answered = group('formats/videos/10/unthrottled', time(1_000, 3_000, 0, 200, 1_000, 0), 9, 'resolved', [
    comparison('round bootstrap'),
    comparison('few-rounds test'),
  ]);
  assert.equal(timeSpent([answered, single]).total.ms_per_answer, 4_200 / 2);
  assert.deepStrictEqual(
    [perAnswer(420), perAnswer(9_949), perAnswer(9_950), perAnswer(75_000)],
    ['0.4s', '9.9s', '10s', '1m15s'],
  );
});

test('the report gives the time per answer of a run that recorded its times, group by group and in all', async () => {
  const run = syntheticRun();
  // Each group given a time: 2 s, 4 s, 6 s… in the order of groups.jsonl.
  const file = join(run.path, 'groups.jsonl');
  const groups = readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line, i) => ({ ...JSON.parse(line), time: time(500, 1_500 + 2_000 * i, 0, 0, 100, 0) }));
  writeFileSync(file, groups.map((g) => `${JSON.stringify(g)}\n`).join(''));
  await makeReport([run.path]);
  const md = readFileSync(join(run.path, 'report.md'), 'utf8');
  // Counted here from the records: the settled comparisons of the groups that have any.
  const settled = (g) => g.judgment.comparisons.filter((c) => c.settled).length;
  const answering = groups.filter((g) => g.judgment.comparisons.length > 0);
  const answered = answering.reduce((n, g) => n + settled(g), 0);
  const ms = answering.reduce((n, g) => n + g.time.total_ms, 0) / answered;
  assert.ok(answered > 0, 'some groups answer');
  const perSettled = `Per settled comparison, ${perAnswer(ms)} of group time: .* over the ${answered} they settled`;
  assert.match(md, new RegExp(perSettled));
  const row = (g) => md.split('\n').find((line) => line.startsWith(`| ${g.group_id} |`));
  for (const g of groups) {
    const cells = row(g).split(' | ');
    const expected = settled(g) ? perAnswer(g.time.total_ms / settled(g)) : '—';
    assert.equal(cells.at(-2), expected, g.group_id);
  }
});

test("the report has the section, and a run made before times were recorded reads as '—'", async () => {
  const run = syntheticRun();
  const { groups } = readRuns([run.path]);
  const { total } = timeSpent(groups);
  assert.equal(total.by_bootstrap + total.by_few_rounds + total.open, total.comparisons);
  await makeReport([run.path]);
  const md = readFileSync(join(run.path, 'report.md'), 'utf8');
  assert.match(md, /## How the groups decided, and where the time went/);
  assert.match(
    md,
    new RegExp(`Of ${total.comparisons} comparisons, ${total.by_bootstrap} (was|were) settled by (its|their) round`),
  );
  assert.match(md, /\| open \| per settled \| why open \|/);
  assert.equal(total.ms_per_answer, null, 'the synthetic run records no times');
  assert.match(
    md,
    total.bought_nothing.length
      ? new RegExp(
          `settled none of (its|their) comparisons, so (its|their) time bought no answer: ${total.bought_nothing[0]}`,
        )
      : /Every group with comparisons settled at least one of them\./,
  );
});

test("a plan's total time: the report says how it was shared and gives each group's share", async () => {
  const run = syntheticRun();
  const file = join(run.path, 'groups.jsonl');
  const groups = readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line, i) => ({
      ...JSON.parse(line),
      time: time(500, 1_500, 0, 0, 100, 0),
      // Every second group was given a share of the total; the others ran before shares (a resumed run).
      ...(i % 2 === 0 && { budget: { rounds_ms: 61_000 + 1_000 * i, from: 'pool' } }),
    }));
  writeFileSync(file, groups.map((g) => `${JSON.stringify(g)}\n`).join(''));
  const contextFile = join(run.path, 'run.json');
  const context = JSON.parse(readFileSync(contextFile, 'utf8'));
  const budget = {
    minutes: 30,
    total_ms: 1_800_000,
    need_ms: 2_400_000,
    cells: { memory: 7, model: 3 },
    groups: [],
    beyond_total: [groups[0].group_id],
  };
  writeFileSync(contextFile, JSON.stringify({ ...context, budget }));
  await makeReport([run.path]);
  const md = readFileSync(join(run.path, 'report.md'), 'utf8');
  assert.match(
    md,
    /The plan's total time was 30m00s\. Before the first group, its groups were expected to need 40m00s/,
  );
  assert.match(md, /7 cells’ times remembered from earlier runs on this machine, 3 modelled/);
  // Said in the report's first line too, where a reader of the answers sees it.
  const first = md.split('\n').find((line) => line.startsWith('Plan '));
  assert.match(first, / \d+ of its \d+ comparisons ended before they were certain\./);
  assert.match(first, /Its 30m00s were less than the 40m00s needed to measure every situation enough/);
  assert.match(
    md,
    /than the plan's own budget per group \(MINUTES=40 and a few more for the server's start and warm-up would give/,
  );
  assert.match(md, new RegExp(`One group alone needed more than the total \\(${groups[0].group_id}\\)`));
  assert.match(md, /\| warm-up \| share for rounds \| rounds \(time\) \|/);
  const row = (g) => md.split('\n').find((line) => line.startsWith(`| ${g.group_id} |`));
  for (const [i, g] of groups.entries()) {
    assert.equal(row(g).split(' | ')[3], i % 2 === 0 ? duration(61_000 + 1_000 * i) : '—', g.group_id);
  }
});

test("warm-up iterations that stood as round 1, against the same cell's later iterations", () => {
  const sample = (round, ms, fromWarmup = false) => ({ round, total_ms: ms, ...(fromWarmup && { from_warmup: true }) });
  const cells = [
    // Within its later iterations' range, at 1.00× their median.
    { samples: [sample(1, 1000, true), sample(2, 900), sample(3, 1000), sample(4, 1100)] },
    // Slower than every later one: 1.5× their median.
    { samples: [sample(1, 1500, true), sample(2, 1000), sample(3, 1000)] },
    // Only one later iteration: not compared.
    { samples: [sample(1, 2000, true), sample(2, 1000)] },
    // No warm-up iteration counted.
    { samples: [sample(1, 10), sample(2, 10)] },
  ];
  const check = countedWarmups(cells);
  assert.deepStrictEqual(
    { ...check, expected_slower: Number(check.expected_slower.toFixed(4)) },
    { n: 3, compared: 2, median_ratio: 1.25, low: 1, high: 1.5, within: 1, slower: 1, expected_slower: 0.5833 },
  );
  assert.match(
    countedWarmupParagraph(check),
    /^3 warm-up iterations took .* 2 of those cells .* 1\.25× the median of the later ones \(from 1\.00× to 1\.50× across cells\)\. 1 lay within .*, 1 above all of them and 0 below; .* about 0\.6 would .*\.$/,
  );
  assert.equal(countedWarmups([cells[3]]), null);
});

test('a longer run: the MINUTES= its groups needed where the total was short, else twice their time', () => {
  const groups = [{ time: { total_ms: 200_000 } }, { time: { total_ms: 220_000 } }, {}];
  assert.equal(
    longerRun({ plan: { name: 'quick' } }, groups),
    "PLAN=quick MINUTES=14 npm run study, twice this run's time",
  );
  const short = { plan: { name: 'thesis' }, budget: { total_ms: 1_800_000, need_ms: 2_893_000 } };
  assert.equal(
    longerRun(short, groups),
    "PLAN=thesis MINUTES=49 npm run study, and a few minutes more for the server's start and warm-up",
  );
  assert.equal(longerRun({}, [{}]), null);
});

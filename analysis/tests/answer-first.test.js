// The report's opening: every number in it is the one its rule gives, recomputed here from the
// run's files (samples.jsonl and the judgments in groups.jsonl) without the report's code, and
// the same in summary.csv and the charts; the verdict words never contradict each other; the
// source's conclusions are confirmed only where measured; the opening stays short.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyse, makeReport, shownFigures } from '../report.js';
import { ms } from '../answer-first.js';
import { VERDICTS } from '#common/comparison.js';
import { chartSpecs } from '../charts.js';
import { readRuns } from '../read-runs.js';
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

/** summary.csv as rows of named fields (no field of it holds a comma but quoted ones). */
function readCsv(path) {
  const [header, ...rows] = readFileSync(path, 'utf8').trim().split('\n');
  const split = (line) => [...line.matchAll(/("([^"]*)"|[^,]*)(,|$)/g)].map((m) => m[2] ?? m[1]).slice(0, -1);
  const names = split(header);
  return rows.map((row) => Object.fromEntries(split(row).map((v, i) => [names[i], v])));
}

/**
 * Every configuration's time in every decided situation, from the run's files alone: the fastest
 * (the stored decision's) at the median of all its samples, any other at that times the ratio of
 * the two medians over the rounds both ran in.
 */
function recomputed(path) {
  const samples = lines(join(path, 'samples.jsonl'));
  const of = (id) => samples.filter((s) => s.case_id === id);
  const times = new Map();
  for (const group of lines(join(path, 'groups.jsonl'))) {
    const decision = group.judgment.decision;
    if (!decision) continue;
    const fastest = decision.fastest;
    const fastestMs = referenceMedian(of(fastest).map((s) => s.total_ms));
    times.set(fastest, { situation: group.group_id, ms: fastestMs, ratio: 1 });
    for (const { case_id: id } of decision.others) {
      const rounds = new Set(of(id).map((s) => s.round));
      const shared = new Set(
        of(fastest)
          .filter((s) => rounds.has(s.round))
          .map((s) => s.round),
      );
      const sharedMedian = (x) =>
        referenceMedian(
          of(x)
            .filter((s) => shared.has(s.round))
            .map((s) => s.total_ms),
        );
      const ratio = sharedMedian(id) / sharedMedian(fastest);
      times.set(id, { situation: group.group_id, ms: fastestMs * ratio, ratio });
    }
  }
  return times;
}

const close = (a, b) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

for (const racing of [false, true]) {
  const name = `one set of numbers: opening, summary.csv and charts agree with the samples${racing ? ' (racing)' : ''}`;
  test(name, async () => {
    const { path } = syntheticRun({ racing });
    await makeReport([path]);
    const report = JSON.parse(readFileSync(join(path, 'report-data.json'), 'utf8'));
    const truth = recomputed(path);
    const csv = new Map(readCsv(join(path, 'summary.csv')).map((r) => [r.case_id, r]));
    let lowerOverall = 0;
    for (const { text, numbers } of report.opening.situations) {
      const fastest = truth.get(numbers.fastest);
      assert.ok(close(numbers.fastest_ms, fastest.ms), text);
      assert.ok(text.includes(ms(numbers.fastest_ms)), `${text} shows ${ms(numbers.fastest_ms)}`);
      // (a) The one called fastest has the lowest time shown in its situation, and summary.csv agrees.
      const situation = [...truth].filter(([, t]) => t.situation === fastest.situation);
      for (const [id, t] of situation) {
        assert.ok(t.ms >= fastest.ms, `${id}: ${t.ms} below the fastest's ${fastest.ms}`);
        assert.ok(Math.abs(Number(csv.get(id).situation_ms) - t.ms) < 1e-4, `summary.csv situation_ms of ${id}`);
        assert.ok(Math.abs(Number(csv.get(id).times_fastest) - t.ratio) < 1e-4, `summary.csv times_fastest of ${id}`);
        if (Number(csv.get(id).median_ms) < Number(csv.get(numbers.fastest).median_ms)) lowerOverall += 1;
        // Every cell in every round: the time shown is the configuration's own median, inside its samples.
        if (!racing) {
          assert.ok(Math.abs(Number(csv.get(id).median_ms) - t.ms) < 1e-4, `${id}: its own median`);
          assert.ok(t.ms >= Number(csv.get(id).min_ms) && t.ms <= Number(csv.get(id).max_ms), id);
        }
      }
      for (const other of numbers.others) {
        const t = truth.get(other.case_id);
        assert.ok(close(other.time_ms, t.ms) && close(other.ratio, t.ratio), text);
        assert.ok(other.extra_ms >= 0, `${text}: "+X ms" is never negative`);
        assert.ok(text.includes(`+${ms(other.extra_ms)}`), `${text} has +${ms(other.extra_ms)}`);
        if (other.word === 'slower') assert.ok(text.includes(`${other.ratio.toFixed(2)}× slower`), text);
      }
    }
    // With racing, some configuration's median over all its samples is below its fastest's: the
    // report still ranks by the one estimate (and this test would catch it if it did not).
    if (racing) assert.ok(lowerOverall > 0, 'the racing run has overall medians that rank otherwise');
    // The charts show the same times.
    const loaded = readRuns([path]);
    const { comparisons, decisions } = analyse(loaded);
    const shown = shownFigures(decisions, loaded.cells, loaded.judging);
    const formats = chartSpecs(loaded.cells, comparisons, {}, loaded.judging, shown).find((c) => c.name === 'formats');
    const rows = formats.spec(900).data.values;
    for (const row of rows) {
      const id = loaded.cells.find((c) => c.cell === row.cell).case_id;
      assert.ok(close(row.median_ms, truth.get(id).ms), `the chart's bar for ${id}`);
    }
  });
}

test('four verdict words that never contradict each other', async () => {
  for (const racing of [false, true]) {
    const { path } = syntheticRun({ racing });
    await makeReport([path]);
    const report = JSON.parse(readFileSync(join(path, 'report-data.json'), 'utf8'));
    for (const [i, { text, numbers }] of report.opening.situations.entries()) {
      const decision = report.decisions[i];
      const words = decision.others.map((o) => (!o.settled ? 'open' : o.verdict));
      // (b) "No clear winner" only beside configurations as fast as the fastest, never with every one slower.
      if (text.includes('no clear winner')) {
        assert.ok(words.includes('equivalent'), `${text}: no clear winner needs one as fast`);
        assert.ok(!words.includes('open'), text);
      }
      if (words.every((w) => w === 'b faster')) assert.match(text, /: fastest\./, text);
      if (words.includes('open')) assert.match(text, /looked fastest/, text);
      // Nothing weaker than settled is worded as certain.
      for (const o of numbers.others) {
        const margin = decision.others.find((x) => x.case_id === o.case_id);
        if (!margin.settled) assert.equal(o.word, "can't tell yet", text);
      }
      assert.doesNotMatch(text, /clearly|†|about as fast|not clearly/, text);
    }
  }
});

test('a source conclusion is confirmed only where every condition it names was measured', async () => {
  const { path } = syntheticRun();
  await makeReport([path]);
  const report = JSON.parse(readFileSync(join(path, 'report-data.json'), 'utf8'));
  for (const c of report.conclusions) {
    // (c) The synthetic run measures CM1, CM3 and CM5, never CM4; no claim is confirmed outright
    // with a part that has no comparison.
    if (c.verdict === 'confirmed')
      assert.ok(
        c.parts.every((p) => p.n > 0),
        `${c.claim}: ${c.verdict}`,
      );
    if (c.parts.some((p) => p.n === 0) && c.parts.some((p) => p.n > 0))
      assert.match(c.verdict, /where measured$/, c.claim);
    for (const what of c.unmeasured)
      assert.ok(c.verdict_words.includes(`not measured here: ${what.replace(/:.*$/, '')}`), c.claim);
  }
  const md = readFileSync(join(path, 'report.md'), 'utf8');
  assert.match(md, /not measured here/, 'the report names what it did not measure');
});

/** The opening as a reader sees it: from the title to the contents, without Markdown's marks. */
function openingWords(md) {
  const opening = md.slice(0, md.indexOf('## Contents'));
  return opening
    .replace(/^[#-]+ /gm, '')
    .replace(/\*\*/g, '')
    .split(/\s+/)
    .filter(Boolean).length;
}

test('the opening is short: under 600 words for a quick plan, 1,500 for the thesis plan', async () => {
  const { path } = syntheticRun();
  await makeReport([path]);
  const md = readFileSync(join(path, 'report.md'), 'utf8');
  assert.ok(md.indexOf('## What to choose') < md.indexOf('## This run'), 'the answer first, the method after');
  // (d) This run has 10 situations (a quick plan has 12).
  assert.ok(openingWords(md) < 600, `${openingWords(md)} words`);
  // The thesis plan's 62 situations, as copies of these ten.
  const { answerFirst } = await import('../answer-first.js');
  const loaded = readRuns([path]);
  const { decisions } = analyse(loaded);
  const many = Array.from({ length: 7 }, () => decisions)
    .flat()
    .slice(0, 62);
  const few = answerFirst(decisions, loaded.cells, loaded.judging);
  const opening = answerFirst(many, loaded.cells, loaded.judging);
  const text = [
    ...opening.answer,
    ...opening.in_short_grids.flatMap((g) => [g.lead, ...g.table.header, ...g.table.rows.flat()]),
    ...opening.bottom_line.flatMap((l) => [l, ...(l.sub ?? [])]).map((l) => `${l.lead}: ${l.text}`),
    ...opening.words,
    ...opening.sure,
  ];
  const words = text.join(' ').split(/\s+/).length;
  assert.ok(words < 1460, `${words} words`);
  // The situations follow the contents, in a section of their own, each naming its others.
  assert.ok(md.indexOf('## Situation by situation') > md.indexOf('## Contents'));
  assert.ok(few.situations.every((s) => s.numbers.others.length > 0));
  // Nothing of the method above the method section.
  const above = md.slice(0, md.indexOf('## Method'));
  assert.doesNotMatch(above, /\bδ|bootstrap|settled|\blooks\b|\brounds?\b(?! trip)|\bRTT\b|†/i);
});

test('the bottom line names the robust choice, what compression and sorting do, and what was left out', async () => {
  const { path } = syntheticRun();
  await makeReport([path]);
  const report = JSON.parse(readFileSync(join(path, 'report-data.json'), 'utf8'));
  // The answers in short, first: one per network, where to sort, one choice for both.
  assert.deepStrictEqual(report.opening.in_short, [
    'Unthrottled: Protobuf uncompressed.',
    'At 10 Mbit/s: Protobuf with GZIP.',
    // The grid's rule, CM by CM: CM2 and CM4 not measured, so no range runs over them; CM1 as
    // fast at 10 Mbit/s and certainly faster unthrottled is the server's (the grid gives counts).
    // The CMs by name: the words define them all.
    'Where to sort (uncompressed, nothing cached): CM1, CM3 and CM5: the server.',
    // What to do with data already in the page, a grid of its own.
    'Data already in the page (decoded and kept; JSON uncompressed, Books; both networks), sorted again: CM1: ' +
      're-sort the cached copy; CM3 and CM5: ask the server again.',
    'Both networks, one pick: Protobuf with GZIP.',
  ]);
  // First, in short: each network (defined as it is named) with its pick, the most time that lost
  // (here none: the fastest everywhere), the next best and what compression did there; one pick
  // for both; where to sort and what to do with data in the page in plain words, by how much is
  // sorted; and how a run settles what is not yet certain.
  assert.deepStrictEqual(report.opening.short, [
    'Unthrottled (browser and server on one machine): Protobuf uncompressed — the fastest in both situations ' +
      'without sorting. At stake: the slowest was behind by +0.27 ms at 10 objects and +24.4 ms at 1,000. Next ' +
      'best: Protobuf with GZIP, +2.45 ms behind at worst (1,000 Books); against Protobuf uncompressed: certainly ' +
      'slower in 1, as fast in 1 of 2. GZIP cost time here (certainly slower in 3 of 6 comparisons, as fast in 3, ' +
      'faster in none).',
    "At 10 Mbit/s (each way, no added delay, Chromium's throttling): Protobuf with GZIP — the fastest in both " +
      'situations without sorting. At stake: the slowest was behind by +1.83 ms at 10 objects and +171 ms at ' +
      '1,000. Next best: JSON with GZIP, +24.4 ms behind at worst (1,000 Books); against Protobuf with GZIP: ' +
      "certainly slower in 1, can't tell yet in 1 of 2. GZIP saved time here (certainly faster in 5 of 6 " +
      'comparisons, slower in none).',
    'Both networks, one pick: Protobuf with GZIP — measured at most +2.45 ms behind the fastest in all 4 ' +
      'situations (at worst 1,000 Books unthrottled, 1.25×); allowing for noise, up to +2.52 ms.',
    'Where to sort (uncompressed, nothing cached): the server for one sort, 10 and 1,000 sorts per property.',
    'Data already in the page, sorted again (JSON uncompressed, Books; both networks): re-sort the cached copy ' +
      'for one sort; ask the server again for 10 and 1,000 sorts per property.',
    'Not yet certain: a longer run settles more.',
  ]);

  // No second list in numbers: the answers in short carry them.
  assert.deepStrictEqual(report.opening.answer, []);
  // Each network's pick in short is the bottom line's.
  for (const short of report.opening.in_short.filter((line) => !/^(Where|Data)/.test(line))) {
    const [topic, pick] = short.slice(0, -1).split(': ');
    assert.ok(
      report.opening.short.some((line) => line.startsWith(topic) && line.includes(`: ${pick} — `)),
      short,
    );
  }
  const { plain: pick } = report.opening.robust;
  assert.ok(report.opening.short.some((line) => line.startsWith(`Both networks, one pick: ${pick.configuration} — `)));
  // Where to sort: each CM's answer at each N with how many of its comparisons (one per network
  // here) say so, as the line above in words; data in the page: how the cached copy did.
  const [sortingGrid] = report.opening.in_short_grids;
  // Its lead: the rule the grid says, CM by CM, as the answer in short says it.
  assert.equal(sortingGrid.lead, 'Where to sort, by CM and N (counts: a comparison per network):');
  assert.deepStrictEqual(sortingGrid.table, {
    header: ['Sorting', '100 Books'],
    rows: [
      ['CM1 (one sort)', 'the server (1 of 2 certain, as fast in 1)'],
      ['CM3 (10 sorts per property)', 'the server (2 of 2 certain)'],
      ['CM5 (1,000 sorts per property)', 'the server (2 of 2 certain)'],
    ],
  });
  // In numbers, what the table and the gist did not say: here, what was not measured (the
  // networks' rows and where to sort say all in the table, the grid and the gist).
  assert.deepStrictEqual(
    report.opening.bottom_line.map((l) => l.lead),
    ['Not measured here'],
  );
  assert.ok(report.opening.bottom_line.length <= 5);
  // The robust choice: measured everywhere, and no other lost more time in its worst situation.
  const { plain } = report.opening.robust;
  const situations = report.opening.situation_ratios.filter((s) => !s.sorting);
  const worst = (c) => Math.max(...situations.map((s) => s.extra[c]));
  assert.ok(Math.abs(worst(plain.configuration) - plain.most_lost_ms) < 1e-12);
  for (const c of Object.keys(situations[0].ratios)) assert.ok(worst(c) >= plain.most_lost_ms, c);
  // The answer's scope in its topic (uncompressed, nothing cached), the rest of it in its text;
  // the opening, short of room, leaves out the asides (the sorting groups' scope and best format),
  // which the fullest bottom line says.
  const { bottomLine, BRIEF } = await import('../answer-first.js');
  const loaded = readRuns([path]);
  const { decisions, comparisons: all } = analyse(loaded);
  const byId = new Map(loaded.cells.map((c) => [c.case_id, c]));
  const full = bottomLine(decisions, byId, loaded.judging, all, { brief: BRIEF[0] }).lines;
  assert.equal(
    full.find((l) => l.lead.startsWith('Where to sort')).text,
    'Measured for Books, N = 100, unthrottled and at 10 Mbit/s. ' +
      'The best format on both sides (as sorted: uncompressed): JSON uncompressed.',
  );
  // What to do with data already in the page, a grid of its own in the fullest bottom line: by
  // design the cached copy re-sorted (in one answer's time) wins where sorting is cheap, and
  // asking again (the server sorts three times faster) from CM3; what the caching pairs measured
  // is in the grid's lead, not said again in numbers.
  const cachingGrid = full
    .flatMap((l) => [l, ...(l.sub ?? [])])
    .find((l) => l.grid && !l.lead.startsWith('Where'))?.grid;
  assert.deepStrictEqual(cachingGrid.table.rows, [
    ['CM1 (one sort)', 're-sort the cached copy (2 of 2 certain)'],
    ['CM3 (10 sorts per property)', 'ask the server again (2 of 2 certain)'],
    ['CM5 (1,000 sorts per property)', 'ask the server again (2 of 2 certain)'],
  ]);
  assert.equal(
    cachingGrid.lead,
    'Decoded data kept in the page, sorted again (JSON uncompressed, Books; both networks), by CM and N. ' +
      'Counts: a comparison per network:',
  );
  assert.ok(report.opening.bottom_line.every((l) => !l.sub));
  const brief = bottomLine(decisions, byId, loaded.judging, all, { brief: BRIEF.at(-1) }).lines;
  assert.ok(
    brief.every((l) => !l.sub),
    'no caching line in the briefest bottom line',
  );
  // Without that line, what the sorting groups left out is still told apart from the caching
  // pairs, which were measured: "sorting (nothing cached) …".
  const briefMissing = brief.find((l) => l.lead === 'Not measured here').text;
  assert.match(briefMissing, /sorting \(nothing cached\) /);
  const missing = full.find((l) => l.lead === 'Not measured here').text;
  for (const left of ['CBOR', 'MessagePack', 'Brotli', 'CM2', 'CM4', 'HTTP/2']) assert.ok(missing.includes(left), left);
  // The CMs it names by name alone, the words defining every one.
  assert.ok(missing.includes('or for CM2, CM4;'), missing);
  assert.ok(briefMissing.includes('or for CM2, CM4;'), briefMissing);
  assert.ok(
    report.opening.words.some((w) =>
      w.includes('sorting (CM1: one sort by one property; CM2–CM5: each property sorted 1, 10, 100, 1,000 times)'),
    ),
  );
});

test("compression's gist says what most of its comparisons say, and never more", async () => {
  const { compressionLine } = await import('../answer-first.js');
  const cell = (compression, count, format = 'json') => ({
    object: 'books',
    format,
    decoder: format,
    compression,
    level: compression === 'gzip' ? 6 : null,
    count,
    scenario: 1,
    cm: 0,
    network: 'unthrottled',
    protocol: 'http1.1',
  });
  // Uncompressed (a) against GZIP (b): b faster is GZIP paying.
  const pairs = (...verdicts) =>
    verdicts.map(([verdict, settled], i) => ({
      dimension: 'compression',
      a: cell('none', 10 ** (i + 1)),
      b: cell('gzip', 10 ** (i + 1)),
      verdict,
      settled,
    }));
  const [faster, slower, same, open] = [
    [VERDICTS.B_FASTER, true],
    [VERDICTS.A_FASTER, true],
    [VERDICTS.EQUIVALENT, true],
    [VERDICTS.UNRESOLVED, false],
  ];
  const line = (...verdicts) => compressionLine(pairs(...verdicts));
  // "It pays" says what it never was, too: certainly slower in none.
  assert.match(
    line(faster, faster),
    /unthrottled it pays \(certainly faster in 2 of 2 comparisons and certainly slower in none\)/,
  );
  // Some still open: said only "where told", never as if it held everywhere.
  assert.match(
    line(faster, faster, open),
    /unthrottled it pays \(certainly faster in 2 of 3 comparisons, certainly slower in none and can.t tell yet in 1\)/,
  );
  assert.match(
    line(slower, open),
    /unthrottled it costs \(certainly slower in 1 of 2 comparisons, certainly faster in none and can.t tell yet in 1\)/,
  );
  assert.match(line(slower, slower), /unthrottled it costs \(/);
  assert.match(
    line(same, same, open),
    /unthrottled no difference \(as fast in 2 of 3 comparisons and can.t tell yet in 1\)/,
  );
  assert.match(line(faster, slower), /unthrottled it depends on format and N/);
  assert.match(line(open, open), /unthrottled can't tell yet$/);
});

test('the words say how a time was taken and how the networks were made, as the run did it', async () => {
  const { glossary } = await import('../answer-first.js');
  const cells = ['unthrottled', '10mbit'].map((network) => ({ cell: { network } }));
  const [networks, , time] = glossary(cells, { delta: 0.05 }, { shaping: 'cdp', roundsRule: 2 });
  assert.match(networks, /^unthrottled: browser and server on one machine; 10 Mbit\/s: each way, no added delay/);
  assert.match(networks, /, Chromium's throttling$/);
  assert.match(glossary(cells, { delta: 0.05 }, { shaping: 'netns' })[0], /, the Linux kernel$/);
  // Every cell in every round: a time is the configuration's own median.
  assert.match(time, /; its median; compare within a situation only \(each measured at its own time\)$/);
  // Runs whose groups raced: the fastest's median scaled by each ratio, and said so.
  assert.match(
    glossary(cells, { delta: 0.05 }, { roundsRule: 1 })[2],
    /that × its ratio to it measured side by side; compare within a situation only \(each measured at its own time\)$/,
  );
});

test("a source conclusion's measured range holds only pairs certainly apart; as fast ones are counted", async () => {
  const { path } = syntheticRun();
  await makeReport([path]);
  const md = readFileSync(join(path, 'report.md'), 'utf8');
  const table = md.slice(md.indexOf("## The source study's conclusions"), md.indexOf('## A related study'));
  const ratios = [...table.matchAll(/(\d+\.\d+)×(?:–(\d+\.\d+)×)? (?:slower|faster) than/g)].flatMap((m) =>
    [m[1], m[2]].filter(Boolean).map(Number),
  );
  assert.ok(ratios.length > 0);
  // Certainly apart at δ = 5 %: every end of a range beyond it.
  for (const ratio of ratios) assert.ok(ratio > 1.05, `${ratio} in a range of pairs certainly apart`);
  assert.match(table, /as fast in \d+/);
});

test('data already in the browser: where the answer differs by network, which way on which network', async () => {
  const { CACHED } = await import('../answer-first.js');
  const nets = (cached, again) => ({ nets: { certain: new Set(cached), other: new Set(again) } });
  // CM3: the cached copy re-sorted wins at 10 Mbit/s, asking again wins unthrottled.
  assert.equal(
    CACHED.depends(nets(['10mbit'], ['unthrottled'])),
    're-sort the cached copy at 10 Mbit/s but ask the server again unthrottled',
  );
  // Each way on the same network (by N there): no side is named for a network.
  assert.equal(CACHED.depends(nets(['10mbit'], ['10mbit'])), 'it depends on the network');
});

test("a grid's rule says it CM by CM, never surer than a cell, and names the N of a CM measured at fewer", async () => {
  const { gridOf, SORT_GRID } = await import('../answer-first.js');
  const cell = (certain, other, tie, open, leans = {}, once = 0) => ({ certain, other, tie, open, leans, once });
  const grid = (rows) =>
    gridOf(new Map(rows.map(([cm, byN]) => [cm, { byN: new Map(byN) }])), 'server', SORT_GRID, {
      corner: 'Sorting',
    });
  // Each CM's answers with the N they hold at, a side first; CMs with the same words together.
  assert.equal(
    grid([
      [
        1,
        [
          [10, cell(0, 0, 3, 0)],
          [1000, cell(2, 0, 0, 1, { certain: 1 })],
        ],
      ],
      [
        2,
        [
          [10, cell(0, 0, 3, 0)],
          [1000, cell(3, 0, 0, 0)],
        ],
      ],
      [
        3,
        [
          [10, cell(1, 0, 1, 1, { tie: 1 })],
          [1000, cell(1, 1, 0, 1, { tie: 1 })],
        ],
      ],
      [5, [[10, cell(0, 0, 0, 3, { certain: 2, tie: 1 }, 3)]]],
    ]).rule,
    'CM1–CM2: the server at N = 1,000, either side at N = 10; ' +
      "CM3: the server at N = 10, it depends on format at N = 1,000; CM5: can't tell yet at N = 10",
  );
  // A cell not yet certain is said so, in the rule as in the grid, a certain answer first; a CM
  // not measured at an N says nothing there, and names the N it was measured at.
  const { rule, table } = grid([
    [
      2,
      [
        [10, cell(0, 0, 0, 3, { tie: 3 })],
        [100, cell(0, 0, 0, 3, { tie: 3 })],
      ],
    ],
    [
      4,
      [
        [10, cell(3, 0, 0, 0)],
        [100, cell(0, 0, 0, 3, { certain: 3 })],
      ],
    ],
    [5, [[10, cell(0, 0, 0, 3, { certain: 3 })]]],
  ]);
  assert.equal(
    rule,
    'CM2: either side (not yet certain); ' +
      'CM4: the server at N = 10, the server (not yet certain) at N = 100; ' +
      'CM5: the server (not yet certain) at N = 10',
  );
  assert.deepStrictEqual(table.rows.at(-1), [
    'CM5 (1,000 sorts per property)',
    'the server, not yet certain (3 of 3 looked faster)',
    'not measured',
  ]);
  // One of three certain, the others leaning alike: an answer, not yet certain, in cell and rule.
  const few = grid([
    [
      1,
      [
        [10, cell(1, 0, 0, 2, { certain: 2 })],
        [100, cell(0, 0, 1, 2, { tie: 2 })],
      ],
    ],
    [3, [[10, cell(2, 0, 0, 1, { certain: 1 })]]],
  ]);
  assert.deepStrictEqual(few.table.rows[0].slice(1), [
    'the server, not yet certain (1 of 3 certain; looked: the server faster in 2)',
    'either side, not yet certain (1 of 3 as fast; looked: as fast in 2)',
  ]);
  assert.equal(
    few.rule,
    'CM1: the server (not yet certain) at N = 10, either side (not yet certain) at N = 100; ' +
      'CM3: the server at N = 10',
  );
});

test('a grid cell answers only where no comparison goes against it, and says how the open ones leaned', async () => {
  const { gridOf, SORT_GRID } = await import('../answer-first.js');
  const cell = (certain, other, tie, open, leans = {}, once = 0) => ({ certain, other, tie, open, leans, once });
  const byCm = new Map([
    [
      1,
      {
        byN: new Map([
          [10, cell(0, 0, 3, 0)],
          [1000, cell(2, 0, 0, 1, { certain: 1 })],
        ]),
      },
    ],
    [
      3,
      {
        byN: new Map([
          [10, cell(1, 0, 1, 1, { tie: 1 })],
          [1000, cell(1, 1, 0, 1, { tie: 1 })],
        ]),
      },
    ],
    [
      5,
      {
        byN: new Map([
          [10, cell(0, 0, 0, 3, { certain: 2, tie: 1 }, 3)],
          [1000, cell(1, 0, 0, 1, { other: 1 })],
        ]),
      },
    ],
  ]);
  const grid = gridOf(byCm, 'server', SORT_GRID, { lead: 'Where to sort:', corner: 'Sorting' });
  assert.deepStrictEqual(grid.table, {
    header: ['Sorting', 'N = 10', 'N = 1,000'],
    rows: [
      ['CM1 (one sort)', 'either side (3 of 3 as fast)', 'the server (2 of 3 certain; looked: the server faster in 1)'],
      [
        'CM3 (10 sorts per property)',
        // Certainly faster in one, as fast in another, the third leaning as fast: never slower.
        'the server (1 of 3 certain, as fast in 1; looked: as fast in 1)',
        'it depends on format (the server certainly faster in 1, the browser certainly faster in 1, of 3; ' +
          'looked: as fast in 1)',
      ],
      [
        'CM5 (1,000 sorts per property)',
        // None certain, each leaning on one measurement: no answer, but which way they leaned.
        "can't tell yet (looked: the server faster in 2, as fast in 1, of 3, each from one measurement)",
        // One certain, the other leaning against it: no answer.
        "can't tell yet (the server certainly faster in 1 of 2; looked: the browser faster in 1)",
      ],
    ],
  });
  // None certain, all leaning the server's way from more than one measurement: the server, not yet certain.
  const leaning = gridOf(
    new Map([[4, { byN: new Map([[100, cell(0, 0, 0, 3, { certain: 2, tie: 1 })]]) }]]),
    'server',
    SORT_GRID,
    { lead: '', corner: 'Sorting' },
  );
  assert.deepStrictEqual(leaning.table.rows, [
    ['CM4 (100 sorts per property)', 'the server, not yet certain (2 of 3 looked faster, 1 as fast)'],
  ]);
  // One leaning the server's way beside two leaning as fast: no side yet.
  const outnumbered = gridOf(
    new Map([[3, { byN: new Map([[100, cell(0, 0, 0, 3, { certain: 1, tie: 2 })]]) }]]),
    'server',
    SORT_GRID,
    { lead: '', corner: 'Sorting' },
  );
  assert.deepStrictEqual(outnumbered.table.rows, [
    ['CM3 (10 sorts per property)', 'either side, not yet certain (2 of 3 looked as fast, 1 the server faster)'],
  ]);
  // The browser the better side: its wins are "certain", the server's "other".
  const browser = gridOf(new Map([[2, { byN: new Map([[100, cell(0, 2, 0, 0)]]) }]]), 'browser', SORT_GRID, {
    lead: '',
    corner: 'Sorting',
  });
  assert.deepStrictEqual(browser.table.rows, [['CM2 (1 sort per property)', 'the server (2 of 2 certain)']]);
});

test('compression pays or costs only where half its comparisons are certain, as a claim holds so far', async () => {
  const { compressionVerdicts } = await import('../answer-first.js');
  // Uncompressed (a) against GZIP (b) on one network: `slower` comparisons where GZIP was certainly
  // slower, the rest open.
  const pairs = (net, slower, open) =>
    Array.from({ length: slower + open }, (_, i) => ({
      dimension: 'compression',
      a: { scenario: 1, cm: 0, compression: 'none', network: net, count: 10 * (i + 1) },
      b: { scenario: 1, cm: 0, compression: 'gzip', network: net, count: 10 * (i + 1) },
      settled: i < slower,
      verdict: i < slower ? VERDICTS.A_FASTER : VERDICTS.B_FASTER,
    }));
  const [gzip] = compressionVerdicts([...pairs('unthrottled', 5, 7), ...pairs('10mbit', 6, 6)]);
  const gist = Object.fromEntries(gzip.perNetwork.map((p) => [p.net, p.gist]));
  assert.deepStrictEqual(gist, { unthrottled: 'looked to cost', '10mbit': 'costs' });
});

test("the link speed where compression pays, where the two networks' picks differ by it alone", async () => {
  const { linkSpeedLine } = await import('../answer-first.js');
  const pick = (configuration) => ({ choice: { configuration } });
  const row = (mbps, outcome = 'holds') => ({
    format: 'json',
    compression: 'gzip',
    level: 6,
    break_even_mbps: mbps,
    checks: [{ outcome }],
  });
  const picks = [pick('JSON uncompressed'), pick('JSON with GZIP')];
  assert.equal(
    linkSpeedLine(picks, [row(31.3), row(236)]),
    'Between these speeds: GZIP pays for JSON below about 31.3–236 Mbit/s, by data and N.',
  );
  // Not where a row pays at every speed, or a measured link contradicted it, or the picks differ otherwise.
  assert.equal(linkSpeedLine(picks, [row(31.3), row(Infinity)]), null);
  assert.equal(linkSpeedLine(picks, [row(31.3), row(236, 'contradicted')]), null);
  assert.equal(linkSpeedLine([pick('Protobuf uncompressed'), pick('JSON with GZIP')], [row(31.3)]), null);
});

test('a pick and its next best the run could not tell apart are the answer together', async () => {
  const { pickWords } = await import('../answer-first.js');
  const choice = {
    configuration: 'JSON with GZIP',
    situations: 4,
    worst_ratio: 1.046,
    most_lost_ms: 1.98,
    most_lost_ratio: 1.046,
    most_lost_situation: '1,000 Videos',
    bound_ms: 2.56,
    bound_situation: '1,000 Videos',
  };
  const where = (w) => w;
  assert.equal(
    pickWords(choice, where, 'situations'),
    'JSON with GZIP — measured at most +1.98 ms behind the fastest in all 4 situations (at worst 1,000 Videos, ' +
      '1.046×); allowing for noise, up to +2.56 ms',
  );
  assert.equal(
    pickWords(choice, where, 'situations', 'Protobuf with GZIP'),
    'JSON with GZIP or Protobuf with GZIP (not yet told apart) — JSON with GZIP: measured at most +1.98 ms ' +
      'behind the fastest in all 4 situations (at worst 1,000 Videos, 1.046×); allowing for noise, up to +2.56 ms',
  );
  // As the report shows it: the verdict as the item, its numbers under it, a sentence each.
  const { topicItem } = await import('#common/answer-words.js');
  assert.deepStrictEqual(topicItem(`At 10 Mbit/s (each way): ${pickWords(choice, where, 'situations')}. Next: B.`), {
    lead: 'At 10 Mbit/s (each way)',
    text: 'JSON with GZIP',
    sub: [
      'Measured at most +1.98 ms behind the fastest in all 4 situations (at worst 1,000 Videos, 1.046×); ' +
        'allowing for noise, up to +2.56 ms.',
      'Next: B.',
    ],
  });
});

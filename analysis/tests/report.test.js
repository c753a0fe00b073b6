// The report of a synthetic run whose answers are known by construction.
import assert from 'node:assert/strict';
import { CELL_COLUMNS } from '#common/cell.js';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { median } from '#common/stats.js';
import { analyse, describeNetworks, fewRoundsWords, makeReport } from '../report.js';
import { judgeClaim, poolClaim, sourceConclusions } from '../answers.js';
import { readRuns } from '../read-runs.js';
import { syntheticRun } from './synthetic-run.js';

test('the report says what the data says', async () => {
  const { path, cells } = syntheticRun();
  const made = await makeReport([path]);
  assert.equal(made.cells, cells.length);
  for (const file of [
    'report.html',
    'report.md',
    'summary.csv',
    'charts/formats.svg',
    'charts/sides.svg',
    'charts/caching.svg',
    'charts/ratios.svg',
  ]) {
    assert.ok(existsSync(join(path, file)), file);
  }
  const html = readFileSync(join(path, 'report.html'), 'utf8');
  assert.ok(html.includes('<svg') && !/<script|<link|src="http/.test(html), 'self-contained, charts inline');

  const md = readFileSync(join(path, 'report.md'), 'utf8');
  // 10 Mbit/s, N=1000: XML 5 + 1000·20/100 = 205 ms against Protobuf 5 + 1000·5/100 = 55 ms.
  assert.match(
    md,
    /Books at 10 Mbit\/s, uncompressed, fastest first — N=10: Protobuf [\d.]+ ms.*; N=1,000: Protobuf 5\d\.\d ms, JSON 1\d\d ms, XML 20\d ms\./,
  );
  // GZIP halves the transfer at 10 Mbit/s: 6 → 5.5 ms at N=10, 105 → 55 ms at N=1000.
  assert.match(
    md,
    /Books at 10 Mbit\/s, JSON, GZIP against uncompressed — N=10: GZIP is 1\.0\d× faster than uncompressed \(95 % CI [^)]*\); N=1,000: GZIP is 1\.9\d× faster/,
  );
  assert.match(
    md,
    /Books unthrottled, JSON, GZIP against uncompressed — .*N=1,000: GZIP is 1\.\d\d× slower than uncompressed \(95 % CI 1\.\d\d–1\.\d\d\)/,
  );
  assert.match(md, /N=100 CM5: the browser sorting is [\d.]+× slower than the server sorting/);
  // Caching, N=100: at CM1 two server requests (12.4 ms) lose to one request and two client
  // sorts (7.2 ms); at CM3 the client's 3× slower sorts (126 ms) lose to two requests (52 ms).
  assert.match(
    md,
    /Books unthrottled, JSON, N=100, data already cached \(re-sorting it in the browser against asking the server again\): re-sorting the cached copy faster at CM1, asking the server again faster at CM3, CM5 — threshold: asking the server again from CM3 up to CM5, the most measured\./,
  );

  assert.match(
    md,
    /Where our measurements contradict the source:[\s\S]*- The source says: "Unthrottled: JSON beats Protobuf/,
  );
  const { conclusions } = analyse(readRuns([path]));
  const verdict = (start) => conclusions.find((c) => c.claim.startsWith(start)).verdict;
  // Confirmed where measured: the claim names 10,000 Videos, which this run did not measure.
  assert.equal(verdict('Bandwidth-limited, no GZIP'), 'confirmed where measured');
  // By design Protobuf is faster than JSON at N=1000 (10 against 15 ms) and as fast at N=10: both
  // contradict "JSON beats Protobuf"; XML is slowest in 12 of its 16 comparisons and as fast in
  // the 4 at N=10 unthrottled (within δ), which contradict "XML slower": partly, and only where
  // measured (the claim names 10,000 Books).
  const unthrottled = conclusions.find((c) => c.claim.startsWith('Unthrottled: JSON beats Protobuf'));
  assert.deepStrictEqual(
    [unthrottled.holds, unthrottled.contradicted, unthrottled.open, unthrottled.verdict],
    [12, 6, 0, 'partly where measured'],
  );
  // GZIP is certainly as fast as none unthrottled at N=10 (within δ): that contradicts "costs time".
  assert.equal(verdict('GZIP helps when bandwidth'), 'partly');
  assert.equal(verdict('Server computation is never slower'), 'confirmed');
  // By design the cached client already loses at CM3 (N=100), against the source's "about twice
  // as fast", but wins at CM1 and loses at CM5 as the source says: holds in 4, contradicted in 2.
  const caching = conclusions.find((c) => c.claim.startsWith('Caching: for few objects'));
  assert.deepStrictEqual([caching.holds, caching.contradicted, caching.open, caching.verdict], [4, 2, 0, 'partly']);
  // Every claim is a record a reader can check: its parts, their comparisons and what holds means.
  for (const claim of conclusions) {
    assert.equal(
      claim.n,
      claim.parts.reduce((n, p) => n + p.comparisons.length, 0),
    );
    for (const part of claim.parts) assert.ok(part.what && part.holds_when.length > 0);
  }
});

test('the rule that turns counts into a verdict', () => {
  assert.equal(judgeClaim({ holds: 0, contradicted: 0, open: 0 }), 'not measured here');
  assert.equal(judgeClaim({ holds: 2, contradicted: 0, open: 0 }, 1), 'confirmed where measured', 'a part unmeasured');
  assert.equal(judgeClaim({ holds: 2, contradicted: 0, open: 0 }), 'confirmed');
  assert.equal(judgeClaim({ holds: 2, contradicted: 0, open: 2 }), 'holds so far', 'half of it still open');
  assert.equal(judgeClaim({ holds: 1, contradicted: 0, open: 2 }), "can't tell yet", 'mostly open');
  assert.equal(judgeClaim({ holds: 5, contradicted: 1, open: 0 }), 'partly');
  assert.equal(judgeClaim({ holds: 1, contradicted: 2, open: 0 }), 'refuted');
  assert.equal(judgeClaim({ holds: 0, contradicted: 0, open: 3 }), "can't tell yet", 'measured, but nothing settled');
  assert.equal(poolClaim(['confirmed', 'confirmed']), 'confirmed');
  assert.equal(poolClaim(['confirmed', 'holds so far']), 'holds so far');
  assert.equal(poolClaim(['holds so far', "can't tell yet"]), "can't tell yet");
  assert.equal(poolClaim(['confirmed', "can't tell yet"]), "can't tell yet", 'one condition mostly open');
  assert.equal(poolClaim(["can't tell yet", "can't tell yet"]), "can't tell yet");
  assert.equal(poolClaim(['confirmed', 'refuted']), 'partly');
  assert.equal(poolClaim(['refuted', 'refuted']), 'refuted');
});

test('a claim counts each comparison only where it is certain: its settled verdict', () => {
  const cell = (format, count) => ({
    object: 'books',
    count,
    format,
    compression: 'gzip',
    scenario: 1,
    cm: 0,
    network: '10mbit',
  });
  const comparison = (count, verdict, settled = true) => ({
    dimension: 'format',
    a: cell('json', count),
    b: cell('protobuf', count),
    a_id: `json ${count}`,
    b_id: `protobuf ${count}`,
    ratio: { 'a faster': 0.9, equivalent: 1, 'b faster': 1.1, unresolved: 1.04 }[verdict],
    ci_low: NaN,
    ci_high: NaN,
    rounds: 10,
    verdict,
    settled,
  });
  const claimOf = (all) =>
    sourceConclusions([], all).find((c) => c.claim.startsWith('With GZIP the size advantage vanishes'));
  // "JSON as fast or faster": JSON certainly faster or certainly as fast holds; certainly slower
  // contradicts; anything not yet certain stays open, whatever its last CI.
  const claim = claimOf([
    comparison(10, 'a faster'),
    comparison(100, 'equivalent'),
    comparison(1000, 'unresolved', false),
    comparison(10000, 'b faster'),
    comparison(100000, 'b faster', false),
  ]);
  assert.deepStrictEqual(
    claim.parts[0].comparisons.map((c) => c.counts_as),
    ['holds', 'holds', 'open', 'contradicted', 'open'],
  );
  assert.deepStrictEqual([claim.holds, claim.contradicted, claim.open, claim.verdict], [2, 1, 2, 'partly']);
  assert.equal(claimOf([comparison(10, 'a faster'), comparison(100, 'equivalent')]).verdict, 'confirmed');
  assert.equal(claimOf([]).verdict, 'not measured here');

  // "The server faster" (from CM4): only the server certainly faster holds; the client certainly
  // faster or certainly as fast contradicts.
  const side = (cm, verdict) => ({
    dimension: 'side',
    a: { ...cell('json', 10), scenario: 3, cm },
    b: { ...cell('json', 10), scenario: 2, cm },
    a_id: `client ${cm}`,
    b_id: `server ${cm}`,
    ratio: 1,
    ci_low: NaN,
    ci_high: NaN,
    rounds: 10,
    verdict,
    settled: true,
  });
  const server = sourceConclusions([], [side(4, 'equivalent'), side(5, 'b faster'), side(6, 'a faster')]).find((c) =>
    c.claim.startsWith('Server computation is never slower'),
  );
  assert.deepStrictEqual(
    server.parts[1].comparisons.map((c) => c.counts_as),
    ['contradicted', 'holds', 'contradicted'],
    'certainly as fast contradicts "the server faster"',
  );
  // CM1–CM3 were not measured: the verdict is of CM4 on only, and says so.
  assert.match(server.verdict, /where measured$/);
  assert.deepStrictEqual(server.unmeasured, [server.parts[0].what]);
});

test('the report opens with the decision: a recommendation with its margin, or no clear winner', async () => {
  const { path } = syntheticRun();
  await makeReport([path]);
  const md = readFileSync(join(path, 'report.md'), 'utf8');
  assert.ok(
    md.indexOf('\n## Every configuration, in numbers') < md.indexOf('\n## How does the interchange'),
    'answers first',
  );
  const { decisions: helper } = analyse(readRuns([path]));
  const at = (network, count, cm) =>
    helper.find((d) => d.object === 'books' && d.network === network && d.count === count && d.cm === cm);
  // 10 Mbit/s, N=1000: Protobuf with GZIP (5 + 1000·0.5·10·0.5/100 = 30 ms) against JSON with
  // GZIP (55 ms) and Protobuf without (55 ms): a clear winner, 1.83× over the next.
  const clear = at('10mbit', 1000, 0);
  assert.equal(clear.recommendation, 'Protobuf with GZIP');
  assert.ok(clear.margin.ratio > 1.7 && clear.margin.ci_low > 1.05);
  assert.match(
    md,
    /\| 1,000 Books at 10 Mbit\/s \| Protobuf with GZIP \| 29\.\d\d \| 1\.00 \| fastest \| — \| \d+ \|\n\| {2}\| [^|]+ \| [\d.]+ \| 1\.8\d \| 1\.8\d× slower \| 1\.8\d–1\.8\d \| \d+ \|/,
  );
  // Unthrottled, N=10: JSON 5.1, Protobuf 5.05, JSON with GZIP 5.15 ms: within δ of each other.
  const tie = at('unthrottled', 10, 0);
  assert.equal(tie.recommendation, 'no clear winner');
  assert.ok(tie.no_clear_winner_among.includes('Protobuf uncompressed') && tie.no_clear_winner_among.length >= 3);
});

test("the report's decision rows are the judgments its groups stopped on, and a changed one is refused", async () => {
  const { path } = syntheticRun();
  await makeReport([path]);
  const stored = readFileSync(join(path, 'groups.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  const { decisions: rows } = JSON.parse(readFileSync(join(path, 'report-data.json'), 'utf8'));
  const decided = stored.filter((g) => g.judgment.decision);
  assert.equal(rows.length, decided.length);
  for (const group of decided) {
    const row = rows.find((r) => r.group_id === group.group_id);
    const { decision } = group.judgment;
    assert.equal(row.fastest_case_id, decision.fastest, group.group_id);
    assert.equal(row.settled, decision.settled);
    assert.equal(row.recommendation === 'no clear winner', decision.recommendation === 'no clear winner');
    assert.deepStrictEqual(
      row.others.map((o) => [o.case_id, o.ratio, o.verdict, o.settled]),
      decision.others.map((o) => [o.case_id, o.ratio, o.verdict, o.settled]),
    );
  }
  // A judgment that its samples do not give (an edited file) stops the report, saying which group.
  const edited = stored.map((g, i) =>
    i === 0
      ? {
          ...g,
          judgment: { ...g.judgment, comparisons: g.judgment.comparisons.map((c) => ({ ...c, ratio: c.ratio * 1.5 })) },
        }
      : g,
  );
  writeFileSync(join(path, 'groups.jsonl'), edited.map((g) => `${JSON.stringify(g)}\n`).join(''));
  assert.throws(
    () => readRuns([path]),
    new RegExp(`judgment stored for group ${stored[0].group_id} is not what its samples give`),
  );
});

test("the report judges at the δ of the run's own stop rule, and says which", async () => {
  // CM1, N=100, unthrottled: the client 6.75 ms against the server's 6.25 ms, 1.08×: clear at
  // δ = 5 %, within a δ of 20 %.
  const cm1 = (helper) => helper.find((d) => d.network === 'unthrottled' && d.cm === 1);
  const wide = syntheticRun({ protocol: { stop: { delta: 0.2 } } });
  const loaded = readRuns([wide.path]);
  assert.deepStrictEqual(loaded.judging, { delta: 0.2, looks: 3, fewRounds: true });
  assert.equal(cm1(analyse(loaded).decisions).recommendation, 'no clear winner');
  const narrow = readRuns([syntheticRun().path]);
  assert.equal(cm1(analyse(narrow).decisions).recommendation, 'JSON uncompressed, server sorting', 'at 5 %');
  await makeReport([wide.path]);
  const md = readFileSync(join(wide.path, 'report.md'), 'utf8');
  assert.match(md, /as in "What to choose": as fast, neither over 20 % slower\)/);
  assert.match(
    md,
    /wholly above 1 \+ δ or below 1 \/ \(1 \+ δ\) \(δ = 20 %\), .*a verdict settles once it held at 3 checks in a row/,
  );
  assert.match(md, /as fast: neither over 20 % slower; k× slower: over 20 % slower/);
  assert.match(md, /is as fast as the server sorting \(within ±20 %: 1\.0\d× slower, 95 % CI/);
  assert.deepStrictEqual(JSON.parse(readFileSync(join(wide.path, 'report-data.json'), 'utf8')).judging, {
    delta: 0.2,
    looks: 3,
    fewRounds: true,
  });
  // A fixed protocol stopped on no verdict: its final CIs stand as they are (one look).
  assert.deepStrictEqual(readRuns([syntheticRun({ protocol: { stop: null } }).path]).judging, {
    delta: 0.05,
    looks: 1,
    fewRounds: false,
  });
});

test('summary.csv holds every cell, and its statistics can be recomputed from samples.jsonl', async () => {
  const { path, cells } = syntheticRun();
  await makeReport([path]);
  const [header, ...rows] = readFileSync(join(path, 'summary.csv'), 'utf8').trim().split('\n');
  assert.deepStrictEqual(header.split(',').slice(0, CELL_COLUMNS.length + 11), [
    'case_id',
    ...CELL_COLUMNS,
    'situation',
    'situation_ms',
    'times_fastest',
    'verdict',
    'n',
    'mean_trimmed_ms',
    'median_ms',
    'ci_low_ms',
    'ci_high_ms',
    'p95_ms',
  ]);
  assert.equal(rows.length, cells.length);
  const samples = readFileSync(join(path, 'samples.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  const columns = header.split(',');
  // Quoted fields ("1,000 Books at 10 Mbit/s") hold commas.
  const fields = (row) => [...row.matchAll(/("([^"]*)"|[^,]*)(,|$)/g)].map((m) => m[2] ?? m[1]).slice(0, -1);
  for (const row of rows) {
    const record = Object.fromEntries(fields(row).map((v, i) => [columns[i], v]));
    const totals = samples.filter((s) => s.case_id === record.case_id).map((s) => s.total_ms);
    assert.equal(Number(record.n), totals.length);
    assert.ok(Math.abs(Number(record.median_ms) - median(totals)) < 1e-3, record.case_id);
  }
});

test('the report says how each network was shaped and what it measured', () => {
  const profile = (downBps, rttMs) => ({ downBps, upBps: downBps, rttMs });
  const cdp = describeNetworks({
    shaping: 'cdp',
    networks: {
      unthrottled: {
        ...profile(null, 0),
        measured: {
          throughput_bps: null,
          at_least_bps: 1.1e9,
          rtt_ms: 5.94,
          probe_transfer_size: 1_410_000,
          probe_seconds: [0.0112, 0.0101, 0.0098],
        },
      },
      '10mbit': {
        ...profile(10e6, 0),
        cdp: { calibration: 'on', factor: 1.0789 },
        measured: { throughput_bps: 9.83e6, rtt_ms: 5.6 },
      },
    },
  });
  assert.equal(
    cdp,
    'Networks as measured before the first group — unthrottled: browser and server on one machine, no link ' +
      'to measure: a 1.41 MB answer took 10.1 ms, at least 1100 Mbit/s (no shaping); ' +
      '10mbit: measured 9.83 Mbit/s ' +
      "(nominal 10.00 Mbit/s; Chromium's emulation calibrated ×1.08).",
  );
  const netns = describeNetworks({
    shaping: 'netns',
    netns_link: { congestion_control: 'reno' },
    networks: {
      cable: {
        ...profile(5e6, 28),
        netns: { delay: 'delay-line.py' },
        measured: { throughput_bps: 5.03e6, rtt_ms: 38.2 },
      },
    },
  });
  assert.equal(
    netns,
    "Networks as measured before the first group — cable: measured 5.03 Mbit/s, a small request's round trip " +
      '38.2 ms (nominal 5.00 Mbit/s, 28 ms round trip added; ' +
      'the kernel, delay by delay-line.py); TCP congestion control reno.',
  );
  assert.equal(describeNetworks({ shaping: 'cdp' }), '');
  // A run from before at_least_bps: its noise throughput (from probes read off a 1-object
  // request's entry) is not shown; nor is the browser floor those runs measured before their
  // groups, in other conditions than the cells'.
  const old = describeNetworks({
    shaping: 'cdp',
    networks: {
      unthrottled: {
        ...profile(null, 0),
        measured: {
          throughput_bps: -4.24e6,
          rtt_ms: 8.1,
          probe_transfer_size: 1032,
          probe_seconds: [0.0147, 0.0018, 0.0031],
        },
        browser_floor: { median_ms: 3.912, p5_ms: 3.5, p95_ms: 4.875 },
      },
    },
  });
  assert.equal(
    old,
    'Networks as measured before the first group — unthrottled: browser and server on one machine, no link to ' +
      'measure (no shaping).',
  );
});

test('RQ1 ranks the formats against each other in one sentence per object, network and compression', async () => {
  const { answerQuestions } = await import('../answers.js');
  const decoders = { json: 'json', protobuf: 'reflection', xml: 'dom' };
  const cell = (format, count, median) => ({
    cell: {
      object: 'books',
      format,
      decoder: decoders[format],
      compression: 'none',
      level: null,
      count,
      scenario: 1,
      cm: 0,
      network: 'unthrottled',
    },
    stats: { median },
  });
  const cells = [
    cell('json', 10, 3),
    cell('protobuf', 10, 3.3),
    cell('xml', 10, 3.6),
    cell('json', 1000, 7),
    cell('protobuf', 1000, 8.4),
    cell('xml', 1000, 42),
  ];
  const jp = {
    dimension: 'format',
    a: cells[3].cell,
    b: cells[4].cell,
    ratio: 0.83,
    ci_low: 0.8,
    ci_high: 0.86,
    rounds: 12,
  };
  assert.deepStrictEqual(answerQuestions(cells, [jp]).RQ1.answers, [
    'Books unthrottled, uncompressed, fastest first — ' +
      'N=10: JSON 3.00 ms, Protobuf 3.30 ms, XML 3.60 ms; N=1,000: JSON 7.00 ms, Protobuf 8.40 ms, XML 42.0 ms. ' +
      "At N=1,000: can't tell yet: JSON looked 1.20× faster than Protobuf (95 % CI 1.16–1.25), " +
      'not yet for long enough to be certain.',
  ]);
  // Certain, the comparison says so; and the times are the ones the opening shows where given
  // (report.js shownFigures), which can rank otherwise than the cells' own medians.
  const settled = { ...jp, verdict: 'a faster', settled: true };
  const ids = cells.map((c, i) => ({ ...c, case_id: `c${i}` }));
  const shown = new Map([
    ['c3', { time_ms: 7.5 }],
    ['c4', { time_ms: 7.2 }],
    ['c5', { time_ms: 40 }],
  ]);
  assert.match(
    answerQuestions(ids, [settled], undefined, shown).RQ1.answers[0],
    /N=1,000: Protobuf 7\.20 ms, JSON 7\.50 ms, XML 40\.0 ms\. At N=1,000: JSON is 1\.20× faster than Protobuf \(95 % CI 1\.16–1\.25\)\./,
  );
});

test('RQ5 names the CMs whose comparison had too few rounds for a verdict instead of passing over them', async () => {
  const { answerQuestions } = await import('../answers.js');
  const cell = (scenario, cm) => ({
    object: 'books',
    format: 'json',
    decoder: 'json',
    compression: 'none',
    level: null,
    count: 10000,
    scenario,
    cm,
    network: '10mbit',
  });
  // Client (scenario 3) against server (scenario 2): the server clearly faster at CM3 from 5
  // rounds; CM4 from 1 round has no CI; CM5 from 3 rounds has one, too few rounds to judge.
  const side = (cm, ratio, low, high, rounds) => ({
    dimension: 'side',
    a: cell(3, cm),
    b: cell(2, cm),
    ratio,
    ci_low: low,
    ci_high: high,
    rounds,
    verdict: rounds >= 5 ? 'b faster' : 'unresolved',
    settled: rounds >= 5,
  });
  const all = [side(3, 1.1, 1.07, 1.13, 5), side(4, 1.5, Number.NaN, Number.NaN, 1), side(5, 2.2, 2.1, 2.3, 3)];
  const [line] = answerQuestions([], all).RQ5.answers;
  assert.equal(
    line,
    'Books at 10 Mbit/s, JSON, N=10,000, nothing cached (the server sorts or the client does): ' +
      "the server faster at CM3 — threshold: the server from CM3; CM4, CM5: can't tell yet" +
      ' (too few measurements for a CI).',
  );
});

test("a few-rounds bound never lies beyond the row's own ratio, and is rounded outward", () => {
  const how = 'decided by the stricter early test';
  assert.equal(fewRoundsWords({ low: 1.357 }, 3.01), `at least 1.35×: ${how}`);
  // The test's rounds leaned further than all rounds did: the ratio shown is the bound.
  assert.equal(fewRoundsWords({ low: 2.068 }, 2.064), `at least 2.06×: ${how}`);
  assert.equal(fewRoundsWords({ high: 0.5 }, 0.61), `at most 0.61×: ${how}`);
  assert.equal(fewRoundsWords({ high: 0.612 }, 0.4), `at most 0.62×: ${how}`);
  assert.equal(fewRoundsWords({ low: 0.9, high: 1.2 }, 1.1), `none: ${how}`);
});

test("a one-session run's wall time: before its first group, its groups, between them", async () => {
  const { runClock, budgetParagraph } = await import('../time-spent.js');
  const at = (s) => new Date(Date.parse('2026-11-28T10:00:00Z') + s * 1000).toISOString();
  const group = (start, end, totalS) => ({
    started_at: at(start),
    finished_at: at(end),
    time: { total_ms: totalS * 1000 },
  });
  const groups = [group(150, 400, 240), group(410, 1700, 1280)];
  const context = { sessions: [{ kind: 'started', runner_started_at: at(0) }] };
  assert.deepEqual(runClock(context, groups), {
    wall_ms: 1700e3,
    before_ms: 150e3,
    groups_ms: 1520e3,
    between_ms: 30e3,
  });
  // A resumed run, or one that did not record its start, is not told.
  assert.equal(runClock({ sessions: [...context.sessions, { kind: 'resumed' }] }, groups), null);
  assert.equal(runClock({ sessions: [{ kind: 'started' }] }, groups), null);
  const budget = { total_ms: 1800e3, need_ms: 1200e3, cells: { memory: 1, model: 0 }, beyond_total: [] };
  assert.match(
    budgetParagraph(budget, runClock(context, groups)),
    /counts from the run's start: before the first group, the server's start and warm-up took 2m30s; .* ended 28m20s after/,
  );
});

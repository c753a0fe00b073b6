import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  agreement,
  chanceApart,
  compareMany,
  compareRuns,
  describeAgreement,
  describeEngines,
  describeMany,
  runToRunSpread,
} from '../compare-runs.js';
import { seededRandom } from '#common/stats.js';
import { syntheticRun } from './synthetic-run.js';

const CLI = new URL('../compare-runs-cli.js', import.meta.url).pathname;

test('two runs of the same design with other noise agree on every answer', () => {
  const a = syntheticRun({ seed: 9 });
  const b = syntheticRun({ seed: 10 });
  const result = compareRuns(a.path, b.path);
  assert.equal(result.cells.in_both, a.cells.length);
  assert.equal(result.cells.medians_moved_over_10_percent, 0);
  assert.ok(result.comparisons.resolved_in_both > 30, `${result.comparisons.resolved_in_both} resolved in both`);
  assert.equal(result.comparisons.opposite_ways, 0);
  assert.equal(result.decisions.same, result.decisions.situations);
  assert.equal(result.conclusions.same, 6);
  assert.ok(result.comparisons.with_ci_in_both > 30);
  assert.ok(
    result.comparisons.cis_apart_expected > 0 &&
      result.comparisons.cis_apart_expected < result.comparisons.with_ci_in_both * 0.05,
  );
  assert.equal(result.summary.agreement, 'same');
  assert.match(describeAgreement(result).at(-1), /^agreement: same — every decision and verdict the same/);
});

test('a run in which JSON and Protobuf trade places is seen to disagree, and where', () => {
  const a = syntheticRun({ seed: 9 });
  const b = syntheticRun({ seed: 9, perObject: { json: 0.5, protobuf: 1.0, xml: 2.0 } });
  const result = compareRuns(a.path, b.path);
  assert.ok(result.cells.medians_moved_over_10_percent > 0);
  assert.ok(result.comparisons.opposite_ways > 0);
  assert.ok(result.comparisons.opposite.every((o) => /\/(json|protobuf)\//.test(o.comparison)));
  assert.ok(result.decisions.same < result.decisions.situations);
  assert.ok(result.conclusions.same < 6, 'JSON beating Protobuf unthrottled now holds');
  const lines = describeAgreement(result);
  assert.match(lines[1], /^comparisons resolved in both runs: \d+; pointing opposite ways: [1-9]/);
  assert.equal(result.summary.agreement, 'different');
  assert.equal(result.summary.contradictions.opposite_ways, result.comparisons.opposite_ways);
  assert.match(
    lines.at(-1),
    /^agreement: different — the runs contradict each other: \d+ comparisons? resolved the other way/,
  );
});

test(
  'a run slower throughout is told apart from noise: ' +
    'the moved cells moved one way, and the median B/A says by how much',
  () => {
    const a = syntheticRun({ seed: 9 });
    // every format 1.3× per object (the fixed 5 ms is not)
    const b = syntheticRun({ seed: 10, perObject: { json: 1.3, protobuf: 0.65, xml: 2.6 } });
    const result = compareRuns(a.path, b.path);
    assert.ok(result.cells.medians_moved_over_10_percent > 0);
    assert.equal(result.cells.moved_slower_in_b, result.cells.medians_moved_over_10_percent);
    assert.ok(
      result.cells.median_ratio_b_to_a > 1.02 && result.cells.median_ratio_b_to_a < 1.3,
      `${result.cells.median_ratio_b_to_a}`,
    );
    assert.equal(result.comparisons.opposite_ways, 0);
    assert.match(
      describeAgreement(result)[0],
      /\((\d+) slower in run B\); over every cell, the median: run B is 1\.\d\d× slower than run A$/,
    );
    const same = compareRuns(a.path, syntheticRun({ seed: 10 }).path);
    assert.ok(Math.abs(same.cells.median_ratio_b_to_a - 1) < 0.02, `${same.cells.median_ratio_b_to_a}`);
  },
);

test('a different recommendation is told apart by whether each run settled its margins', () => {
  const situation = (recommendation, ...others) => ({
    object: 'books',
    count: 10,
    network: '10mbit',
    cm: 4,
    recommendation,
    fastest: 'Protobuf, server computes',
    margin: others[0] && { over: others[0][0], ratio: others[0][2], ci_low: others[0][3], ci_high: others[0][4] },
    others: others.map(([configuration, verdict, ratio, low, high, steady = 3]) => ({
      configuration,
      verdict,
      ratio,
      ci_low: low,
      ci_high: high,
      steady_looks: verdict === 'unresolved' ? 0 : steady,
      settled: verdict !== 'unresolved' && steady >= 3,
    })),
  });
  const run = (...decisions) => ({ cells: [], all: [], conclusions: [], decisions });
  // Run A: Protobuf on the server clearly ahead; run B: the same margin unresolved when its budget ran out.
  const near = agreement(
    run(situation('Protobuf, server computes', ['Protobuf, client computes', 'b faster', 1.096, 1.069, 1.152])),
    run(situation('no clear winner', ['Protobuf, client computes', 'unresolved', 1.047, 1.018, 1.089])),
  );
  assert.equal(near.decisions.same, 0);
  assert.equal(near.decisions.different_with_both_settled, 0);
  assert.deepStrictEqual(Object.keys(near.decisions.different[0].unsettled_margin), ['b']);
  assert.equal(near.decisions.different_configurations, 0, 'one run names no winner');
  assert.equal(near.summary.agreement, 'same but on the δ line', 'nothing contradicts: one run left the margin open');
  assert.match(describeAgreement(near).at(-1), /^agreement: same but on the δ line — 1 decision and 0 verdicts differ/);
  assert.match(
    describeAgreement(near)[3],
    /0 name two different configurations .*, 0 had every margin settled in both runs/,
  );
  assert.match(
    describeAgreement(near)[4],
    /: Protobuf, server computes vs no clear winner; run A: fastest Protobuf, server computes, then Protobuf, client computes is 1\.10× slower than the fastest \(95 % CI 1\.06–1\.16\); run B: fastest Protobuf, server computes, then Protobuf, client computes is 1\.047× slower than the fastest \(95 % CI 1\.01–1\.09\); /,
  );
  assert.match(
    describeAgreement(near)[4],
    /not settled in run B: Protobuf, client computes is 1\.047× slower than the fastest \(95 % CI 1\.01–1\.09\), unresolved$/,
  );
  // Clear at the last look but not yet at the looks in a row the stop rule asks: not settled either.
  const young = agreement(
    run(situation('Protobuf, server computes', ['Protobuf, client computes', 'b faster', 1.096, 1.069, 1.152])),
    run(situation('no clear winner', ['Protobuf, client computes', 'b faster', 1.07, 1.052, 1.1, 2])),
  );
  assert.match(
    describeAgreement(young)[4],
    /not settled in run B: .* \(95 % CI 1\.052–1\.10\), clearly slower at 2 looks in a row$/,
  );
  // Both settled, yet different: a winner in one run, equivalent in the other — a real contradiction.
  const settled = agreement(
    run(situation('Protobuf, server computes', ['Protobuf, client computes', 'b faster', 1.2, 1.1, 1.3])),
    run(situation('no clear winner', ['Protobuf, client computes', 'equivalent', 1.01, 0.99, 1.03])),
  );
  assert.equal(settled.decisions.different_with_both_settled, 1);
  assert.deepStrictEqual(settled.decisions.different[0].unsettled_margin, {});
  assert.equal(settled.summary.agreement, 'different');
  assert.match(
    describeAgreement(settled).at(-1),
    /contradict each other: 1 decision different with every margin settled in both$/,
  );
  // Two runs that name different winners.
  const two = agreement(
    run(situation('Protobuf, server computes', ['JSON, server computes', 'b faster', 1.2, 1.1, 1.3])),
    run(situation('JSON, server computes', ['Protobuf, server computes', 'b faster', 1.2, 1.1, 1.3])),
  );
  assert.equal(two.decisions.different_configurations, 1);
  assert.deepStrictEqual(two.summary.contradictions, {
    opposite_ways: 0,
    different_configurations: 1,
    decisions_settled_in_both: 1,
    verdict_comparisons: 0,
  });
});

test(
  'a different verdict is traced to the comparisons that counted otherwise: ' + 'open in one run, or a contradiction',
  () => {
    const comparison = (a, counts_as, ratio, low, high) => ({
      a,
      b: 'protobuf',
      ratio,
      ci_low: low,
      ci_high: high,
      rounds: 40,
      counts_as,
      verdict: counts_as === 'holds' ? 'equivalent' : counts_as === 'contradicted' ? 'a faster' : 'unresolved',
    });
    const claim = (verdict, ...comparisons) => ({
      claim: 'With GZIP the size advantage vanishes and JSON is as fast or faster than Protobuf.',
      verdict,
      parts: [{ what: 'JSON/Protobuf at 10 Mbit/s with GZIP', comparisons }],
    });
    const run = (...conclusions) => ({ cells: [], all: [], decisions: [], conclusions });
    const steady = comparison('videos/10/json', 'holds', 0.98, 0.96, 1.0);
    // The GZIP margin of 1,000 Videos at 10 Mbit/s: 1.046× in one run (its CI spans 1 + δ: open),
    // 1.06× in the other (wholly above: contradicted).
    const onTheLine = agreement(
      run(claim('confirmed', steady, comparison('videos/1000/json', 'open', 1.046, 1.036, 1.058))),
      run(claim('partly', steady, comparison('videos/1000/json', 'contradicted', 1.06, 1.052, 1.07))),
    );
    const [different] = onTheLine.conclusions.different;
    assert.deepStrictEqual(
      different.changed.map((x) => [x.comparison, x.a.counts_as, x.b.counts_as]),
      [['videos/1000/json | protobuf', 'open', 'contradicted']],
    );
    assert.equal(different.contradictions, 0);
    assert.equal(onTheLine.summary.agreement, 'same but on the δ line');
    const lines = describeAgreement(onTheLine);
    assert.match(
      lines.at(-2),
      /: confirmed vs partly; videos\/1000\/json \| protobuf \(JSON\/Protobuf at 10 Mbit\/s with GZIP\): open in run A: a is 1\.046× slower than b \(95 % CI 1\.03–1\.06\), contradicted in run B: a is 1\.06× slower than b \(95 % CI 1\.052–1\.07\)$/,
    );
    assert.match(lines.at(-1), /^agreement: same but on the δ line — 0 decisions and 1 verdict differ/);

    // Holds in one run, contradicted in the other: the runs contradict each other.
    const against = agreement(
      run(claim('confirmed', steady)),
      run(claim('refuted', comparison('videos/10/json', 'contradicted', 1.2, 1.1, 1.3))),
    );
    assert.equal(against.conclusions.different[0].contradictions, 1);
    assert.equal(against.summary.agreement, 'different');
    assert.match(
      describeAgreement(against).at(-1),
      /: 1 comparison holding for a claim in one run and contradicting it \(or not measured\) in the other$/,
    );
    // Measured in one run only: not a δ line either.
    const missing = agreement(
      run(claim('confirmed', steady, comparison('videos/1000/json', 'holds', 1.0, 0.98, 1.02))),
      run(claim('partly', steady)),
    );
    assert.deepStrictEqual(
      missing.conclusions.different[0].changed.map((x) => [x.a?.counts_as, x.b]),
      [['holds', null]],
    );
    assert.match(
      describeAgreement(missing).at(-2),
      /holds in run A: a is 1\.000× slower than b \(95 % CI 0\.98–1\.02\), not measured in run B$/,
    );
    assert.equal(missing.summary.agreement, 'different');
  },
);

test("several runs: each pair's agreement, and the situations and comparisons that are not the same in all", () => {
  const same = [9, 10, 11].map((seed) => syntheticRun({ seed }).path);
  const three = compareMany(same);
  assert.deepStrictEqual(three.runs, same);
  assert.deepStrictEqual(
    three.pairs.map((p) => [same.indexOf(p.a), same.indexOf(p.b), p.agreement]),
    [
      [0, 1, 'same'],
      [0, 2, 'same'],
      [1, 2, 'same'],
    ],
  );
  assert.deepStrictEqual(three.summary, { same: 3 });
  assert.deepStrictEqual(three.situations_varying, []);
  assert.equal(three.comparisons.both_ways, 0);
  assert.ok(three.comparisons.in_all > 30);
  const lines = describeMany(three);
  assert.equal(lines[0], `run 1: ${same[0]}`);
  assert.match(
    lines[3],
    /^runs 1 and 2: decisions the same (\d+) of \1, verdicts 6 of 6, comparisons resolved the other way 0; agreement: same$/,
  );
  assert.equal(lines.at(-1), 'pairs of runs: 3 same');

  // A fourth run in which JSON and Protobuf trade places: its pairs contradict the others, and
  // the comparisons between the two are called both ways.
  const traded = syntheticRun({ seed: 9, perObject: { json: 0.5, protobuf: 1.0, xml: 2.0 } }).path;
  const four = compareMany([...same, traded]);
  assert.equal(four.pairs.length, 6);
  assert.deepStrictEqual(four.summary, { same: 3, different: 3 });
  assert.ok(four.situations_varying.length > 0);
  const jsonProtobuf = four.comparisons.varying.find(
    (c) =>
      /\/json\/none\/scenario1\/cm0\/unthrottled \| .*\/protobuf\/none\//.test(c.comparison) &&
      c.comparison.startsWith('books/1000/'),
  );
  assert.ok(jsonProtobuf.both_ways, JSON.stringify(jsonProtobuf));
  assert.equal(jsonProtobuf.verdicts['b faster'], 3, 'Protobuf faster in the three runs of the design');
  assert.equal(jsonProtobuf.verdicts['a faster'], 1);
  assert.ok(jsonProtobuf.ratio_min < 1 && jsonProtobuf.ratio_max > 1);
  assert.match(
    describeMany(four).join('\n'),
    /books\/1000\/json\/none\/scenario1\/cm0\/unthrottled \| \S+: a faster 1, b faster 3; a ranges from \d\.\d\d× faster than b to \d\.\d\d× slower than b/,
  );
  // Runs of another plan are refused, as with two.
  const other = syntheticRun({ seed: 12 }).path;
  const context = JSON.parse(readFileSync(join(other, 'run.json'), 'utf8'));
  writeFileSync(join(other, 'run.json'), JSON.stringify({ ...context, plan: { ...context.plan, name: 'another' } }));
  assert.throws(
    () => compareMany([...same, other]),
    /the runs are of plans synthetic, another: compare runs of one plan/,
  );

  // The command takes them all.
  const cli = spawnSync(process.execPath, [CLI, ...same], { encoding: 'utf8' });
  assert.equal(cli.status, 0, cli.stderr);
  assert.match(cli.stdout, /\npairs of runs: 3 same\n$/);
});

test('every ratio in the sentences reads one way, k ≥ 1, naming which is faster (as the report words it)', () => {
  // Ratios below 1 everywhere the text shows one: a margin over the fastest that the matched
  // rounds put below 1, a comparison resolved a faster in one run, a claim's comparison, the
  // median cell of run B against run A, and an engine's margin.
  const comparison = (ratio, low, high) => ({
    a_id: 'json',
    b_id: 'protobuf',
    ratio,
    ci_low: low,
    ci_high: high,
    rounds: 40,
  });
  const situation = (recommendation, margin) => ({
    object: 'books',
    count: 10,
    network: '10mbit',
    cm: 0,
    recommendation,
    fastest: 'JSON, gzip',
    margin,
    others: [{ ...margin, configuration: margin.over, verdict: 'unresolved', steady_looks: 0, settled: false }],
  });
  const claim = (verdict, counts_as, ratio, low, high) => ({
    claim: 'With GZIP the size advantage vanishes and JSON is as fast or faster than Protobuf.',
    verdict,
    parts: [
      {
        what: 'JSON/Protobuf',
        comparisons: [{ a: 'json', b: 'protobuf', ratio, ci_low: low, ci_high: high, counts_as }],
      },
    ],
  });
  const margin = { over: 'Protobuf, gzip', ratio: 0.86, ci_low: 0.8, ci_high: 0.93 };
  const result = agreement(
    {
      cells: [{ case_id: 'x', stats: { median: 10 } }],
      all: [comparison(0.72, 0.68, 0.76)],
      decisions: [situation('JSON, gzip', margin)],
      conclusions: [claim('confirmed', 'holds', 0.9, 0.85, 0.94)],
    },
    {
      cells: [{ case_id: 'x', stats: { median: 8 } }],
      all: [comparison(1.3, 1.2, 1.4)],
      decisions: [situation('no clear winner', margin)],
      conclusions: [claim('refuted', 'contradicted', 1.2, 1.1, 1.3)],
    },
  );
  const engines = describeEngines({
    a: { title: 'Chromium', version: '156.0' },
    b: { title: 'Firefox', version: '153.7.0' },
    shaping: { a: 'cdp', b: 'cdp' },
    situations: [
      {
        situation: 'books/10/10mbit/cm0',
        answer: 'same',
        a: { recommendation: 'JSON, gzip', fastest: 'JSON, gzip', margin, settled: true },
        b: { recommendation: 'JSON, gzip', fastest: 'JSON, gzip', margin, settled: true },
      },
    ],
    same: 1,
    differ_by_engine: 0,
    on_the_delta_line: 0,
  });
  const text = [...describeAgreement(result), ...engines].join('\n');
  assert.doesNotMatch(text, /\b0\.\d+×/, 'no ratio below 1');
  const marginWords = 'Protobuf, gzip is 1.16× faster than the fastest (95 % CI 1.07–1.25)';
  assert.match(text, /over every cell, the median: run B is 1\.25× faster than run A/);
  assert.ok(
    text.includes(`  opposite: json | protobuf (run A: a is 1.39× faster than b; run B: a is 1.30× slower than b)`),
    text,
  );
  assert.ok(text.includes(`run A: fastest JSON, gzip, then ${marginWords};`), text);
  assert.ok(text.includes(`not settled in run A: ${marginWords}, unresolved`), text);
  assert.ok(text.includes('holds in run A: a is 1.11× faster than b (95 % CI 1.06–1.18)'), text);
  assert.ok(text.includes(`Chromium: JSON, gzip, then ${marginWords}; Firefox: `), text);
});

test('CIs that lie apart in two runs are counted against how many would if each held the run-to-run variation', () => {
  // Equal widths: apart when the estimates differ by more than 2 × 1.96 σ while their difference
  // has σ√2 — 2(1 − Φ(2.772)) = 0.557 %; one CI far wider than the other: its own 5 %.
  assert.ok(
    Math.abs(chanceApart({ ci_low: 1 / 1.1, ci_high: 1.1 }, { ci_low: 1.5 / 1.1, ci_high: 1.5 * 1.1 }) - 0.00557) <
      0.00005,
  );
  assert.ok(Math.abs(chanceApart({ ci_low: 0.5, ci_high: 2 }, { ci_low: 0.999, ci_high: 1.001 }) - 0.05) < 0.002);
  assert.equal(chanceApart({ ci_low: 1, ci_high: 1 }, { ci_low: 0.9, ci_high: 1.1 }), 0, 'no width: nothing to expect');
  const comparison = (ratio, low, high) => ({
    a_id: 'json',
    b_id: 'protobuf',
    ratio,
    ci_low: low,
    ci_high: high,
    rounds: 8,
  });
  const run = (...all) => ({ cells: [], all, conclusions: [], decisions: [] });
  const apart = agreement(run(comparison(1.1, 1.08, 1.12)), run(comparison(1.2, 1.17, 1.23)));
  assert.deepStrictEqual([apart.comparisons.with_ci_in_both, apart.comparisons.cis_apart], [1, 1]);
  assert.equal(apart.comparisons.apart[0].b.ci_low, 1.17);
  assert.match(
    describeAgreement(apart)[2],
    /^comparisons with a CI in both runs: 1; whose CIs lie apart: 1 \(about 0\.0 would/,
  );
  const overlapping = agreement(run(comparison(1.1, 1.08, 1.12)), run(comparison(1.12, 1.11, 1.14)));
  assert.equal(overlapping.comparisons.cis_apart, 0);
  assert.equal(
    agreement(run(comparison(1.1, NaN, NaN)), run(comparison(1.1, 1.08, 1.12))).comparisons.with_ci_in_both,
    0,
  );
});

test('the command prints the figures, and refuses runs of different plans', () => {
  const a = syntheticRun({ seed: 9 });
  const b = syntheticRun({ seed: 10 });
  const run = spawnSync(process.execPath, [CLI, a.path, b.path], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /source-conclusion verdicts the same: 6 of 6/);
  const usage = spawnSync(process.execPath, [CLI, a.path], { encoding: 'utf8' });
  assert.equal(usage.status, 2);
  // --json without its file is refused, not ignored (the figures would silently go nowhere).
  const noFile = spawnSync(process.execPath, [CLI, a.path, b.path, '--json'], { encoding: 'utf8' });
  assert.equal(noFile.status, 2);
  assert.match(noFile.stderr, /usage: .*--json <file>/);
});

test('the run-to-run spread beyond the CIs: Paule–Mandel against a reference, a closed form, and a simulation', () => {
  const ci = (ratio, low, high) => ({ ratio, ci_low: low, ci_high: high });
  // Reference: the same equation solved by Newton's method in Python (float64), not bisection.
  const pairs = [
    [ci(1.1, 1.08, 1.12), ci(1.14, 1.12, 1.16)],
    [ci(0.8, 0.78, 0.83), ci(0.79, 0.77, 0.81)],
    [ci(1.5, 1.4, 1.6), ci(1.38, 1.3, 1.47)],
    [ci(1.02, 1, 1.04), ci(0.99, 0.985, 0.995)],
    [ci(2, 1.9, 2.1), ci(2.05, 1.95, 2.2)],
  ];
  const reference = runToRunSpread(pairs);
  assert.equal(reference.comparisons, 5);
  assert.ok(Math.abs(reference.rms_z - 2.001377064769241) < 1e-9, `${reference.rms_z}`);
  assert.ok(Math.abs(reference.tau - 0.020179598937861705) < 1e-9, `${reference.tau}`);
  // Equal widths everywhere: Σ d² / (v + 2τ²) = k has τ² = (mean d² − v) / 2.
  const sigma = 0.01;
  const width = (ratio) => ci(ratio, ratio * Math.exp(-1.959964 * sigma), ratio * Math.exp(1.959964 * sigma));
  const ds = [0.05, -0.03, 0.04, 0.0, -0.06];
  const closed = runToRunSpread(ds.map((d) => [width(Math.exp(d)), width(1)]));
  const meanSquare = ds.reduce((sum, d) => sum + d * d, 0) / ds.length;
  assert.ok(Math.abs(closed.tau - Math.sqrt((meanSquare - 2 * sigma ** 2) / 2)) < 1e-9, `${closed.tau}`);
  // Differences the CIs account for: τ = 0; one without a CI is left out.
  const held = runToRunSpread([
    [width(1.01), width(1)],
    [width(0.995), width(1)],
    [ci(1.5, NaN, NaN), width(1)],
  ]);
  assert.deepStrictEqual([held.comparisons, held.tau], [2, 0]);
  assert.ok(held.rms_z < 1);
  assert.deepStrictEqual(runToRunSpread([]), { comparisons: 0, rms_z: null, tau: null });
  // Simulated runs of 2,000 comparisons with CIs of many widths, each run off by τ = 1.5 %: found within 10 %.
  const random = seededRandom(7);
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const tau = 0.015;
  const simulated = Array.from({ length: 2000 }, () => {
    const [sa, sb] = [0.002 + 0.03 * random(), 0.002 + 0.03 * random()];
    const run = (s) => {
      const ratio = Math.exp(0.2 + tau * normal() + s * normal());
      return ci(ratio, ratio * Math.exp(-1.959964 * s), ratio * Math.exp(1.959964 * s));
    };
    return [run(sa), run(sb)];
  });
  const found = runToRunSpread(simulated);
  assert.ok(Math.abs(found.tau / tau - 1) < 0.1, `${found.tau}`);
  assert.ok(found.rms_z > 1.2, `${found.rms_z}`);
  // In the printed figures, after the CIs that lie apart.
  const run = (...all) => ({
    cells: [],
    all: all.map(([r, low, high], i) => ({
      a_id: `json ${i}`,
      b_id: 'protobuf',
      ratio: r,
      ci_low: low,
      ci_high: high,
      rounds: 8,
    })),
    conclusions: [],
    decisions: [],
  });
  const lines = describeAgreement(
    agreement(run([1.1, 1.08, 1.12], [1.3, 1.28, 1.32]), run([1.2, 1.17, 1.23], [1.29, 1.27, 1.31])),
  );
  assert.match(
    lines[3],
    /^run to run: over those 2, the two runs' log ratios differ by \d\.\d\d× \(root mean square\) what their CIs allow; a spread of τ = \d+\.\d % per run/,
  );
});

test('runs in two engines: each situation answered per engine, engine differences apart from the δ line', () => {
  const chromium = { engine: 'chromium', version: '156.0', protocol: 'cdp' };
  const firefox = { engine: 'firefox', version: '153.7.0', protocol: 'webdriver-bidi' };
  const a = syntheticRun({ seed: 9, browser: chromium });
  const b = syntheticRun({ seed: 9, perObject: { json: 0.5, protobuf: 1.0, xml: 2.0 }, browser: firefox });
  const { engines } = compareRuns(a.path, b.path);
  assert.equal(engines.a.engine, 'chromium');
  assert.equal(engines.b.engine, 'firefox');
  assert.equal(engines.same + engines.differ_by_engine + engines.on_the_delta_line, engines.situations.length);
  assert.ok(engines.differ_by_engine > 0, 'JSON and Protobuf trade places in Firefox');
  for (const s of engines.situations) {
    const expected =
      s.a.recommendation === s.b.recommendation
        ? 'same'
        : s.a.settled && s.b.settled
          ? 'differs by engine'
          : 'on the δ line';
    assert.equal(s.answer, expected, s.situation);
  }
  const lines = describeAgreement(compareRuns(a.path, b.path));
  assert.equal(
    lines[0],
    "engines: run A in Chromium 156.0, run B in Firefox 153.7.0; each situation's answer in both:",
  );
  const differing = engines.situations.find((s) => s.answer === 'differs by engine');
  assert.ok(lines.some((l) => l.startsWith(`  ${differing.situation} [differs by engine]: Chromium: `)));
  assert.match(
    lines[engines.situations.length + 1],
    new RegExp(
      '^situations whose answer differs by engine \\(every margin settled in both runs\\): ' +
        `${engines.differ_by_engine} — `,
    ),
  );
  // Two runs of one engine have no engine section.
  assert.equal(compareRuns(a.path, syntheticRun({ seed: 10, browser: chromium }).path).engines, null);
});

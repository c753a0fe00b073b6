// The one judge (common/judge.js): comparisons, decision margins and the decision of a group,
// from its samples and the stop rule.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { caseId, completeCell } from '#common/cell.js';
import { VERDICTS } from '#common/comparison.js';
import { NO_CLEAR_WINNER, closableCells, decisionCells, judgeGroup } from '#common/judge.js';
import { seededRandom } from '#common/stats.js';

const cell = (format, compression, scenario = 1, cm = 0) =>
  completeCell({ object: 'books', count: 10, network: 'unthrottled', format, compression, scenario, cm });

/** Samples of `rounds` rounds, 3 per visit, each cell at its median × a shared round level × noise. */
function samplesOf(medians, rounds = 12, seed = 3) {
  const random = seededRandom(seed);
  const samples = [];
  for (let round = 1; round <= rounds; round++) {
    const level = 0.95 + 0.1 * random();
    for (const [id, median] of Object.entries(medians)) {
      for (let i = 0; i < 3; i++)
        samples.push({ case_id: id, round, total_ms: median * level * (0.995 + 0.01 * random()) });
    }
  }
  return samples;
}

const cells = ['json', 'protobuf'].flatMap((f) => [cell(f, 'none'), cell(f, 'gzip')]);
const [jsonNone, jsonGzip, protobufNone, protobufGzip] = cells.map(caseId);

test('margins: every ranked cell against the fastest, unless the group compares that pair anyway', () => {
  const judgment = judgeGroup(cells, samplesOf({ [jsonNone]: 3, [jsonGzip]: 4, [protobufNone]: 2, [protobufGzip]: 5 }));
  // Protobuf without compression is fastest; JSON without it and Protobuf with GZIP are compared with it already.
  const margins = judgment.comparisons.filter((c) => c.dimension === 'margin');
  assert.deepStrictEqual(
    margins.map((m) => [m.a, m.b]),
    [[jsonGzip, protobufNone]],
  );
  assert.deepStrictEqual(
    judgeGroup(cells, []).comparisons.filter((c) => c.dimension === 'margin'),
    [],
    'no samples',
  );
  const caching = [cell('json', 'none', 4, 2), cell('json', 'none', 5, 2)];
  const cachingJudgment = judgeGroup(caching, samplesOf({ [caseId(caching[0])]: 2, [caseId(caching[1])]: 1 }));
  assert.equal(cachingJudgment.decision, null, 'a caching group decides nothing');
  assert.deepStrictEqual(
    cachingJudgment.comparisons.map((c) => c.dimension),
    ['caching'],
  );
});

test('the decision: the fastest, recommended when every other is clearly slower and settled', () => {
  const judgment = judgeGroup(cells, samplesOf({ [jsonNone]: 3, [jsonGzip]: 4, [protobufNone]: 2, [protobufGzip]: 5 }));
  assert.equal(judgment.settled, true);
  const { decision } = judgment;
  assert.equal(decision.fastest, protobufNone);
  assert.equal(decision.recommendation, protobufNone);
  assert.deepStrictEqual(decision.no_clear_winner_among, []);
  assert.deepStrictEqual(
    decision.others.map((o) => o.case_id),
    [jsonNone, jsonGzip, protobufGzip],
  );
  // Each margin reads "other / fastest", whichever way round the group compared the pair.
  for (const other of decision.others) {
    assert.ok(other.ratio > 1.05 && other.ci_low > 1.05, `${other.case_id} ${other.ratio}`);
    assert.equal(other.verdict, VERDICTS.B_FASTER);
    assert.ok(other.clearly_slower);
  }
  // The margin of JSON (compared with Protobuf in the group as json / protobuf) is that pair's own CI.
  const pair = judgment.comparisons.find((c) => c.a === jsonNone && c.b === protobufNone);
  assert.equal(decision.others[0].ci_low, pair.ci_low);
});

test('no clear winner: names the fastest and every configuration not clearly slower', () => {
  const judgment = judgeGroup(
    cells,
    samplesOf({ [jsonNone]: 2.02, [jsonGzip]: 4, [protobufNone]: 2, [protobufGzip]: 5 }),
  );
  const { decision } = judgment;
  assert.equal(decision.recommendation, NO_CLEAR_WINNER);
  assert.deepStrictEqual(new Set(decision.no_clear_winner_among), new Set([decision.fastest, jsonNone, protobufNone]));
  assert.deepStrictEqual(decisionCells(cells, judgment), [], 'an equivalent pair stays "no clear winner"');
});

test("the decision's cells: the fastest and the open margins that more rounds could still make clear", () => {
  const judgment = judgeGroup(cells, samplesOf({ [jsonNone]: 3, [jsonGzip]: 4, [protobufNone]: 2, [protobufGzip]: 5 }));
  const other = (id, change) => ({
    ...judgment,
    decision: {
      ...judgment.decision,
      others: judgment.decision.others.map((o) => (o.case_id === id ? { ...o, ...change } : o)),
    },
  });
  const { B_FASTER, EQUIVALENT, UNRESOLVED, A_FASTER } = VERDICTS;
  assert.deepStrictEqual(decisionCells(cells, judgment), [], 'every margin settled: nothing left to decide');
  const open = other(jsonNone, { verdict: UNRESOLVED, ratio: 1.3, clearly_slower: false, settled: false });
  assert.deepStrictEqual(decisionCells(cells, open), [jsonNone, protobufNone]);
  const unsettled = other(jsonNone, { verdict: B_FASTER, clearly_slower: false, settled: false });
  assert.deepStrictEqual(decisionCells(cells, unsettled), [jsonNone, protobufNone]);
  for (const [verdict, ratio] of [
    [UNRESOLVED, 1.04],
    [EQUIVALENT, 1.02],
    [A_FASTER, 0.8],
  ]) {
    const tie = other(jsonNone, { verdict, ratio, clearly_slower: false, settled: false });
    assert.deepStrictEqual(decisionCells(cells, tie), [], `${verdict} at ${ratio}: no clear winner however long`);
  }
});

test('judging is a pure function of the samples: a cache of earlier looks changes nothing', () => {
  const medians = { [jsonNone]: 3, [jsonGzip]: 3.1, [protobufNone]: 2, [protobufGzip]: 5 };
  const all = samplesOf(medians, 14, 7);
  const cache = new Map();
  let judgment;
  for (let round = 1; round <= 14; round++) {
    judgment = judgeGroup(
      cells,
      all.filter((s) => s.round <= round),
      undefined,
      cache,
    );
  }
  assert.deepStrictEqual(judgment, judgeGroup(cells, all));
});

test('a recommendation needs its margin settled: clear at the looks in a row the stop rule asks', () => {
  // Two configurations in rounds of 2; the slower is level with the faster in rounds 1 and 2 and
  // 1.5× after. Look by look (a look from round 5, the first with a verdict) the margin is
  // unresolved up to round 7 and clearly slower from round 8 on.
  const pair = [cell('json', 'none'), cell('protobuf', 'none')];
  const [json, protobuf] = pair.map(caseId);
  const samples = (rounds) =>
    Array.from({ length: rounds * 2 }, (_, i) => {
      const round = Math.floor(i / 2) + 1;
      return [
        { case_id: protobuf, round, total_ms: 10 + 0.01 * (i % 2) },
        { case_id: json, round, total_ms: (round > 2 ? 15 : 10) + 0.01 * (i % 2) },
      ];
    }).flat();
  const atNine = judgeGroup(pair, samples(9), { looks: 3 }).decision;
  assert.deepStrictEqual(
    [atNine.others[0].verdict, atNine.others[0].steady_looks, atNine.others[0].settled],
    [VERDICTS.B_FASTER, 2, false],
  );
  assert.equal(atNine.recommendation, NO_CLEAR_WINNER, 'clear at 2 looks in a row, not at the 3 the rule asks');
  assert.equal(judgeGroup(pair, samples(9), { looks: 2 }).decision.recommendation, protobuf);
  const atTen = judgeGroup(pair, samples(10), { looks: 3 }).decision;
  assert.deepStrictEqual([atTen.recommendation, atTen.settled], [protobuf, true]);
});

test('one round of an overwhelming ratio is decided by the few-rounds test, and says so', () => {
  const judgment = judgeGroup(
    cells,
    samplesOf({ [jsonNone]: 300_000, [jsonGzip]: 6000, [protobufNone]: 5950, [protobufGzip]: 6050 }, 1),
  );
  assert.equal(judgment.few_rounds, true);
  const slow = judgment.comparisons.find((c) => c.a === jsonNone && c.b === jsonGzip);
  assert.equal(slow.rounds, 1);
  assert.equal(slow.verdict, VERDICTS.B_FASTER);
  assert.equal(slow.settled, true);
  assert.equal(slow.decided_by, 'few-rounds test');
  assert.ok(slow.few_rounds.low > 1.05 && slow.few_rounds.high > slow.few_rounds.low);
  // Within a few per cent: not overwhelming, open after one round.
  const close = judgment.comparisons.find((c) => c.a === jsonGzip && c.b === protobufGzip);
  assert.equal(close.verdict, VERDICTS.UNRESOLVED);
  assert.equal(close.decided_by, null);
  // Judged as before the test existed, the overwhelming one is open too.
  const before = judgeGroup(cells, samplesOf({ [jsonNone]: 100_000, [jsonGzip]: 3000 }, 1), undefined, new Map(), {
    fewRounds: false,
  });
  assert.equal(before.comparisons.find((c) => c.a === jsonNone && c.b === jsonGzip).verdict, VERDICTS.UNRESOLVED);
  // Iterations of milliseconds: one round of them is no evidence, however far apart.
  const short = judgeGroup(cells, samplesOf({ [jsonNone]: 100, [jsonGzip]: 3 }, 1));
  assert.equal(short.comparisons.find((c) => c.a === jsonNone && c.b === jsonGzip).verdict, VERDICTS.UNRESOLVED);
  assert.equal(before.few_rounds, undefined);
});

test('after 12 rounds a clear ratio is settled by the round bootstrap, and recorded as such', () => {
  const judgment = judgeGroup(
    cells,
    samplesOf({ [jsonNone]: 3, [jsonGzip]: 3.6, [protobufNone]: 2, [protobufGzip]: 5 }),
  );
  const c = judgment.comparisons.find((x) => x.a === jsonNone && x.b === jsonGzip);
  assert.equal(c.decided_by, 'round bootstrap');
});

test('the few-rounds rule is recorded by version, and a judgment is remade with the version it was made with', () => {
  // One round: the browser's sort of minutes against the server's seconds (the STALL_MS condition).
  const side = [cell('json', 'none', 2, 5), cell('json', 'none', 3, 5)];
  const [server, browser] = side.map(caseId);
  const samples = [
    { case_id: server, round: 1, total_ms: 3000 },
    { case_id: browser, round: 1, total_ms: 180_000 },
  ];
  const now = judgeGroup(side, samples);
  assert.equal(now.few_rounds_rule, 2);
  assert.ok(now.comparisons.every((c) => c.settled && c.decided_by === 'few-rounds test'));
  const before = judgeGroup(side, samples, undefined, new Map(), { fewRoundsVersion: 1 });
  assert.equal(before.few_rounds_rule, undefined, 'version 1 judgments were stored without it');
  assert.ok(before.comparisons.every((c) => !c.settled));
});

test('closableCells: the cells of the open comparisons one more round could decide', () => {
  // One round of iterations of a second: nothing decided; JSON against Protobuf is 3× (a second
  // round could decide it), GZIP against none within 5 % (no round could).
  const slow = { [jsonNone]: 1000, [jsonGzip]: 1020, [protobufNone]: 3000, [protobufGzip]: 3050 };
  const samples = Object.entries(slow).map(([id, ms]) => ({ case_id: id, round: 1, total_ms: ms }));
  const judgment = judgeGroup(cells, samples);
  assert.ok(judgment.comparisons.every((c) => !c.settled));
  assert.deepStrictEqual(closableCells(cells, samples, judgment), [jsonNone, jsonGzip, protobufNone, protobufGzip]);
  // Within 5 % of each other: none.
  const even = Object.keys(slow).map((id) => ({ case_id: id, round: 1, total_ms: 1000 }));
  assert.deepStrictEqual(closableCells(cells, even, judgeGroup(cells, even)), []);
  // Without the few-rounds test, none either.
  assert.deepStrictEqual(
    closableCells(cells, samples, judgeGroup(cells, samples, { delta: 0.05, fewRounds: false })),
    [],
  );
});

test('the fastest: faster in the rounds both ran, not the lowest median over rounds racing left apart', () => {
  // Protobuf is 10 % faster than JSON in every round both ran (1–12), when the machine was slow;
  // then racing kept only JSON (rounds 13–40, the machine faster): JSON's overall median is the
  // lower one.
  const samples = [];
  for (let round = 1; round <= 40; round++) {
    const level = round <= 12 ? 2 : 1;
    samples.push({ case_id: jsonNone, round, total_ms: 10 * level * (1 + 0.001 * (round % 3)) });
    if (round <= 12) {
      for (const [id, ms] of [
        [protobufNone, 9],
        [jsonGzip, 12],
        [protobufGzip, 13],
      ])
        samples.push({ case_id: id, round, total_ms: ms * level * (1 + 0.001 * (round % 5)) });
    }
  }
  const now = judgeGroup(cells, samples);
  assert.equal(now.fastest_rule, 3);
  assert.equal(now.decision.fastest, protobufNone);
  const json = now.decision.others.find((o) => o.case_id === jsonNone);
  assert.ok(json.ratio > 1.05 && json.verdict === VERDICTS.B_FASTER, 'JSON is clearly slower, in matched rounds');
  assert.ok(json.extra_ms > 0, 'and its extra time is of those rounds (its overall median is the lower one)');
  assert.ok(json.median_ms < now.decision.median_ms);
  const margins = now.comparisons.filter((c) => c.dimension === 'margin');
  assert.ok(
    margins.every((m) => m.b === protobufNone),
    'margins are taken against the fastest',
  );

  const before = judgeGroup(cells, samples, undefined, new Map(), { fastestRule: 1 });
  assert.equal(before.fastest_rule, undefined, 'version 1 judgments were stored without it');
  assert.equal(before.decision.fastest, jsonNone, 'version 1: the lowest overall median');
  assert.ok(before.decision.others.every((o) => !('extra_ms' in o)));
});

test('the fastest: out of a circle of "faster in the rounds both ran", the one least beaten', () => {
  // JSON before Protobuf in rounds 1–10, Protobuf GZIP before JSON in 11–20, Protobuf before
  // Protobuf GZIP in 21–30 (by 10 %, 10 % and 5 %): each pair shares other rounds, so "faster"
  // runs in a circle. JSON GZIP is slower everywhere.
  const samples = [];
  const visit = (id, round, ms) => {
    for (let i = 0; i < 3; i++) samples.push({ case_id: id, round, total_ms: ms * (1 + 0.001 * i) });
  };
  for (let round = 1; round <= 30; round++) {
    visit(jsonGzip, round, 20);
    if (round <= 10) [visit(protobufNone, round, 10), visit(jsonNone, round, 9)];
    else if (round <= 20) [visit(jsonNone, round, 10), visit(protobufGzip, round, 9)];
    else [visit(protobufGzip, round, 10), visit(protobufNone, round, 9.5)];
  }
  const { decision } = judgeGroup(cells, samples);
  // Against Protobuf GZIP the lowest ratio is 0.95 (Protobuf); against the others 0.9.
  assert.equal(decision.fastest, protobufGzip);
  const below = decision.others.filter((o) => o.ratio < 1).map((o) => o.case_id);
  assert.deepStrictEqual(below, [protobufNone]);
  const before = judgeGroup(cells, samples, undefined, new Map(), { fastestRule: 2 });
  assert.notEqual(before.decision.fastest, protobufGzip, 'version 2 stops where its walk ran out');
});

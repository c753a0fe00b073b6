import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { SETTLE_LOOKS, VERDICTS, roundSeed, seededShuffle } from '#common/comparison.js';
import { seededRandom } from '#common/stats.js';
import { VERDICT_STRETCH, groupProtocol, roundCost, runGroup, timeIsUp } from '../group-runner.js';
import { caseId } from '#common/cell.js';
import { compute } from '../sort.js';
import { codecs, fixture } from './fixtures.js';

const BOOKS = JSON.parse(fixture('books.expected.json'));
/** The server's own bodies of these Books in every format (written by the Java tests). */
const BODIES = { json: fixture('books.json'), xml: fixture('books.xml'), protobuf: fixture('books.protobuf') };

/**
 * A fake environment whose clock only moves inside fetch: each request "takes" `delay(query,
 * call)` ms, so the timings of every cell are designed. It logs every event.
 */
function fakeEnvironment(delay) {
  let clock = 0;
  let calls = 0;
  const events = [];
  return {
    events,
    env: {
      baseUrl: 'http://lab.test',
      codecs,
      now: () => clock,
      performance: { getEntriesByType: () => [], clearResourceTimings: () => {} },
      yieldToBrowser: async () => {},
      async fetch(url) {
        const query = new URL(url).searchParams;
        clock += delay(query, calls++);
        events.push(`fetch ${query.get('format')} cm${query.get('cm')}`);
        const cm = Number(query.get('cm'));
        if (cm === 0) return new Response(BODIES[query.get('format')]);
        return Response.json(compute('books', cm, BOOKS));
      },
    },
  };
}

const cell = (format, scenario = 1, cm = 0) => ({
  object: 'books',
  count: BOOKS.length,
  format,
  compression: 'none',
  scenario,
  cm,
  network: 'unthrottled',
});
// The stop rules below that test the round bootstrap's own rule leave the few-rounds test out
// (fewRounds: false): these designed, noiseless ratios would be decided by it in a round or two.
const FORMATS_GROUP = { id: 'formats/books/n/unthrottled', cells: ['json', 'protobuf', 'xml'].map((f) => cell(f)) };
const FIXED = (rounds, iterationsPerVisit = 2) => ({
  warmup: { iterations: 1 },
  rounds: { iterationsPerVisit, minRounds: rounds, maxRounds: rounds },
  stop: null,
});

test(
  'rounds visit every cell in the seeded order, a few iterations each, ' + 'and record where each sample came from',
  async () => {
    const { env } = fakeEnvironment(() => 5);
    const rounds = [];
    const result = await runGroup(env, FORMATS_GROUP, FIXED(4), {
      seed: 42,
      onRound: (r) => {
        rounds.push(r);
      },
    });
    assert.equal(result.rounds, 4);
    assert.equal(result.stop.reason, 'rounds done');
    const ids = FORMATS_GROUP.cells.map(caseId);
    for (const [index, round] of rounds.entries()) {
      assert.equal(round.round, index + 1);
      assert.deepStrictEqual(round.order, seededShuffle(ids, roundSeed(42, FORMATS_GROUP.id, index + 1)));
      assert.equal(round.samples.length, 6);
      assert.deepStrictEqual(
        round.samples.map((s) => [s.case_id, s.position, s.visit_iteration]),
        round.order.flatMap((id, position) => [
          [id, position, 1],
          [id, position, 2],
        ]),
      );
      assert.ok(round.samples.every((s) => s.round === index + 1 && s.total_ms === 5));
    }
    assert.ok(new Set(rounds.map((r) => r.order.join())).size > 1, 'orders change from round to round');
    assert.deepStrictEqual(
      result.cells.map((c) => c.summary.n),
      [8, 8, 8],
    );
    assert.ok(result.cells.every((c) => c.verification.passed && c.warmup.rule === 'count'));
  },
);

test('nothing runs beside a timed iteration: each round is handed over, and awaited, between rounds', async () => {
  const { env, events } = fakeEnvironment(() => 1);
  await runGroup(env, FORMATS_GROUP, FIXED(3, 1), {
    seed: 1,
    onRound: async (r) => {
      events.push(`round ${r.round} handed over`);
      await new Promise((resolve) => setTimeout(resolve, 20));
      events.push(`round ${r.round} written`);
    },
  });
  for (const round of [1, 2, 3]) {
    const handed = events.indexOf(`round ${round} handed over`);
    assert.equal(events[handed + 1], `round ${round} written`, 'no request between handing over and written');
    assert.deepStrictEqual(
      events.slice(handed - 3, handed).map((e) => e.split(' ')[0]),
      ['fetch', 'fetch', 'fetch'],
      "the round's three visits came before it was handed over",
    );
  }
});

test(
  'a group stops once every comparison is settled: resolved, ' + 'with the same verdict at 3 looks in a row',
  async () => {
    // JSON takes 10 ms, Protobuf 5 ms, XML 20 ms: every ratio is far from 1, resolved from the
    // 5th round (the first with a verdict) and settled at the 7th (the 5th, 6th and 7th agree).
    const ms = { json: 10, protobuf: 5, xml: 20 };
    const { env } = fakeEnvironment((query) => ms[query.get('format')]);
    const protocol = {
      warmup: { iterations: 1 },
      rounds: { iterationsPerVisit: 2, minRounds: 5, maxRounds: 40 },
      stop: { delta: 0.05, fewRounds: false },
    };
    const result = await runGroup(env, FORMATS_GROUP, protocol, { seed: 3 });
    assert.equal(result.stop.reason, 'resolved');
    assert.equal(result.rounds, 7);
    assert.equal(result.stop.looks, SETTLE_LOOKS);
    assert.ok(result.judgment.comparisons.every((c) => c.settled && c.steady_looks === 3));
    // A plan may ask for fewer looks: with one, the first verdict settles.
    const once = await runGroup(
      fakeEnvironment((query) => ms[query.get('format')]).env,
      FORMATS_GROUP,
      { ...protocol, stop: { delta: 0.05, looks: 1, fewRounds: false } },
      { seed: 3 },
    );
    assert.deepStrictEqual([once.rounds, once.stop.reason], [5, 'resolved']);
    const byPair = Object.fromEntries(
      result.judgment.comparisons.map((c) => [`${c.a.split('/')[2]}/${c.b.split('/')[2]}`, c]),
    );
    assert.equal(byPair['json/protobuf'].verdict, VERDICTS.B_FASTER);
    assert.equal(byPair['json/protobuf'].ratio, 2);
    assert.equal(byPair['json/xml'].verdict, VERDICTS.A_FASTER);
    assert.equal(byPair['protobuf/xml'].verdict, VERDICTS.A_FASTER);
  },
);

test(
  'equal cells resolve as equivalent; a comparison that stays unclear runs the budget out, ' + 'recorded as unresolved',
  async () => {
    const same = fakeEnvironment(() => 7);
    const equal = await runGroup(
      same.env,
      FORMATS_GROUP,
      {
        warmup: { iterations: 0 },
        rounds: { iterationsPerVisit: 1, minRounds: 5, maxRounds: 40 },
        stop: { delta: 0.05, fewRounds: false },
      },
      { seed: 3 },
    );
    assert.equal(equal.stop.reason, 'resolved');
    assert.ok(equal.judgment.comparisons.every((c) => c.verdict === VERDICTS.EQUIVALENT));

    // JSON 3 % slower than the others, with ±20 % noise per request: neither clear nor equivalent.
    let state = 9;
    const noise = () => {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      return state / 2 ** 31 - 0.5;
    };
    const noisy = fakeEnvironment((query) => (query.get('format') === 'json' ? 10.3 : 10) * (1 + 0.4 * noise()));
    const unclear = await runGroup(
      noisy.env,
      FORMATS_GROUP,
      {
        warmup: { iterations: 0 },
        rounds: { iterationsPerVisit: 1, minRounds: 5, maxRounds: 8 },
        stop: { delta: 0.05, fewRounds: false },
      },
      { seed: 3 },
    );
    assert.equal(unclear.stop.reason, 'round budget');
    assert.equal(unclear.rounds, 8);
    assert.ok(unclear.judgment.comparisons.some((c) => c.verdict === VERDICTS.UNRESOLVED));
  },
);

test(
  "the decision table's margins count for the stop rule: " + 'a near tie with the fastest keeps the group sampling',
  async () => {
    // Server-computed JSON (10 ms) is fastest; the client sorting XML is about 3 % slower, with
    // noise; the client sorting JSON (20 ms) is far behind. The group's own comparisons (JSON
    // client against server, JSON against XML on the client) resolve at once; the margin of XML
    // on the client over the fastest is no comparison of the group, yet the decision table reads it.
    const side = {
      id: 'side/books/n/unthrottled/cm1',
      cells: [cell('json', 2, 1), cell('json', 3, 1), cell('xml', 3, 1)],
    };
    const run = (xmlMs) => {
      let state = 5;
      const noise = () => {
        state = (state * 1103515245 + 12345) % 2 ** 31;
        return state / 2 ** 31 - 0.5;
      };
      const { env } = fakeEnvironment((query) =>
        query.get('cm') === '1' ? 10 : query.get('format') === 'json' ? 20 : xmlMs * (1 + 0.4 * noise()),
      );
      return runGroup(
        env,
        side,
        {
          warmup: { iterations: 0 },
          rounds: { iterationsPerVisit: 1, minRounds: 5, maxRounds: 12 },
          stop: { delta: 0.05, fewRounds: false },
        },
        { seed: 3 },
      );
    };
    const near = await run(10.3);
    const margin = near.judgment.comparisons.find((c) => c.dimension === 'margin');
    assert.deepStrictEqual([margin.a, margin.b], [caseId(side.cells[2]), caseId(side.cells[0])]);
    assert.equal(margin.verdict, VERDICTS.UNRESOLVED);
    assert.ok(
      near.judgment.comparisons.filter((c) => c.dimension !== 'margin').every((c) => c.verdict !== VERDICTS.UNRESOLVED),
    );
    assert.equal(near.stop.reason, 'round budget');
    assert.equal(near.rounds, 12);

    const clear = await run(30);
    assert.equal(clear.stop.reason, 'resolved');
    assert.equal(clear.rounds, 7);
    assert.equal(clear.judgment.comparisons.find((c) => c.dimension === 'margin').verdict, VERDICTS.B_FASTER);
  },
);

test('every round visits every cell, also past a settled comparison: all medians share their rounds', async () => {
  // XML (40 ms) is far behind; JSON and Protobuf are 3 % apart with ±20 % noise and stay open.
  let state = 11;
  const noise = () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31 - 0.5;
  };
  const ms = { json: 10.3, protobuf: 10, xml: 40 };
  const { env } = fakeEnvironment((query) =>
    query.get('format') === 'xml' ? 40 : ms[query.get('format')] * (1 + 0.4 * noise()),
  );
  const rounds = [];
  const result = await runGroup(
    env,
    FORMATS_GROUP,
    {
      warmup: { iterations: 0 },
      rounds: { iterationsPerVisit: 1, minRounds: 5, maxRounds: 12 },
      stop: { delta: 0.05, fewRounds: false },
    },
    { seed: 3, onRound: (r) => rounds.push(r) },
  );
  assert.equal(result.stop.reason, 'round budget');
  assert.equal(result.rounds, 12);
  const [json, protobuf, xml] = FORMATS_GROUP.cells.map(caseId);
  for (const round of rounds) {
    // Each round in a seeded random order of every cell, XML's comparisons settled or not.
    assert.deepStrictEqual(
      round.order,
      seededShuffle([json, protobuf, xml], roundSeed(3, FORMATS_GROUP.id, round.round)),
    );
    assert.deepStrictEqual(
      round.samples.map((s) => s.case_id),
      round.order,
    );
  }
  const byPair = Object.fromEntries(
    result.judgment.comparisons.map((c) => [`${c.a.split('/')[2]}/${c.b.split('/')[2]}`, c]),
  );
  assert.equal(byPair['json/protobuf'].verdict, VERDICTS.UNRESOLVED);
  assert.equal(byPair['json/protobuf'].rounds, 12);
  // XML's comparisons settled early and go on being judged on all twelve rounds.
  for (const pair of ['json/xml', 'protobuf/xml']) {
    assert.deepStrictEqual([byPair[pair].verdict, byPair[pair].rounds], [VERDICTS.A_FASTER, 12]);
    assert.ok(byPair[pair].settled);
  }
  assert.deepStrictEqual(
    result.cells.map((c) => [c.rounds, c.last_round, c.summary.n]),
    [
      [12, 12, 12],
      [12, 12, 12],
      [12, 12, 12],
    ],
  );
  // So the decision's figures are each cell's own median: the fastest's, times the ratio, is the other's.
  for (const other of result.judgment.decision.others) {
    const own = result.cells.find((c) => c.case_id === other.case_id).summary.median;
    assert.ok(Math.abs(result.judgment.decision.median_ms * other.ratio - own) < 1e-9, other.case_id);
  }

  // Without a stop rule (a fixed design, such as the source's protocol) every round visits every cell.
  const fixed = await runGroup(fakeEnvironment((query) => ms[query.get('format')]).env, FORMATS_GROUP, FIXED(7, 1), {
    seed: 3,
  });
  assert.deepStrictEqual(
    fixed.cells.map((c) => c.rounds),
    [7, 7, 7],
  );
});

test('a resumed group goes on from its next round, and its earlier rounds count for the stopping rule', async () => {
  const ms = { json: 10, protobuf: 5, xml: 20 };
  const { env } = fakeEnvironment((query) => ms[query.get('format')]);
  const earlier = [1, 2, 3, 4, 5, 6].flatMap((round) =>
    FORMATS_GROUP.cells.map((c) => ({ case_id: caseId(c), round, total_ms: ms[c.format] })),
  );
  const rounds = [];
  const result = await runGroup(
    env,
    FORMATS_GROUP,
    {
      warmup: { iterations: 1 },
      rounds: { iterationsPerVisit: 1, minRounds: 5, maxRounds: 40 },
      stop: { delta: 0.05, fewRounds: false },
    },
    { seed: 3, startRound: 7, earlier, onRound: (r) => rounds.push(r.round) },
  );
  // The looks at rounds 5 and 6 are judged again from the recorded samples: round 7 settles it.
  assert.deepStrictEqual(rounds, [7]);
  assert.equal(result.rounds, 7);
  assert.equal(result.judgment.comparisons[0].rounds, 7);
  assert.equal(result.cells[0].summary.n, 7);
});

test(
  'the time budget stops a group; one close to the 5 rounds a verdict needs gets them, ' +
    'one far from them stops at once',
  async () => {
    // No decision time here (decisionMs 0): its own test follows.
    const budget = {
      warmup: { iterations: 0 },
      rounds: { iterationsPerVisit: 1, minRounds: 10, maxRounds: 40, maxMs: 100, decisionMs: 0 },
      stop: { delta: 0.05, fewRounds: false },
    };
    const run = (ms) =>
      runGroup(fakeEnvironment((query) => ms[query.get('format')]).env, FORMATS_GROUP, budget, { seed: 3 });
    // Rounds of 30 ms against a 100 ms budget: past it after 4 rounds, the 5th ends at 150 ms.
    const five = await run({ json: 10, protobuf: 5, xml: 15 });
    assert.deepStrictEqual([five.rounds, five.stop.reason], [5, 'time budget']);
    assert.ok(
      five.judgment.comparisons.every((c) => c.verdict !== VERDICTS.UNRESOLVED),
      'five rounds give verdicts',
    );
    // Rounds of 12 ms: the budget stops it after 9 rounds, before the plan's minimum of 10; every
    // comparison settled by then, so it ended resolved (the report counts none open), not cut off.
    const nine = await run({ json: 4, protobuf: 2, xml: 6 });
    assert.deepStrictEqual([nine.rounds, nine.stop.reason], [9, 'resolved']);
    assert.ok(nine.judgment.settled);
    // Rounds of 65 ms: five would take 325 ms, beyond three times the budget, so the first is the last.
    const one = await run({ json: 25, protobuf: 20, xml: 20 });
    assert.deepStrictEqual([one.rounds, one.stop.reason], [1, 'time budget']);
    assert.ok(one.judgment.comparisons.every((c) => c.verdict === VERDICTS.UNRESOLVED));

    assert.equal(VERDICT_STRETCH, 3);
    // Rounds of 45 ms: five take 225 ms, within three times the budget, so it gets them.
    const within = await run({ json: 15, protobuf: 10, xml: 20 });
    assert.deepStrictEqual([within.rounds, within.stop.reason], [5, 'time budget']);
    assert.equal(timeIsUp(4, 4, 120, 100), false, 'the 5th round ends at 150 ms, within 300');
    assert.equal(timeIsUp(2, 2, 100, 100), false, 'three more rounds of 50 ms end at 250 ms');
    assert.equal(timeIsUp(2, 2, 130, 100), true, 'three more rounds of 65 ms end at 325 ms');
    assert.equal(timeIsUp(5, 5, 99, 100), false);
    assert.equal(timeIsUp(5, 5, 100, 100), true, 'with five rounds, at the budget');
    assert.equal(timeIsUp(0, 0, 500, 100), false, 'never before a first round');
    // A resumed group: 3 rounds recorded earlier, 1 run now in 30 ms (the pace counts only this session's).
    assert.equal(timeIsUp(4, 1, 30, 15), true, '60 ms > 45');
    assert.equal(timeIsUp(4, 1, 30, 20), false, '60 ms ≤ 60');
    assert.equal(timeIsUp(4, 0, 0, 40), false, 'a resumed group runs at least one round');
  },
);

test('a group too slow for a CI runs past its time only the rounds that could close a comparison', async () => {
  // Iterations of 1 to 3 s: one round decides nothing (faster cells under ONE_ROUND_MS), a second
  // one could decide the 3× pairs by the few-rounds test, never JSON against XML (5 % apart).
  const ms = { json: 1000, protobuf: 3000, xml: 1050 };
  const protocol = (maxMs) => ({
    warmup: { iterations: 0 },
    rounds: { iterationsPerVisit: 1, minRounds: 8, maxRounds: 40, maxMs, decisionMs: 0 },
    stop: { delta: 0.05 },
  });
  const run = async (maxMs) => {
    const orders = [];
    const { env } = fakeEnvironment((query) => ms[query.get('format')]);
    const result = await runGroup(env, FORMATS_GROUP, protocol(maxMs), {
      seed: 3,
      onRound: (r) => orders.push(r.order),
    });
    return { result, orders };
  };
  const pair = (result, a, b) =>
    result.judgment.comparisons.find((c) => c.a.includes(`/${a}/`) && c.b.includes(`/${b}/`));

  // Round 1 takes 5.05 s; a second one, within 3 × 4 s: it runs and decides both 3× pairs.
  const { result, orders } = await run(4000);
  assert.deepStrictEqual([result.rounds, result.stop.reason, result.stop.closing_rounds], [2, 'time budget', 1]);
  assert.equal(orders[1].length, 3, 'Protobuf against both others: all three cells');
  assert.equal(pair(result, 'json', 'protobuf').decided_by, 'few-rounds test');
  assert.equal(pair(result, 'protobuf', 'xml').decided_by, 'few-rounds test');
  assert.equal(pair(result, 'json', 'xml').settled, false, 'no round could close 5 %: it stops');
  assert.equal(result.time.open, 1);

  // With a budget of 2 s, a second round would end at 10.1 s, past 3 × 2 s: it stops after the first.
  const short = await run(2000);
  assert.deepStrictEqual([short.result.rounds, short.result.stop.closing_rounds], [1, 0]);
  assert.ok(short.result.judgment.comparisons.every((c) => !c.settled));
});

test('roundCost: a visit iterates a cell as often as its visit limit allows', () => {
  const samples = [
    { case_id: 'a', total_ms: 100 },
    { case_id: 'a', total_ms: 300 },
    { case_id: 'b', total_ms: 5000 },
  ];
  const rounds = { iterationsPerVisit: 2, visitMaxMs: 1000 };
  assert.equal(roundCost(['a'], samples, rounds), 400, 'a: 2 iterations of 200 ms');
  assert.equal(roundCost(['b'], samples, rounds), 5000, 'b: one iteration past the visit limit');
  assert.equal(roundCost(['a', 'b', 'c'], samples, rounds), 5400, 'c has no samples yet');
});

test('past the time budget, a decision more rounds could still make clear gets decisionMs more rounds', async () => {
  const noisy = (seed) => {
    const random = seededRandom(seed);
    return (ms) => ms * (0.8 + 0.4 * random());
  };
  const run = async (ms, decisionMs, noisyFormats = ['json', 'protobuf', 'xml']) => {
    const jitter = noisy(5);
    const rounds = [];
    const delay = (format) => (noisyFormats.includes(format) ? jitter(ms[format]) : ms[format]);
    const result = await runGroup(
      fakeEnvironment((query) => delay(query.get('format'))).env,
      FORMATS_GROUP,
      {
        warmup: { iterations: 0 },
        rounds: { iterationsPerVisit: 1, minRounds: 5, maxRounds: 400, maxMs: 200, decisionMs },
        stop: { delta: 0.05, fewRounds: false },
      },
      { seed: 3, onRound: (r) => rounds.push(r) },
    );
    const margin = result.judgment.comparisons.find((c) => c.a.includes('/json/') && c.b.includes('/protobuf/'));
    return { result, rounds, margin };
  };
  const [json, protobuf, xml] = FORMATS_GROUP.cells.map(caseId);
  // JSON 1.3× Protobuf under ±20 % noise: open after the 5 rounds the 200 ms allow (XML settled).
  const without = await run({ json: 13, protobuf: 10, xml: 40 }, 0);
  assert.deepStrictEqual(
    [without.result.rounds, without.result.stop.reason, without.result.stop.decision_time],
    [5, 'time budget', null],
  );
  assert.equal(without.margin.verdict, VERDICTS.UNRESOLVED);
  assert.ok(without.margin.ratio > 1.05);
  // With 2 s for the decision: more rounds, of every cell, until the margin resolves.
  const extended = await run({ json: 13, protobuf: 10, xml: 40 }, 2000);
  const { decision_time: time } = extended.result.stop;
  assert.equal(extended.margin.verdict, VERDICTS.B_FASTER, 'Protobuf clearly faster');
  assert.equal(extended.result.stop.reason, 'resolved');
  assert.ok(time.rounds > 0 && time.elapsed_ms < 2000, JSON.stringify(time));
  assert.equal(extended.result.rounds, 5 + time.rounds);
  // XML, clearly slower and settled, comes along: the extra rounds are rounds like the others.
  for (const round of extended.rounds.slice(5)) {
    const visited = [json, protobuf, xml];
    assert.deepStrictEqual(round.order, seededShuffle(visited, roundSeed(3, FORMATS_GROUP.id, round.round)));
  }
  // JSON within δ of Protobuf (equivalent): "no clear winner" however long it runs, so no extra
  // time, though XML's comparisons (1.06× under noise) are still open at the budget.
  const tie = await run({ json: 10.2, protobuf: 10, xml: 10.6 }, 2000, ['xml']);
  assert.deepStrictEqual(
    [tie.margin.verdict, tie.result.stop.reason, tie.result.stop.decision_time],
    [VERDICTS.EQUIVALENT, 'time budget', null],
  );
  assert.ok(tie.result.judgment.comparisons.some((c) => c.verdict === VERDICTS.UNRESOLVED));
  assert.equal(
    groupProtocol({ rounds: { maxMs: 90_000 } }).rounds.decisionMs,
    30_000,
    'a third of maxMs unless the plan says',
  );
  assert.throws(() => groupProtocol({ rounds: { decisionMs: -1 } }), /decisionMs must be ≥ 0 ms/);
});

test(
  'warm-up by stability: minimum time and iterations, then a stable median; ' + 'a long iteration needs only one',
  async () => {
    const steady = fakeEnvironment(() => 100);
    const one = { id: 'g', cells: [cell('json')] };
    const warmed = await runGroup(
      steady.env,
      one,
      {
        warmup: { minMs: 1000, minIterations: 3, window: 3, tolerance: 0.1, maxMs: 60_000 },
        rounds: FIXED(1, 1).rounds,
        stop: null,
      },
      { seed: 1 },
    );
    assert.deepStrictEqual(
      { rule: warmed.cells[0].warmup.rule, iterations: warmed.cells[0].warmup.iterations },
      { rule: 'stable', iterations: 10 },
      '1000 ms of 100 ms iterations, stable at once',
    );

    // Getting faster for a while (a JIT warming up): not stable until it settles.
    const settling = fakeEnvironment((query, call) => (call < 12 ? 200 - call * 10 : 50));
    const settled = await runGroup(
      settling.env,
      one,
      {
        warmup: { minMs: 0, minIterations: 3, window: 3, tolerance: 0.1, maxMs: 60_000 },
        rounds: FIXED(1, 1).rounds,
        stop: null,
      },
      { seed: 1 },
    );
    assert.equal(settled.cells[0].warmup.rule, 'stable');
    assert.ok(settled.cells[0].warmup.iterations >= 15, `warm after ${settled.cells[0].warmup.iterations}`);

    const slow = fakeEnvironment(() => 60_000);
    const long = await runGroup(
      slow.env,
      one,
      {
        warmup: { minMs: 1000, minIterations: 3, window: 3, tolerance: 0.1, maxMs: 10_000 },
        rounds: FIXED(1, 1).rounds,
        stop: null,
      },
      { seed: 1 },
    );
    assert.deepStrictEqual(
      { rule: long.cells[0].warmup.rule, iterations: long.cells[0].warmup.iterations },
      { rule: 'time limit', iterations: 1 },
    );
  },
);

test('protocols are checked, naming every problem', () => {
  assert.throws(
    () => groupProtocol({ warmup: 100, reps: 100 }),
    /unknown protocol key "reps".*warmup must be an object/,
  );
  assert.throws(
    () => groupProtocol({ rounds: { minRounds: 5, maxRounds: 2 } }),
    /maxRounds must be ≥ rounds.minRounds/,
  );
  assert.throws(() => groupProtocol({ stop: { delta: 2 } }), /stop.delta must be between 0 and 1/);
  assert.throws(() => groupProtocol({ stop: { looks: 0 } }), /stop.looks must be a whole number ≥ 1/);
  assert.throws(() => groupProtocol({ stop: { looks: 2.5 } }), /stop.looks must be a whole number ≥ 1/);
  assert.equal(groupProtocol({}).stop.looks, 3);
  assert.equal(groupProtocol({}).stop.delta, 0.05);
  assert.equal(groupProtocol({ stop: null }).stop, null);
});

test(
  "a protocol that leaves rounds out (the page's by-hand comparisons) " +
    "gets the thesis plan's visits and minimum rounds",
  () => {
    const thesis = JSON.parse(readFileSync(new URL('../../experiments/plans/thesis.json', import.meta.url), 'utf8'))
      .protocol.rounds;
    const { rounds } = groupProtocol({ rounds: { maxRounds: 8 } });
    assert.deepStrictEqual(
      [rounds.iterationsPerVisit, rounds.minRounds],
      [thesis.iterationsPerVisit, thesis.minRounds],
    );
    assert.throws(
      () => groupProtocol({ rounds: { maxRounds: thesis.minRounds - 1 } }),
      /maxRounds must be ≥ rounds.minRounds/,
    );
  },
);

test('verification: what passed earlier in the run (or the group) is not fetched again; what did not is', async () => {
  const verifyFetches = async (group, verified) => {
    const { env, events } = fakeEnvironment(() => 5);
    const result = await runGroup(env, group, FIXED(2, 1), {
      seed: 3,
      verified,
      onRound: (r) => {
        events.push(`round ${r.round}`);
      },
    });
    return { result, fetches: events.slice(events.indexOf('round 2') + 1) };
  };
  const n = BOOKS.length;
  const side = { id: 'side/books/n/unthrottled/cm3', cells: [cell('json', 2, 3), cell('json', 3, 3)] };
  const first = await verifyFetches(side);
  // The server's JSON once after the rounds; its CM3 order was fetched in the warm-up, to check
  // the client cell's own first result against: the other scenario's cell repeats neither.
  assert.deepStrictEqual(first.fetches, ['fetch json cm0']);
  assert.deepStrictEqual(first.result.cells[0].verification.checks, [
    'count',
    'client and server CM3 orders equal: passed earlier in this run',
  ]);
  assert.deepStrictEqual(first.result.cells[1].verification.checks, [
    'count: passed earlier in this run',
    "client and server CM3 orders equal (the client's order from its first warm-up iteration)",
  ]);
  const keys = first.result.cells[1].verification.keys;
  assert.deepStrictEqual(keys, [`decode books ${n} json json none -`, `order books ${n} CM3`]);
  const again = await verifyFetches(side, keys);
  assert.deepStrictEqual(
    again.fetches,
    [],
    'a later group of the same run (another network) fetches nothing to verify',
  );
  assert.ok(again.result.cells.every((c) => c.verification.passed && c.verification.keys.length === 2));

  // Only the checks not passed yet: Protobuf and XML against the JSON reference, fetched once.
  const formats = await verifyFetches(FORMATS_GROUP, keys);
  assert.deepStrictEqual(formats.fetches.sort(), ['fetch json cm0', 'fetch protobuf cm0', 'fetch xml cm0']);
  assert.deepStrictEqual(formats.result.cells.find((c) => c.cell.format === 'xml').verification.checks, [
    'count',
    'same objects as json',
  ]);

  // A server whose CM3 order differs from the client's fails the group in the warm-up check.
  const wrong = fakeEnvironment(() => 5);
  const fetch = wrong.env.fetch;
  wrong.env.fetch = async (url) =>
    new URL(url).searchParams.get('cm') === '3' ? Response.json(compute('books', 3, BOOKS).reverse()) : fetch(url);
  await assert.rejects(
    runGroup(wrong.env, side, FIXED(2, 1), { seed: 3 }),
    /Verification failed for books\/\d+\/json\/none\/scenario3\/cm3\/unthrottled: the client's CM3 order differs from the server's/,
  );
});

test('overwhelming ratios are decided by the few-rounds test: the group stops after one round', async () => {
  const ms = { json: 10_000, protobuf: 100_000, xml: 1_000_000 };
  const { env } = fakeEnvironment((query) => ms[query.get('format')]);
  const result = await runGroup(
    env,
    FORMATS_GROUP,
    {
      warmup: { iterations: 1 },
      rounds: { iterationsPerVisit: 2, minRounds: 8, maxRounds: 40, maxMs: 1e9 },
      stop: { delta: 0.05 },
    },
    { seed: 3 },
  );
  assert.deepStrictEqual([result.rounds, result.stop.reason], [1, 'resolved']);
  assert.ok(result.judgment.comparisons.every((c) => c.settled && c.decided_by === 'few-rounds test'));
  assert.equal(result.time.open, 0);
});

test('before the minimum rounds, a cell whose comparisons the few-rounds test decided leaves the rounds', async () => {
  // XML is 100× slower than both others, in iterations of 10 s and more: decided in round 1. JSON and
  // Protobuf (2 % apart) need the bootstrap's rounds.
  const ms = { json: 10_000, protobuf: 10_200, xml: 1_000_000 };
  const { env } = fakeEnvironment((query) => ms[query.get('format')]);
  const orders = [];
  const result = await runGroup(
    env,
    FORMATS_GROUP,
    {
      warmup: { iterations: 1 },
      rounds: { iterationsPerVisit: 2, minRounds: 8, maxRounds: 40, maxMs: 1e9 },
      stop: { delta: 0.05 },
    },
    { seed: 3, onRound: (r) => orders.push(r.order) },
  );
  const xml = caseId(cell('xml'));
  assert.ok(orders[0].includes(xml));
  assert.ok(orders.slice(1).every((order) => !order.includes(xml) && order.length === 2));
  assert.deepStrictEqual([result.rounds, result.stop.reason], [8, 'resolved']);
  const byPair = (a, b) => result.judgment.comparisons.find((c) => c.a.includes(`/${a}/`) && c.b.includes(`/${b}/`));
  assert.equal(byPair('json', 'protobuf').decided_by, 'round bootstrap');
  assert.equal(byPair('json', 'protobuf').verdict, VERDICTS.EQUIVALENT);
  assert.equal(byPair('json', 'xml').decided_by, 'few-rounds test');
});

test('long iterations count: a warm-up iteration that took the warm-up budget is the visit of round 1', async () => {
  const ms = { json: 100, protobuf: 100, xml: 3000 };
  const { env, events } = fakeEnvironment((query) => ms[query.get('format')]);
  const rounds = [];
  const result = await runGroup(
    env,
    FORMATS_GROUP,
    {
      warmup: { minMs: 0, minIterations: 3, window: 3, tolerance: 0.1, maxMs: 1000 },
      rounds: { iterationsPerVisit: 1, minRounds: 2, maxRounds: 2 },
      stop: { delta: 0.05, fewRounds: false },
    },
    {
      seed: 3,
      onRound: (r) => {
        rounds.push(r);
        events.push(`round ${r.round}`);
      },
    },
  );
  const xml = result.cells.find((c) => c.case_id.includes('/xml/'));
  assert.deepStrictEqual(
    [xml.warmup.rule, xml.warmup.iterations, xml.warmup.counted_in_round_1],
    ['time limit', 1, true],
  );
  const json = result.cells.find((c) => c.case_id.includes('/json/'));
  assert.equal(json.warmup.counted_in_round_1, false);
  // Round 1 fetched JSON and Protobuf only; XML's sample is its warm-up iteration.
  const before = events.slice(0, events.indexOf('round 1'));
  assert.equal(before.filter((e) => e === 'fetch xml cm0').length, 1);
  const [xmlSample] = rounds[0].samples.filter((s) => s.case_id === xml.case_id);
  assert.deepStrictEqual([xmlSample.from_warmup, xmlSample.total_ms], [true, 3000]);
  assert.equal(rounds[1].samples.find((s) => s.case_id === xml.case_id).from_warmup, undefined);
  // Its time counts in round 1's pace, and in the group's record of where the time went.
  assert.equal(result.time.counted_warmup_ms, 3000);
  assert.ok(result.time.warmup_ms >= 3000);
  assert.equal(result.time.round_ms, (3000 + 100 + 100 + (3000 + 100 + 100)) / 2);
});

test("a plan's total time: the group asks for its share once warm, with a round's cost, and runs on it", async () => {
  const protocol = {
    warmup: { iterations: 2 },
    rounds: { iterationsPerVisit: 1, minRounds: 10, maxRounds: 40, maxMs: 100, decisionMs: 0 },
    stop: { delta: 0.05, fewRounds: false },
  };
  const ms = { json: 10, protobuf: 5, xml: 15 };
  const asked = [];
  const events = [];
  const run = (roundsMs) => {
    const { env, events: log } = fakeEnvironment((query) => ms[query.get('format')]);
    return runGroup(env, FORMATS_GROUP, protocol, {
      seed: 3,
      budget: async (measured) => {
        asked.push(measured);
        events.push(log.length);
        return roundsMs === null ? null : { rounds_ms: roundsMs, from: 'pool' };
      },
    });
  };
  // Its own budget (100 ms) stops it after 5 rounds of 30 ms.
  const own = await run(null);
  assert.equal(own.rounds, 5);
  assert.equal(own.budget, undefined);
  // Asked once, after the warm-up's 6 requests, with what a round of one visit per cell costs.
  assert.deepStrictEqual(asked, [{ warmup_ms: 60, round_ms: 30 }]);
  assert.deepStrictEqual(events, [6]);
  // A share of 200 ms: 7 rounds (its time is up at 210 ms), and the share is kept with the group.
  const shared = await run(200);
  assert.equal(shared.rounds, 7);
  assert.deepStrictEqual(shared.budget, { rounds_ms: 200, from: 'pool' });
});

test('a group of one cell under a stop rule is measured in every round up to its minimum', async () => {
  const { env } = fakeEnvironment(() => 5);
  const rounds = [];
  const result = await runGroup(
    env,
    { id: 'formats/books/n/unthrottled', cells: [cell('json')] },
    { warmup: { iterations: 1 }, rounds: { iterationsPerVisit: 1, minRounds: 3, maxRounds: 3 }, stop: { delta: 0.05 } },
    { seed: 1, onRound: (r) => rounds.push(r) },
  );
  assert.equal(result.rounds, 3);
  assert.deepStrictEqual(
    rounds.map((r) => r.samples.length),
    [1, 1, 1],
  );
  assert.equal(result.cells[0].summary.n, 3);
});

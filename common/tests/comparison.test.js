import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import {
  MIN_ROUNDS_FOR_VERDICT,
  SETTLE_LOOKS,
  VERDICTS,
  ciLiesIn,
  judgingOf,
  roundRatio,
  roundSeed,
  seededShuffle,
  sharedRounds,
  steadyLooks,
  steadyLooksOf,
  stopRule,
  verdictOf,
} from '#common/comparison.js';
import { ratioOfMedians } from '#common/compare.js';
import { quantileOfSorted, seededRandom } from '#common/stats.js';

const REFERENCE = JSON.parse(readFileSync(new URL('../reference/round-bootstrap.json', import.meta.url), 'utf8'));
const samples = (rounds) => rounds.flatMap((values, r) => values.map((value) => ({ round: r + 1, value })));

test("the round bootstrap agrees with SciPy's bootstrap over rounds (independent implementation)", () => {
  for (const set of REFERENCE.sets) {
    const ours = roundRatio(samples(set.a), samples(set.b), { resamples: REFERENCE.resamples, seed: 7 });
    assert.ok(Math.abs(ours.ratio - set.ratio) < 1e-12, `${set.name}: point estimate ${ours.ratio} vs ${set.ratio}`);
    // Both are Monte-Carlo estimates of the same percentile interval (20,000 resamples each).
    for (const end of ['ci_low', 'ci_high']) {
      const relative = Math.abs(ours[end] - set[end]) / set.ratio;
      assert.ok(
        relative < 0.01,
        `${set.name}: ${end} ${ours[end]} vs SciPy's ${set[end]} (${(relative * 100).toFixed(2)} %)`,
      );
    }
    assert.equal(ours.rounds, set.a.length);
    assert.equal(ours.method, 'round bootstrap (percentile)');
  }
});

test('drift shared within a round cancels in the round bootstrap; independent resampling takes it for noise', () => {
  // Both cells of these sets share each round's level (drift), as interleaved cells do.
  const drift = REFERENCE.sets.find((s) => s.name === 'near tie, drift');
  const blocks = roundRatio(samples(drift.a), samples(drift.b));
  const naive = ratioOfMedians(drift.a.flat(), drift.b.flat());
  assert.ok(
    blocks.ci_high - blocks.ci_low < 0.6 * (naive.ci_high - naive.ci_low),
    `round CI ${blocks.ci_low}–${blocks.ci_high}, independent ${naive.ci_low}–${naive.ci_high}`,
  );
  assert.ok(blocks.ci_low <= blocks.ratio && blocks.ratio <= blocks.ci_high);
});

test('the same samples and seed always give the same interval', () => {
  const set = REFERENCE.sets[1];
  assert.deepStrictEqual(roundRatio(samples(set.a), samples(set.b)), roundRatio(samples(set.a), samples(set.b)));
});

test('only rounds in which both cells were measured are resampled; one round gives no interval', () => {
  const a = [
    { round: 1, value: 2 },
    { round: 2, value: 2 },
    { round: 3, value: 2 },
  ];
  const b = [
    { round: 2, value: 1 },
    { round: 3, value: 1 },
    { round: 4, value: 1 },
  ];
  assert.equal(roundRatio(a, b).rounds, 2);
  // A cell measured on after its partner stopped (drift moved it): the medians are the matched rounds'.
  const early = [
    { round: 1, value: 4 },
    { round: 2, value: 4 },
    ...[3, 4, 5, 6, 7].map((round) => ({ round, value: 3 })),
  ];
  const stopped = [
    { round: 1, value: 5 },
    { round: 2, value: 5 },
  ];
  const matched = roundRatio(early, stopped);
  assert.deepStrictEqual([matched.median_a, matched.median_b, matched.ratio], [4, 5, 0.8]);
  const one = roundRatio([{ round: 1, value: 2 }], [{ round: 1, value: 1 }]);
  assert.equal(one.ratio, 2);
  assert.ok(Number.isNaN(one.ci_low));
  assert.equal(verdictOf(one), VERDICTS.UNRESOLVED);
});

test('verdicts: wholly above 1 + δ, wholly below 1 / (1 + δ), wholly inside, or unresolved — near ties too', () => {
  const at = (low, high, rounds = 10) => verdictOf({ ci_low: low, ci_high: high, rounds }, 0.05);
  const below = 1 / 1.05; // 0.952…: the line below 1 as far from it on a log scale as 1.05 above
  assert.equal(at(1.06, 1.3), VERDICTS.B_FASTER);
  assert.equal(at(1.05, 1.3), VERDICTS.UNRESOLVED, 'touching 1 + δ is not wholly above it');
  assert.equal(at(1.051, 1.3), VERDICTS.B_FASTER);
  assert.equal(at(0.5, 0.95), VERDICTS.A_FASTER, 'below 1 / (1 + δ)');
  assert.equal(at(0.5, below), VERDICTS.UNRESOLVED, 'touching it is not wholly below');
  assert.equal(at(0.96, 1.04), VERDICTS.EQUIVALENT);
  assert.equal(at(below, 1.05), VERDICTS.EQUIVALENT, 'the margin itself is inside');
  assert.equal(at(0.951, 1.04), VERDICTS.UNRESOLVED, 'read the other way round, 1.052: past the line');
  assert.equal(at(1.01, 1.07), VERDICTS.UNRESOLVED, 'different from 1 but not by δ: neither');
  assert.equal(at(1.2, 1.3, MIN_ROUNDS_FOR_VERDICT - 1), VERDICTS.UNRESOLVED, 'too few rounds');
  assert.equal(at(1.2, 1.3, MIN_ROUNDS_FOR_VERDICT), VERDICTS.B_FASTER);
  // The same CI read the other way round gets the mirrored verdict, at every δ line.
  for (const [low, high] of [
    [0.951, 1.04],
    [below, 1.05],
    [1.051, 1.3],
    [0.5, 0.95],
  ]) {
    const mirrored = { [VERDICTS.A_FASTER]: VERDICTS.B_FASTER, [VERDICTS.B_FASTER]: VERDICTS.A_FASTER };
    const v = at(low, high);
    assert.equal(at(1 / high, 1 / low), mirrored[v] ?? v, `${low}–${high}`);
  }
  // Runs judged before the lines were drawn so (margin_rule 1) keep 1 − δ.
  const before = (low, high) => verdictOf({ ci_low: low, ci_high: high, rounds: 10 }, 0.05, 1);
  assert.equal(before(0.951, 1.04), VERDICTS.EQUIVALENT);
  assert.equal(before(0.5, 0.951), VERDICTS.UNRESOLVED);
  assert.equal(before(0.5, 0.949), VERDICTS.A_FASTER);
});

test('a CI lies among the ratios of several verdicts: "a faster or equivalent" is any CI at or below 1 + δ', () => {
  const V = VERDICTS;
  const lies = (low, high, verdicts, rounds = 10) => ciLiesIn({ ci_low: low, ci_high: high, rounds }, verdicts, 0.05);
  const notSlower = [V.A_FASTER, V.EQUIVALENT];
  assert.equal(lies(0.94, 0.98, notSlower), true, 'across 1 / (1 + δ): unresolved, but a is not slower either way');
  assert.equal(lies(0.9, 1.05, notSlower), true, 'the margin itself is allowed');
  assert.equal(lies(0.99, 1.051, notSlower), false, 'just across 1 + δ: open');
  assert.equal(lies(1.06, 1.2, notSlower), false);
  assert.equal(lies(1.06, 1.2, [V.B_FASTER]), true);
  const notFaster = [V.B_FASTER, V.EQUIVALENT];
  assert.equal(lies(1 / 1.05, 1.2, notFaster), true);
  assert.equal(lies(0.951, 1.2, notFaster), false);
  assert.equal(lies(0.94, 0.98, [V.A_FASTER]), false, 'one verdict: exactly verdictOf');
  assert.equal(lies(0.94, 0.98, [V.EQUIVALENT]), false);
  assert.equal(lies(0.5, 2, [V.A_FASTER, V.EQUIVALENT, V.B_FASTER]), true);
  assert.equal(lies(0.94, 0.98, notSlower, MIN_ROUNDS_FOR_VERDICT - 1), false, 'too few rounds: nothing lies anywhere');
  assert.equal(lies(NaN, NaN, notSlower), false);
});

test('a near tie drawn from identical cells is never called a difference', () => {
  for (let seed = 1; seed <= 20; seed++) {
    let state = seed;
    const noise = () => {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      return state / 2 ** 31;
    };
    const rounds = Array.from({ length: 12 }, () => 1 + 0.3 * noise());
    const cell = () =>
      rounds.flatMap((level, r) => [0, 1, 2].map(() => ({ round: r + 1, value: 10 * level * (1 + 0.01 * noise()) })));
    const verdict = verdictOf(roundRatio(cell(), cell()), 0.05);
    assert.ok([VERDICTS.EQUIVALENT, VERDICTS.UNRESOLVED].includes(verdict), `seed ${seed}: ${verdict}`);
  }
});

test(
  'a verdict settles a comparison once it is the same at SETTLE_LOOKS looks in a row: ' +
    'the rounds both cells ran in',
  () => {
    assert.equal(SETTLE_LOOKS, 3);
    const { A_FASTER, B_FASTER, UNRESOLVED } = VERDICTS;
    const look = (verdicts) => (round) => verdicts[round];
    // Resolved at round 5 only (a stray interval), then open again: one look, not settled.
    assert.equal(steadyLooks([5], look({ 5: B_FASTER })), 1);
    assert.equal(steadyLooks([5, 6, 7], look({ 5: B_FASTER, 6: UNRESOLVED, 7: B_FASTER })), 1);
    assert.equal(steadyLooks([5, 6, 7], look({ 5: A_FASTER, 6: B_FASTER, 7: B_FASTER })), 2);
    assert.equal(steadyLooks([4, 5, 6, 7], look({ 4: UNRESOLVED, 5: B_FASTER, 6: B_FASTER, 7: B_FASTER })), 3);
    assert.equal(
      steadyLooks([4, 5, 6, 7], look({ 4: B_FASTER, 5: B_FASTER, 6: B_FASTER, 7: B_FASTER }), 2),
      2,
      'at most `looks` counted',
    );
    assert.equal(steadyLooks([], look({})), 0);
    // Only the looks asked for are judged (the runner keeps earlier ones; each costs a bootstrap).
    const asked = [];
    steadyLooks([1, 2, 3, 4, 5, 6, 7, 8], (round) => {
      asked.push(round);
      return B_FASTER;
    });
    assert.deepStrictEqual(asked, [8, 7, 6]);
    // A look is a round in which both cells ran: a racing round that visited one of them is none.
    assert.deepStrictEqual(
      sharedRounds(samples([[1], [2], [3]]), [
        { round: 1, value: 1 },
        { round: 3, value: 1 },
        { round: 4, value: 1 },
      ]),
      [1, 3],
    );
  },
);

test('round orders are seeded permutations: the same seed, group and round give the same order', () => {
  const ids = ['a', 'b', 'c', 'd', 'e', 'f'];
  const first = seededShuffle(ids, roundSeed(1, 'g', 1));
  assert.deepStrictEqual(first, seededShuffle(ids, roundSeed(1, 'g', 1)));
  assert.deepStrictEqual([...first].sort(), ids);
  const orders = new Set(Array.from({ length: 30 }, (_, r) => seededShuffle(ids, roundSeed(1, 'g', r + 1)).join('')));
  assert.ok(orders.size > 20, 'rounds get fresh orders');
  assert.notDeepStrictEqual(seededShuffle(ids, roundSeed(2, 'g', 1)), first);
});

test(
  'the round bootstrap equals pooling each resample and sorting it, ' + 'bit for bit (ties and uneven rounds included)',
  () => {
    // The plain way: draw rounds, pool both cells' values of each drawn round, sort, take medians.
    const naive = (a, b, resamples, seed) => {
      const rounds = [...new Set(a.map((s) => s.round))].sort((x, y) => x - y);
      const of = (samples, r) => samples.filter((s) => s.round === r).map((s) => s.value);
      const random = seededRandom(seed);
      const ratios = [];
      for (let r = 0; r < resamples; r++) {
        const pa = [];
        const pb = [];
        for (let i = 0; i < rounds.length; i++) {
          const drawn = rounds[Math.floor(random() * rounds.length)];
          pa.push(...of(a, drawn));
          pb.push(...of(b, drawn));
        }
        const middle = (pool) =>
          quantileOfSorted(
            pool.sort((x, y) => x - y),
            0.5,
          );
        ratios.push(middle(pa) / middle(pb));
      }
      ratios.sort((x, y) => x - y);
      const tail = (1 - 0.95) / 2;
      return [quantileOfSorted(ratios, tail), quantileOfSorted(ratios, 1 - tail)];
    };
    const noise = seededRandom(99);
    for (let t = 0; t < 30; t++) {
      const cell = (m) =>
        Array.from({ length: 3 + (t % 9) }, (_, r) => r + 1).flatMap((round) =>
          Array.from({ length: 1 + ((round + t) % 4) }, () => ({
            round,
            value: t % 3 === 0 ? Math.round(m * (1 + noise())) : m * (1 + 0.2 * noise()),
          })),
        );
      const a = cell(5);
      const b = cell(6);
      const { ci_low, ci_high } = roundRatio(a, b, { resamples: 300, seed: t });
      assert.deepStrictEqual([ci_low, ci_high], naive(a, b, 300, t), `case ${t}`);
    }
  },
);

test("a plan's stop rule, and how a run is judged from it", () => {
  assert.deepStrictEqual(stopRule(undefined), { delta: 0.05, looks: SETTLE_LOOKS, fewRounds: true });
  assert.deepStrictEqual(stopRule({ delta: 0.1, fewRounds: false }), {
    delta: 0.1,
    looks: SETTLE_LOOKS,
    fewRounds: false,
  });
  assert.equal(stopRule(null), null);
  assert.deepStrictEqual(judgingOf({ delta: 0.1, looks: 2 }), { delta: 0.1, looks: 2, fewRounds: true });
  assert.deepStrictEqual(judgingOf(undefined), { delta: 0.05, looks: SETTLE_LOOKS, fewRounds: true });
  // A fixed protocol stopped on no verdict: its final CI stands (one look), at the default δ.
  assert.deepStrictEqual(judgingOf(null), { delta: 0.05, looks: 1, fewRounds: false });
});

test("steadyLooksOf replays a comparison's earlier looks from its samples, once each with a cache", () => {
  // Level in rounds 1 and 2, 1.5× after: unresolved up to round 7, b faster from round 8.
  const cells = (rounds) => {
    const a = [];
    const b = [];
    for (let round = 1; round <= rounds; round++) {
      for (const i of [0, 1]) {
        a.push({ round, value: (round > 2 ? 15 : 10) + 0.01 * i });
        b.push({ round, value: 10 + 0.01 * i });
      }
    }
    return [a, b];
  };
  const [a9, b9] = cells(9);
  assert.equal(verdictOf(roundRatio(a9, b9)), VERDICTS.B_FASTER);
  assert.equal(steadyLooksOf(a9, b9, { verdict: VERDICTS.B_FASTER }), 2);
  const cache = new Map();
  const [a10, b10] = cells(10);
  assert.equal(steadyLooksOf(a10, b10, { verdict: VERDICTS.B_FASTER, cache, key: 'x' }), 3);
  assert.deepStrictEqual([...cache.keys()], ['x 10', 'x 9', 'x 8']);
  assert.equal(
    steadyLooksOf(a10, b10, { verdict: VERDICTS.B_FASTER, looks: 5, cache, key: 'x' }),
    3,
    'round 7 was unresolved',
  );
});

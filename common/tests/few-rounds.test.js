// The few-rounds test against simulations whose answers are known: its error rate at the δ line
// over a group's looks, its power on overwhelming ratios, and a control showing that the
// simulation catches a rule whose stated error rate is not its own.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { VERDICTS } from '#common/comparison.js';
import {
  ERROR_RATE,
  LONG_MS,
  ONE_ROUND_MS,
  SIGMA,
  STALL_MS,
  T_MIN_ROUNDS,
  Z_ALPHA,
  fewRoundsTest,
  nextRoundCouldDecide,
  roundLogRatios,
  tAlpha,
} from '#common/few-rounds.js';
import { seededRandom } from '#common/stats.js';

const DELTA = 0.05;
const LOOKS = 40;

/** A standard normal from a seeded uniform generator (Box–Muller). */
function normal(random) {
  const u = 1 - random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

/**
 * How often a group that looks after each of `looks` rounds is ever decided `wrong` by `rule`:
 * each round's log ratio is log(trueRatio) + sigma × noise().
 */
function everDecided(rule, { trueRatio, sigma, looks = LOOKS, wrong, runs = 20_000, seed = 1, noise = normal }) {
  const random = seededRandom(seed);
  let hits = 0;
  for (let run = 0; run < runs; run++) {
    const xs = [];
    for (let look = 1; look <= looks; look++) {
      xs.push(Math.log(trueRatio) + sigma * noise(random));
      if (rule(xs, DELTA).verdict === wrong) {
        hits++;
        break;
      }
    }
  }
  return hits / runs;
}

/** The worst noise the rule is stated for, and far less: both must keep the error rate. */
const SIGMAS = [SIGMA, 0.1, 0.02];

test('at the δ line (b exactly 1 + δ slower) the test says "b faster" at most ERROR_RATE over 40 looks', () => {
  for (const sigma of SIGMAS) {
    const rate = everDecided(fewRoundsTest, { trueRatio: 1 + DELTA, sigma, wrong: VERDICTS.B_FASTER });
    assert.ok(rate <= ERROR_RATE, `σ = ${sigma}: wrongly decided in ${(rate * 100).toFixed(2)} % of groups`);
  }
});

test('at the other δ line (a exactly 1 / (1 + δ) faster) it says "a faster" at most ERROR_RATE', () => {
  for (const sigma of SIGMAS) {
    const rate = everDecided(fewRoundsTest, { trueRatio: 1 / (1 + DELTA), sigma, wrong: VERDICTS.A_FASTER });
    assert.ok(rate <= ERROR_RATE, `σ = ${sigma}: wrongly decided in ${(rate * 100).toFixed(2)} % of groups`);
  }
});

test('with equal cells it never points either way more than ERROR_RATE', () => {
  for (const wrong of [VERDICTS.A_FASTER, VERDICTS.B_FASTER]) {
    const rate = everDecided(fewRoundsTest, { trueRatio: 1, sigma: SIGMA, wrong });
    assert.ok(rate <= ERROR_RATE, `${wrong}: ${(rate * 100).toFixed(2)} %`);
  }
});

test('with heavy-tailed noise (Student t, 3 degrees of freedom) at the δ line it still holds its rate', () => {
  // t(3) scaled to a standard deviation of 1: one round now and then far off (a stall).
  const t3 = (random) => {
    const z = normal(random);
    const chi = normal(random) ** 2 + normal(random) ** 2 + normal(random) ** 2;
    return z / Math.sqrt(chi / 3) / Math.sqrt(3);
  };
  for (const sigma of SIGMAS) {
    const rate = everDecided(fewRoundsTest, { trueRatio: 1 + DELTA, sigma, wrong: VERDICTS.B_FASTER, noise: t3 });
    assert.ok(rate <= ERROR_RATE, `σ = ${sigma}: ${(rate * 100).toFixed(2)} %`);
  }
});

test('an overwhelming ratio is decided in one round; a clear one, with little noise, in a few', () => {
  const decided = (xs) => fewRoundsTest(xs, DELTA);
  // CM5 on 10,000 Books, client against server: many times slower, one round.
  assert.equal(decided([Math.log(10)]).verdict, VERDICTS.B_FASTER);
  assert.equal(decided([Math.log(0.1)]).verdict, VERDICTS.A_FASTER);
  // One round decides above 1.05 × e^(z σ): about 2.8×; below, it waits.
  const oneRound = (1 + DELTA) * Math.exp(Z_ALPHA * SIGMA);
  assert.equal(decided([Math.log(oneRound * 1.01)]).verdict, VERDICTS.B_FASTER);
  assert.equal(decided([Math.log(oneRound * 0.99)]).verdict, VERDICTS.UNRESOLVED);
  // 1.3× with 1 % noise: the t bound decides from T_MIN_ROUNDS rounds.
  const steady = [0.01, -0.01, 0.005, 0].map((e) => Math.log(1.3) + e);
  assert.equal(decided(steady.slice(0, T_MIN_ROUNDS - 1)).verdict, VERDICTS.UNRESOLVED);
  assert.equal(decided(steady.slice(0, T_MIN_ROUNDS)).verdict, VERDICTS.B_FASTER);
  // Never "equivalent", however tight.
  assert.equal(decided(Array(20).fill(0)).verdict, VERDICTS.UNRESOLVED);
});

test('its power: 5× is found in the first round in nearly every simulated group at the ceiling σ', () => {
  const power = everDecided(fewRoundsTest, { trueRatio: 5, sigma: SIGMA, looks: 1, wrong: VERDICTS.B_FASTER });
  assert.ok(power > 0.95, `decided in round 1 in ${(power * 100).toFixed(1)} %`);
});

test('the simulation can fail: a rule without the noise ceiling errs far more than ERROR_RATE', () => {
  // The same bounds, but at n = 1–2 with the sample deviation alone (0 at n = 1): it decides on
  // any single round past the δ line. The simulation must catch it.
  const careless = (xs, delta) => {
    const n = xs.length;
    const m = xs.reduce((sum, x) => sum + x, 0) / n;
    const s = n >= 2 ? Math.sqrt(xs.reduce((sum, x) => sum + (x - m) ** 2, 0) / (n - 1)) : 0;
    const half = n >= T_MIN_ROUNDS ? (tAlpha(n - 1) * s) / Math.sqrt(n) : Z_ALPHA * s;
    return { verdict: Math.exp(m - half) > 1 + delta ? VERDICTS.B_FASTER : VERDICTS.UNRESOLVED };
  };
  const rate = everDecided(careless, { trueRatio: 1 + DELTA, sigma: 0.1, wrong: VERDICTS.B_FASTER, runs: 2000 });
  assert.ok(rate > 10 * ERROR_RATE, `the careless rule erred in only ${(rate * 100).toFixed(2)} %`);
});

test('roundLogRatios: one log ratio of medians per round both cells ran in', () => {
  const a = [
    { round: 1, value: 10 },
    { round: 1, value: 30 },
    { round: 2, value: 8 },
    { round: 3, value: 5 },
  ];
  const b = [
    { round: 1, value: 10 },
    { round: 3, value: 10 },
    { round: 4, value: 1 },
  ];
  assert.deepEqual(roundLogRatios(a, b), [Math.log(2), Math.log(0.5)]);
});

test('short iterations get no noise ceiling: one round of them decides nothing, however far apart', () => {
  const short = { shorterMs: LONG_MS - 1 };
  assert.equal(fewRoundsTest([Math.log(10)], DELTA, short).verdict, VERDICTS.UNRESOLVED);
  assert.equal(fewRoundsTest([Math.log(10), Math.log(9)], DELTA, short).verdict, VERDICTS.UNRESOLVED);
  // From T_MIN_ROUNDS rounds the t bound, which needs no ceiling, can.
  const three = [Math.log(10), Math.log(9), Math.log(11)];
  assert.equal(fewRoundsTest(three, DELTA, short).verdict, VERDICTS.B_FASTER);
  // Iterations of a second: the ceiling from two rounds, not from one (a stall of seconds).
  const second = { shorterMs: 1000 };
  assert.equal(fewRoundsTest([Math.log(10)], DELTA, second).verdict, VERDICTS.UNRESOLVED);
  assert.equal(fewRoundsTest([Math.log(10), Math.log(9)], DELTA, second).verdict, VERDICTS.B_FASTER);
  // A stalled round among two widens the bound through s: no decision.
  assert.equal(fewRoundsTest([Math.log(10), Math.log(1)], DELTA, second).verdict, VERDICTS.UNRESOLVED);
  assert.equal(fewRoundsTest([Math.log(10)], DELTA, { shorterMs: ONE_ROUND_MS }).verdict, VERDICTS.B_FASTER);
});

test('one round decides when the slower cell exceeds (1 + δ) × the faster by STALL_MS: minutes against seconds', () => {
  // CM5 on 10,000 Books sorted in the browser (3 min) against the server's (3 s): 60×.
  const minutes = { shorterMs: 3000, longerMs: 180_000 };
  assert.equal(fewRoundsTest([Math.log(60)], DELTA, minutes).verdict, VERDICTS.B_FASTER);
  assert.equal(fewRoundsTest([Math.log(1 / 60)], DELTA, minutes).verdict, VERDICTS.A_FASTER);
  // Just under STALL_MS beyond (1 + δ) × 3 s: a stall of that length could fake it, so it waits.
  const close = { shorterMs: 3000, longerMs: (1 + DELTA) * 3000 + STALL_MS - 1 };
  assert.equal(fewRoundsTest([Math.log(close.longerMs / 3000)], DELTA, close).verdict, VERDICTS.UNRESOLVED);
  const beyond = { ...close, longerMs: close.longerMs + 1 };
  assert.equal(fewRoundsTest([Math.log(beyond.longerMs / 3000)], DELTA, beyond).verdict, VERDICTS.B_FASTER);
  // The ceiling's bound still has to clear: 2.5× is not enough from one round, however long.
  const big = { shorterMs: 40_000, longerMs: 100_000 };
  assert.equal(fewRoundsTest([Math.log(2.5)], DELTA, big).verdict, VERDICTS.UNRESOLVED);
  // Short faster cells get no ceiling at all; and version 1 of the rule (older runs) had no STALL_MS.
  assert.equal(
    fewRoundsTest([Math.log(60)], DELTA, { shorterMs: LONG_MS - 1, longerMs: 180_000 }).verdict,
    VERDICTS.UNRESOLVED,
  );
  assert.equal(fewRoundsTest([Math.log(60)], DELTA, { ...minutes, version: 1 }).verdict, VERDICTS.UNRESOLVED);
});

test('nextRoundCouldDecide: whether one more round like the last ones would let the test decide', () => {
  const second = { shorterMs: 1000 };
  // From two rounds the ceiling needs about 1.05 × e^(z σ / √2) ≈ 2.1×.
  assert.equal(nextRoundCouldDecide([Math.log(2.5)], DELTA, second), true);
  assert.equal(nextRoundCouldDecide([Math.log(1.5)], DELTA, second), false);
  assert.equal(nextRoundCouldDecide([], DELTA, second), false);
  // Short cells: the t bound from three rounds, so not after one; after two steady ones, yes.
  const short = { shorterMs: 10 };
  assert.equal(nextRoundCouldDecide([Math.log(3)], DELTA, short), false);
  assert.equal(nextRoundCouldDecide([Math.log(3), Math.log(3.1)], DELTA, short), true);
  // Two rounds far apart: the projected third keeps their spread, and 1.3× stays open.
  assert.equal(nextRoundCouldDecide([Math.log(1.3), Math.log(1.1)], DELTA, second), false);
});

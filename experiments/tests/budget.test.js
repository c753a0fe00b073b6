// A plan's total time: what a group is expected to cost, how the total is shared, and what the
// machine remembers between runs (experiments/budget/).

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { caseId } from '#common/cell.js';
import { groupProtocol } from '../../client/group-runner.js';
import { cellTimeFile, cellTimeKey, rememberCellTimes, rememberedCellTimes } from '../budget/cell-time-memory.js';
import {
  BETWEEN_ROUNDS_MS,
  PAGE_MS,
  REQUEST_MS,
  estimateGroup,
  modelledCellMs,
  warmupMs,
} from '../budget/group-cost.js';
import { bytesPerObject, costLines, planCost } from '../budget/plan-cost.js';
import { END_RESERVE_MS, TimePool } from '../budget/pool.js';
import { comparisonGroups, loadPlan } from '../plan.js';

const cell = (over = {}) => ({
  object: 'books',
  count: 1000,
  format: 'json',
  compression: 'none',
  scenario: 1,
  cm: 0,
  network: 'unthrottled',
  ...over,
});

test('the model: bytes at the profile rate plus its RTT, decoding per object, sorting where the scenario sorts', () => {
  const kb = () => 1000; // 1 kB per object
  const local = modelledCellMs(cell(), kb);
  const slow = modelledCellMs(cell({ network: '10mbit' }), kb);
  // 1,000 objects of 1 kB at 10 Mbit/s: 800 ms on the wire, plus the profile's RTT.
  assert.ok(slow - local >= 800 && slow - local < 800 + 200, `${slow} − ${local}`);
  assert.ok(local >= REQUEST_MS);
  assert.ok(modelledCellMs(cell({ format: 'xml' }), kb) > local, 'XML decodes slower than JSON');
  // CM5 repeats CM2's sort 1,000 times: far more than CM1's one; the browser slower than the server.
  const cm = (scenario, level) => modelledCellMs(cell({ count: 10000, scenario, cm: level }), kb);
  assert.ok(cm(3, 5) > 100 * cm(3, 1));
  assert.ok(cm(3, 5) > cm(2, 5));
  // Caching with the client computing twice sorts twice on one request.
  const once = modelledCellMs(cell({ scenario: 3, cm: 3 }), kb);
  const twice = modelledCellMs(cell({ scenario: 5, cm: 3 }), kb);
  assert.ok(twice > once);
});

test('a warm-up: two windows, at least its minimum time, at most its limit; one iteration reaching the limit', () => {
  const rule = { minMs: 200, minIterations: 3, window: 3, tolerance: 0.1, maxMs: 1000 };
  assert.equal(warmupMs(1, rule), 200);
  assert.equal(warmupMs(100, rule), 600);
  assert.equal(warmupMs(400, rule), 1400); // the limit, and the iteration under way when it comes
  assert.equal(warmupMs(5000, rule), 5000);
  assert.equal(warmupMs(7, { iterations: 10 }), 70);
});

test('a group costs its page, warm-up and minimum rounds; a round iterates each cell as its visit allows', () => {
  const protocol = groupProtocol({
    warmup: { iterations: 2 },
    rounds: { iterationsPerVisit: 2, visitMaxMs: 1000, minRounds: 8 },
  });
  const group = { id: 'g', cells: [cell(), cell({ format: 'xml' })].map((c) => ({ case_id: caseId(c), ...c })) };
  const times = { json: 10, xml: 1500 };
  const estimate = estimateGroup(group, protocol, (c) => ({
    ms: times[c.format],
    from: c.format === 'json' ? 'memory' : 'model',
  }));
  // A round: JSON twice, XML once (its first iteration passes the visit's second), then judged.
  assert.equal(estimate.round_ms, BETWEEN_ROUNDS_MS + 2 * 10 + 1500);
  assert.equal(estimate.warmup_ms, 2 * 10 + 2 * 1500);
  assert.equal(estimate.need_ms, PAGE_MS + estimate.warmup_ms + 8 * estimate.round_ms);
  assert.deepEqual(estimate.from, { memory: 1, model: 1 });
});

test('the pool: what is left, less the later pages and warm-ups, shared by weight; what one leaves goes on', () => {
  const rounds = { minRounds: 8, maxMs: 25_000 };
  // b: rounds of 1 s (weight: the plan's 25 s); c: rounds of 10 s (weight: its 8 rounds, 80 s).
  const groups = [
    { id: 'a', warmup_ms: 0, round_ms: 0 },
    { id: 'b', warmup_ms: 500, round_ms: 1_000 },
    { id: 'c', warmup_ms: 8_500, round_ms: 10_000 },
  ];
  const total = (ms) => ms + END_RESERVE_MS;
  const pool = new TimePool({ totalMs: total(525_000), startedMs: 0, groups });
  // At 0: 525 s left, less c's page and warm-up (10 s): 515 s for b's 25 and c's 80.
  const b = pool.share('b', { round_ms: 1_000 }, rounds, 0);
  assert.equal(b.left_ms, 525_000);
  assert.equal(b.later_fixed_ms, PAGE_MS + 8_500);
  assert.equal(b.later_weight_ms, 80_000);
  assert.equal(b.rounds_ms, Math.round((515_000 * 25) / 105));
  assert.deepEqual([b.need_ms, b.later_groups, b.floor, b.beyond_total], [8_000, 1, false, false]);
  // b settled within 100 s: c, the last, gets all that is left.
  assert.equal(pool.share('c', { round_ms: 10_000 }, rounds, 100_000).rounds_ms, 425_000);
  // A resumed run counts its earlier sessions' time.
  const resumed = new TimePool({ totalMs: total(525_000), usedMs: 200_000, startedMs: 0, groups });
  assert.equal(resumed.share('c', { round_ms: 10_000 }, rounds, 0).rounds_ms, 325_000);
  // Two shards: each runs about half of the groups after this one.
  const sharded = new TimePool({ totalMs: total(525_000), startedMs: 0, groups, shards: 2 });
  const half = sharded.share('b', { round_ms: 1_000 }, rounds, 0);
  assert.equal(half.later_weight_ms, 40_000);
  assert.equal(half.rounds_ms, Math.round(((525_000 - 5_000) * 25) / 65));
});

test('the pool: one that needs more than is left gets what the rest do not claim; past the total, a floor', () => {
  const rounds = { minRounds: 8, maxMs: 25_000 };
  const heavy = { id: 'heavy', warmup_ms: 0, round_ms: 0 };
  const next = { id: 'next', warmup_ms: 500, round_ms: 1_000 };
  const pool = new TimePool({ totalMs: 300_000 + END_RESERVE_MS, startedMs: 0, groups: [heavy, next] });
  // 8 rounds of 100 s: 800 s, more than the 300 s left; it gets 300 s less the next one's page,
  // warm-up and 25 s.
  const share = pool.share('heavy', { round_ms: 100_000 }, rounds, 0);
  assert.equal(share.beyond_total, true);
  assert.equal(share.rounds_ms, 300_000 - PAGE_MS - 500 - 25_000);
  // The rest all claimed by the groups after it: the floor, the plan's own budget.
  const crowded = new TimePool({
    totalMs: 100_000 + END_RESERVE_MS,
    startedMs: 0,
    groups: [heavy, { id: 'next', warmup_ms: 0, round_ms: 20_000 }],
  }).share('heavy', { round_ms: 100_000 }, rounds, 0);
  assert.deepEqual([crowded.rounds_ms, crowded.floor], [25_000, true]);
  // Past the total: a cheap group still gets its minimum rounds.
  const late = pool.share('next', { round_ms: 1000 }, rounds, 400_000);
  assert.ok(late.left_ms < 0);
  assert.equal(late.rounds_ms, 8 * 1000);
});

test("a plan's cost: remembered times first, the model for the rest, and what needs more than the total", () => {
  const plan = loadPlan('quick');
  const groups = comparisonGroups(plan);
  const browser = { engine: 'chromium', version: '1.0' };
  const first = groups[0].cells[0];
  const times = { [cellTimeKey(browser, 'cdp', first.case_id)]: { ms: 60_000 } };
  const sizes = new Map();
  const cost = planCost(groups, { ...plan, minutes: 1 }, { times, browser, shaping: 'cdp', sizes });
  assert.equal(cost.total_ms, 60_000);
  assert.equal(cost.cells.memory, 1);
  assert.equal(cost.cells.model, groups.flatMap((g) => g.cells).length - 1);
  assert.equal(cost.groups.length, groups.length);
  assert.equal(
    cost.need_ms,
    cost.groups.reduce((sum, g) => sum + g.need_ms, 0),
  );
  // A cell of a minute: its group's 8 rounds are far past one minute.
  assert.deepEqual(cost.beyond_total, [groups[0].id]);
  const lines = costLines(cost, 'quick');
  assert.match(lines[0], /^Plan quick: 1 min in total; its \d+ groups need about \d+ min/);
  assert.match(lines[0], /1 cell’s time remembered from earlier runs on this machine, 83 modelled/);
  assert.match(
    lines.join('\n'),
    /MINUTES=\d+ and a few more for the server's start and warm-up would give every group its minimum/,
  );
  assert.match(lines.join('\n'), new RegExp(`${groups[0].id} alone needs about`));
  // Without a total: nothing is beyond it.
  assert.deepEqual(planCost(groups, plan, { times, browser, shaping: 'cdp', sizes }).beyond_total, []);
});

test('bytes per object: one body per object, format, compression and level, at up to 1,000 objects', async () => {
  const asked = [];
  const table = await bytesPerObject(
    [cell({ count: 10 }), cell({ count: 100000 }), cell({ count: 100000, compression: 'gzip' })],
    async (paths) => {
      asked.push(...paths);
      return paths.map(() => 5000);
    },
  );
  assert.equal(asked.length, 2);
  assert.match(asked[0], /^\/api\/books\?count=10&format=json&compression=none&cm=0$/);
  assert.match(asked[1], /count=1000&format=json&compression=gzip&level=6/);
  assert.deepEqual([...table.values()], [500, 5]);
});

test('the machine remembers each cell median, per browser and shaping, for the next run', () => {
  const directory = mkdtempSync(join(os.tmpdir(), 'rtl-cell-times-'));
  try {
    const env = { RTL_CACHE_DIR: directory };
    const browser = { engine: 'chromium', version: '1.0' };
    assert.deepEqual(rememberedCellTimes(env), {});
    assert.ok(
      rememberCellTimes(
        browser,
        'cdp',
        [
          { case_id: 'a', summary: { median: 12.5 } },
          { case_id: 'b', summary: {} },
        ],
        env,
      ),
    );
    rememberCellTimes({ ...browser, version: '2.0' }, 'cdp', [{ case_id: 'a', summary: { median: 9 } }], env);
    const times = rememberedCellTimes(env);
    assert.equal(times[cellTimeKey(browser, 'cdp', 'a')].ms, 12.5);
    assert.equal(times[cellTimeKey({ ...browser, version: '2.0' }, 'cdp', 'a')].ms, 9);
    assert.equal(times[cellTimeKey(browser, 'cdp', 'b')], undefined);
    assert.equal(Object.keys(JSON.parse(readFileSync(cellTimeFile(env), 'utf8'))).length, 2);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
});

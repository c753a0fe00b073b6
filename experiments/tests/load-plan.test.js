// Load testbed plans: every shipped plan is valid, bad plans are refused naming the field, cells
// group by what they compare, rounds visit a group in a seeded order, and a cell's window grows
// where one request per connection takes longer than the window allows.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkLoadPlan, listLoadPlans, loadGroups, loadLoadPlan, visitOrder } from '../load-testbed/load-plan.js';
import { cellTiming } from '../load-testbed/run.js';

const PLAN = {
  name: 'p',
  formats: ['json', 'xml', 'cbor'],
  methods: ['GET', 'POST'],
  counts: [1, 100],
  bandwidths_mbit: [100, 1],
  connections: 100,
  duration_s: 30,
};

test('every shipped load plan is valid; the testbed plan is the published testbed', () => {
  assert.ok(listLoadPlans().includes('testbed') && listLoadPlans().includes('testbed-smoke'));
  for (const name of listLoadPlans()) loadLoadPlan(name);
  const testbed = loadLoadPlan('testbed');
  assert.deepStrictEqual(testbed.bandwidths_mbit, [1, 5, 10, 50, 100, 500, 1000]);
  assert.equal(testbed.connections, 100);
  assert.equal(testbed.duration_s, 30);
  assert.deepStrictEqual(testbed.formats, ['json', 'xml', 'cbor']);
  assert.equal(loadLoadPlan('testbed-all-formats').formats.length >= 6, true);
});

test('bad plans are refused, naming the field and what is allowed', () => {
  const refused = (change, pattern) => assert.throws(() => checkLoadPlan({ ...PLAN, ...change }), pattern);
  refused({ formats: ['yaml'] }, /"formats" has "yaml"; allowed: json/);
  refused({ methods: ['PUT'] }, /"methods" has "PUT"; allowed: GET, POST/);
  refused({ counts: [0] }, /"counts"/);
  refused({ counts: [1.5] }, /whole numbers/);
  refused({ bandwidths_mbit: [] }, /"bandwidths_mbit"/);
  refused({ connections: 0 }, /"connections" is a whole number from 1/);
  refused({ connections: 1e9 }, /"connections"/);
  refused({ threads: 200, connections: 100 }, /"threads"/);
  refused({ warmup_s: -1 }, /"warmup_s"/);
  refused({ name: 'Bad Name' }, /"name"/);
  refused({ formats: ['json', 'json'] }, /twice/);
  refused({ server_heap_mb: 256 }, /"server_heap_mb" is the server's maximum heap in MiB, a whole number from 1024/);
  refused({ server_idle_timeout_s: 0 }, /"server_idle_timeout_s"/);
  assert.deepStrictEqual(
    [checkLoadPlan(PLAN).server_idle_timeout_s, checkLoadPlan(PLAN).server_heap_mb],
    [300, 2048],
    'the defaults',
  );
  assert.throws(() => loadLoadPlan('no-such-plan'), /the plans are .*testbed/);
});

test('cells group by what they compare; rounds visit a group in a seeded order', () => {
  const groups = loadGroups(checkLoadPlan(PLAN));
  assert.equal(groups.length, 2 * 2 * 2);
  assert.deepStrictEqual(
    groups[0].cells.map((c) => c.format),
    ['json', 'xml', 'cbor'],
  );
  assert.equal(groups[0].id, 'books/GET/1/1mbit', 'slowest link first');
  const orders = new Set(
    Array.from({ length: 20 }, (_, r) =>
      visitOrder(groups[0], r + 1, 1)
        .map((c) => c.format)
        .join(),
    ),
  );
  assert.ok(orders.size > 1, 'rounds differ');
  assert.deepStrictEqual(visitOrder(groups[0], 3, 1), visitOrder(groups[0], 3, 1), 'and repeat with the seed');
});

test("a cell measures at least `waves` requests per connection at the link's rate", () => {
  const plan = checkLoadPlan(PLAN);
  // 100 connections × ~50 KB at 1 Mbit/s: ~40 s per request, so 3 waves are ~2 minutes.
  const slow = cellTiming(plan, 50_000, 1);
  assert.ok(slow.per_request_s > 39 && slow.per_request_s < 42, String(slow.per_request_s));
  assert.equal(slow.window_s, Math.ceil(3 * slow.per_request_s));
  assert.equal(slow.warmup_s, Math.ceil(slow.per_request_s));
  // wrk's timeout is twice its whole run: no late answer is dropped from its latencies.
  assert.equal(slow.wrk_seconds, slow.warmup_s + slow.window_s + 1);
  assert.equal(slow.timeout_s, 2 * slow.wrk_seconds, 'no request times out within the run');
  const fast = cellTiming(plan, 500, 100);
  assert.deepStrictEqual([fast.window_s, fast.warmup_s], [30, 5]);
});

test('an open_loop block is checked key by key, with defaults for what it leaves out', () => {
  const open = (openLoop) => checkLoadPlan({ ...PLAN, open_loop: openLoop });
  const settings = open({ p99_target_ms: 250 }).open_loop;
  assert.equal(settings.max_send_lag_ms, 25, 'a tenth of the target');
  assert.deepStrictEqual(
    [settings.window_s, settings.precision, settings.generators, settings.protocol],
    [10, 0.1, 1, 'http1.1'],
  );
  assert.equal(checkLoadPlan(PLAN).open_loop, undefined, 'closed loop only without it');
  assert.throws(() => open({}), /"open_loop.p99_target_ms" is a number from 1/);
  assert.throws(() => open([]), /"open_loop" is an object/);
  assert.throws(() => open({ p99_target_ms: 100, window: 3 }), /"open_loop" has no setting "window"/);
  assert.throws(() => open({ p99_target_ms: 100, window_s: 2.5 }), /"open_loop.window_s" is a whole number/);
  assert.throws(() => open({ p99_target_ms: 100, generators: 0 }), /"open_loop.generators"/);
  assert.throws(() => open({ p99_target_ms: 100, precision: 0 }), /"open_loop.precision"/);
  assert.throws(
    () => open({ p99_target_ms: 100, min_per_s: 50, max_per_s: 10 }),
    /"open_loop.min_per_s" must be below/,
  );
  assert.throws(() => open({ p99_target_ms: 100, start_per_s: 1e9 }), /"open_loop.start_per_s"/);
  assert.equal(open({ p99_target_ms: 100, protocol: 'h2' }).open_loop.protocol, 'h2');
  assert.throws(
    () => open({ p99_target_ms: 100, protocol: 'h3' }),
    /"open_loop.protocol" is one of http1.1, http1.1-tls, h2/,
  );
  assert.equal(loadLoadPlan('testbed-open-loop').open_loop.p99_target_ms, 500);
});

// The constant-rate figures and the search over rates. The results are Vegeta's own, recorded on
// this machine against the study server (fixtures/vegeta: `vegeta encode --to json` of real
// attacks, and `vegeta report -type=json` of the same attacks): two generators at 20 requests/s
// each (g1, g2), one held to a single worker while asked for 400/s (it could not send them), an
// unknown format (400 answers) and a port nobody listens on (connections refused).

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  addToHistogram,
  emptyHistogram,
  histogramPercentileMs,
  mergeHistograms,
  nextRate,
  parseVegetaResults,
  probeVerdict,
  timestampNs,
  windowFigures,
} from '../open-loop.js';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'vegeta');
const results = (...files) => files.flatMap((f) => parseVegetaResults(readFileSync(join(FIXTURES, f), 'utf8')));
const vegetaReport = (file) => JSON.parse(readFileSync(join(FIXTURES, file), 'utf8'));
/** The exact nearest-rank percentile of the results' own latencies (ms), to hold the histogram to. */
const exact = (rows, p) => {
  const sorted = rows.map((r) => r.latency_ns / 1e6).sort((a, b) => a - b);
  return sorted[Math.ceil((p / 100) * sorted.length) - 1];
};
const within = (value, expected, share, what) =>
  assert.ok(Math.abs(value / expected - 1) <= share, `${what}: ${value} against ${expected}`);
const VERDICT = { p99TargetMs: 100, maxSendLagMs: 10 };

test("Vegeta's times parse to the nanosecond", () => {
  assert.equal(timestampNs('2026-11-25T23:31:07.827961028Z'), 1795649467827961028n);
  assert.equal(timestampNs('2026-11-25T23:31:07Z'), 1795649467000000000n);
  assert.equal(timestampNs('2026-11-25T23:31:07.5+01:00'), 1795645867500000000n);
  assert.throws(() => timestampNs('yesterday'), /RFC 3339/);
  assert.throws(() => parseVegetaResults('{"seq":1}\n'), /not a Vegeta result/);
  assert.throws(() => parseVegetaResults('Requests [total]\n'), /vegeta encode --to json/);
});

test("one generator: what it sent, and percentiles as exact as the histogram's 1 %, beside Vegeta's report", () => {
  const rows = results('g1.json');
  const figures = windowFigures(rows, { ratePerS: 20, windowS: 2 });
  const own = vegetaReport('report-g1.json');
  assert.equal(figures.sent, own.requests);
  assert.equal(figures.sent_per_s, 20);
  assert.equal(figures.ok, own.status_codes['200']);
  assert.deepStrictEqual([figures.errors, figures.non_2xx], [0, 0]);
  for (const p of [50, 90, 99]) {
    const value = figures.service_latency_ms[`p${p}`];
    const truth = exact(rows, p);
    assert.ok(value >= truth && value <= truth * 1.01, `p${p}: ${value} against ${truth}`);
  }
  within(figures.service_latency_ms.p50, own.latencies['50th'] / 1e6, 0.05, "Vegeta's p50");
  within(figures.service_latency_ms['p99.9'], own.latencies.max / 1e6, 0.01, "Vegeta's max");
  // From the due time, never less than from the send: the wait before a late send counts.
  for (const p of [50, 90, 99]) assert.ok(figures.latency_ms[`p${p}`] >= figures.service_latency_ms[`p${p}`]);
  assert.ok(figures.send_lag_ms.p50 >= 0 && figures.send_lag_ms.p50 < 5, JSON.stringify(figures.send_lag_ms));
});

test("two generators' results merge: each on its own schedule, one histogram, the rate is their sum", () => {
  const merged = windowFigures(results('g1.json', 'g2.json'), { ratePerS: 40, windowS: 2 });
  const own = vegetaReport('report-g1-g2.json');
  assert.equal(merged.sent, own.requests);
  assert.equal(merged.sent_per_s, 40);
  assert.deepStrictEqual(
    merged.generators.map((g) => [g.attack, g.asked_per_s, g.sent]),
    [
      ['g1', 20, 40],
      ['g2', 20, 40],
    ],
  );
  const one = windowFigures(results('g1.json'), { ratePerS: 20, windowS: 2 });
  const two = windowFigures(results('g2.json'), { ratePerS: 20, windowS: 2 });
  assert.deepStrictEqual(merged.histogram, mergeHistograms([one.histogram, two.histogram]));
  const rows = results('g1.json', 'g2.json');
  const p99 = exact(rows, 99);
  assert.ok(merged.service_latency_ms.p99 >= p99 && merged.service_latency_ms.p99 <= p99 * 1.01);
  within(merged.service_latency_ms.p50, own.latencies['50th'] / 1e6, 0.05, "Vegeta's p50");
});

test('a rate the generator could not send is reported as such, not as the server failing it', () => {
  // One worker asked for 400 requests/s: it sent what one connection could, each request later than the last.
  const figures = windowFigures(results('one-worker-400.json'), { ratePerS: 400, windowS: 2 });
  const own = vegetaReport('report-slow.json');
  assert.equal(figures.sent, own.requests);
  assert.ok(figures.sent_share < 0.5, String(figures.sent_share));
  assert.equal(figures.generator_kept_up, false);
  assert.ok(figures.send_lag_ms.p99 > 500, JSON.stringify(figures.send_lag_ms));
  // Vegeta's own latencies leave the lag out; from the due time they include it.
  assert.ok(figures.latency_ms.p99 > 10 * figures.service_latency_ms.p99);
  within(figures.service_latency_ms.p50, own.latencies['50th'] / 1e6, 0.05, "Vegeta's p50");
  assert.equal(probeVerdict(figures, VERDICT), 'generator-limited');
  // Errors still count against the server whatever the generator did.
  assert.equal(probeVerdict({ ...figures, errors: 1 }, VERDICT), 'not sustained');
});

test('errors and non-2xx are counted apart, and either fails the rate', () => {
  const bad = windowFigures(results('bad-format.json'), { ratePerS: 10, windowS: 1 });
  assert.deepStrictEqual([bad.sent, bad.non_2xx, bad.errors, bad.ok], [10, 10, 0, 0]);
  assert.deepStrictEqual(bad.status_codes, { 400: 10 });
  assert.equal(probeVerdict(bad, VERDICT), 'not sustained');
  const refused = windowFigures(results('refused.json'), { ratePerS: 10, windowS: 1 });
  assert.deepStrictEqual([refused.errors, refused.non_2xx], [10, 0]);
  assert.deepStrictEqual(refused.error_kinds, { 'connection refused': 10 });
  assert.equal(probeVerdict(refused, VERDICT), 'not sustained');
  const fine = windowFigures(results('g1.json'), { ratePerS: 20, windowS: 2 });
  assert.equal(probeVerdict(fine, VERDICT), 'sustained');
  assert.equal(probeVerdict(fine, { p99TargetMs: 1, maxSendLagMs: 1000 }), 'not sustained');
  // p99 over the target: the generator is blamed only where the answers, from their send, were in time.
  const late = { ...fine, latency_ms: { p99: 150 }, send_lag_ms: { p99: 60 } };
  assert.equal(probeVerdict({ ...late, service_latency_ms: { p99: 40 } }, VERDICT), 'generator-limited');
  assert.equal(probeVerdict({ ...late, service_latency_ms: { p99: 140 } }, VERDICT), 'not sustained');
  assert.equal(
    probeVerdict({ ...late, service_latency_ms: { p99: 40 } }, { ...VERDICT, maxSendLagMs: 100 }),
    'not sustained',
  );
});

test('the histogram: percentiles never below the truth, at most 1 % above; merging adds counts', () => {
  const a = emptyHistogram();
  const b = emptyHistogram();
  for (let ms = 1; ms <= 1000; ms++) addToHistogram(ms % 2 ? a : b, ms * 1e6);
  const both = mergeHistograms([a, b]);
  for (const [p, truth] of [
    [50, 500],
    [90, 900],
    [99, 990],
    [100, 1000],
  ]) {
    const value = histogramPercentileMs(both, p);
    assert.ok(value >= truth && value <= truth * 1.01, `p${p}: ${value}`);
  }
  assert.equal(histogramPercentileMs(emptyHistogram(), 50), null);
  assert.throws(() => mergeHistograms([{ ...a, growth: 1.1 }]), /other buckets/);
});

const SEARCH = { start_per_s: 100, min_per_s: 1, max_per_s: 10_000, precision: 0.1, max_probes: 20 };
/**
 * Runs the search against a server that sustains up to `capacity`, a generator that sends up to
 * `generator`, and a link that carries up to `link` requests/s (it fills as the rate nears it).
 */
function search(capacity, { generator = Infinity, link = Infinity, settings = SEARCH } = {}) {
  const probes = [];
  for (;;) {
    const step = nextRate(probes, settings);
    if (step.done) return { ...step, asked: probes.map((p) => p.rate_per_s) };
    const rate = step.next;
    const verdict =
      rate > generator ? 'generator-limited' : rate <= Math.min(capacity, link) ? 'sustained' : 'not sustained';
    probes.push({ rate_per_s: rate, verdict, link_utilization: Math.min(1, rate / link) });
  }
}

test('the search brackets the highest sustained rate to its precision, from above or below', () => {
  for (const capacity of [7, 99, 100, 101, 333, 2500]) {
    const result = search(capacity);
    assert.equal(result.bounded_by, 'server', `${capacity}: ${JSON.stringify(result)}`);
    assert.ok(result.sustained_per_s <= capacity && result.ceiling_per_s > capacity, JSON.stringify(result));
    assert.ok(result.ceiling_per_s / result.sustained_per_s <= 1.1, JSON.stringify(result));
    assert.ok(result.probes <= 12, JSON.stringify(result));
  }
  assert.deepStrictEqual(search(333).asked.slice(0, 3), [100, 200, 400], 'doubles from the start');
  assert.deepStrictEqual(search(30).asked.slice(0, 3), [100, 50, 25], 'halves from the start');
});

test('a rate the link cannot carry bounds the search as the link, not the server', () => {
  // 10 Books at 10 Mbit/s: the link carries some 250 requests/s, the server many more.
  const linkBound = search(5000, { link: 250 });
  assert.equal(linkBound.bounded_by, 'link', JSON.stringify(linkBound));
  assert.ok(linkBound.sustained_per_s <= 250 && linkBound.ceiling_per_s > 250, JSON.stringify(linkBound));
  // A server slower than its link is the server's bound, however full the link is below it.
  const serverBound = search(250, { link: 5000 });
  assert.equal(serverBound.bounded_by, 'server', JSON.stringify(serverBound));
  // A probe without link figures (a generator-limited one, or an older record) is no link's.
  assert.equal(search(250).bounded_by, 'server');
});

test("the search's other ends: the generator, the bounds and the probe budget", () => {
  const generator = search(1000, { generator: 300 });
  assert.equal(generator.bounded_by, 'generator');
  assert.ok(generator.sustained_per_s <= 300 && generator.ceiling_per_s > 300, JSON.stringify(generator));
  const everything = search(Infinity);
  assert.deepStrictEqual([everything.bounded_by, everything.sustained_per_s], ['max_per_s', 10_000]);
  const nothing = search(0.5);
  assert.deepStrictEqual([nothing.bounded_by, nothing.sustained_per_s], ['min_per_s', null]);
  const budget = search(333, { settings: { ...SEARCH, max_probes: 3 } });
  assert.deepStrictEqual([budget.bounded_by, budget.probes, budget.sustained_per_s], ['max_probes', 3, 200]);
  // Asked rates are rounded to 3 significant digits and clamped to the bounds.
  assert.deepStrictEqual(nextRate([], { ...SEARCH, start_per_s: 123.456 }), { next: 123 });
  assert.deepStrictEqual(nextRate([], { ...SEARCH, start_per_s: 0.01 }), { next: 1 });
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { breakEvenTableRows, breakEvens, checkCounts, speedText } from '../compression.js';
import { caseId } from '#common/cell.js';

const MBIT = 1e6;
const cell = (compression, level, network, median, bytes, compressMs = null) => {
  const c = {
    object: 'books',
    format: 'json',
    decoder: 'json',
    compression,
    level,
    count: 1000,
    scenario: 1,
    cm: 0,
    network,
  };
  return {
    case_id: caseId(c),
    cell: c,
    stats: { median },
    samples: [1, 2, 3].map(() => ({
      encoded_body_size: bytes,
      server_compress_ms: compressMs ?? undefined,
      server_compress_covers: compressMs === null ? undefined : 'whole body',
    })),
  };
};
const pair = (a, b, ratio, [low, high]) => ({
  dimension: 'compression',
  a: a.cell,
  b: b.cell,
  a_id: a.case_id,
  b_id: b.case_id,
  ratio,
  ci_low: low,
  ci_high: high,
  rounds: 10,
});

test('break-even bandwidth: bytes saved × 8 over what compressing costs unthrottled, with its interval', () => {
  // Unthrottled: no compression 10 ms, Brotli 12 ms (2 ms dearer, 1.5 of them compressing); 100,000 bytes saved.
  const none = cell('none', null, 'unthrottled', 10, 150_000);
  const br = cell('br', 11, 'unthrottled', 12, 50_000, 1.5);
  // r = 10/12 with CI [0.8, 0.9]: Δ = 12 × (1 − r) ∈ [1.2, 2.4] ms.
  const [row] = breakEvens([none, br], [pair(none, br, 10 / 12, [0.8, 0.9])], {});
  assert.equal(row.saved_bytes, 100_000);
  assert.ok(Math.abs(row.delta_ms - 2) < 1e-9);
  assert.ok(Math.abs(row.delta_low_ms - 1.2) < 1e-9 && Math.abs(row.delta_high_ms - 2.4) < 1e-9);
  assert.ok(Math.abs(row.break_even_mbps - (100_000 * 8) / 2e-3 / MBIT) < 1e-9, 'B* = 800,000 bit / 2 ms = 400 Mbit/s');
  assert.ok(
    Math.abs(row.low_mbps - 800_000 / 2.4e-3 / MBIT) < 1e-6 && Math.abs(row.high_mbps - 800_000 / 1.2e-3 / MBIT) < 1e-6,
  );
  assert.equal(row.compress_ms, 1.5);
  assert.ok(Math.abs(row.rest_ms - 0.5) < 1e-9);
  assert.deepStrictEqual(row.checks, []);
});

test('Δ comes from the medians the ratio was computed on, so it lies inside its own interval', () => {
  // The compressed cell stopped early (its margins settled) while no compression ran on and
  // drifted down to 8 ms: the cells' own medians (8, 12) say Δ = 4 ms, the matched rounds 10 and 12.
  const none = cell('none', null, 'unthrottled', 8, 150_000);
  const br = cell('br', 11, 'unthrottled', 12, 50_000);
  const [row] = breakEvens([none, br], [{ ...pair(none, br, 10 / 12, [0.8, 0.9]), median_a: 10, median_b: 12 }], {});
  assert.ok(Math.abs(row.delta_ms - 2) < 1e-9);
  assert.ok(row.delta_low_ms <= row.delta_ms && row.delta_ms <= row.delta_high_ms);
  assert.deepStrictEqual([row.none_ms, row.compressed_ms], [10, 12]);
});

test('the break-even is checked against the cells measured on slower links', () => {
  const none = cell('none', null, 'unthrottled', 10, 150_000);
  const gzip = cell('gzip', 6, 'unthrottled', 10.5, 60_000);
  const noneSlow = cell('none', null, '10mbit', 130, 150_000);
  const gzipSlow = cell('gzip', 6, '10mbit', 60, 60_000);
  const noneFast = cell('none', null, 'gigabit', 11.2, 150_000);
  const gzipFast = cell('gzip', 6, 'gigabit', 12.2, 60_000);
  const comparisons = [
    pair(none, gzip, 10 / 10.5, [0.93, 0.97]),
    pair(noneSlow, gzipSlow, 130 / 60, [2.1, 2.2]),
    pair(noneFast, gzipFast, 11.2 / 12.2, [0.9, 0.94]),
  ];
  const networks = { '10mbit': { downBps: 10 * MBIT, rttMs: 0 }, gigabit: { downBps: 10_000 * MBIT, rttMs: 0 } };
  const [row] = breakEvens([none, gzip, noneSlow, gzipSlow, noneFast, gzipFast], comparisons, networks);
  // 90,000 bytes saved for 0.5 ms (CI 10.5 × (1 − [0.97, 0.93]) = 0.315–0.735 ms): pays below 1,440 Mbit/s (980–2,286).
  assert.ok(Math.abs(row.break_even_mbps - 1440) < 1e-6);
  assert.deepStrictEqual(
    row.checks.map((c) => [c.network, c.predicted, c.measured, c.outcome]),
    [
      ['10mbit', 'compressed', 'compressed', 'holds'],
      ['gigabit', 'none', 'none', 'holds'],
    ],
  );
  assert.deepStrictEqual(checkCounts([row]), { holds: 2, contradicted: 0, open: 0, n: 2 });
  // At the run's δ: with 10 % the gigabit cells' CI (0.90–0.94) lies within ±δ — as fast — which
  // contradicts the prediction that uncompressed is faster there.
  const [wide] = breakEvens([none, gzip, noneSlow, gzipSlow, noneFast, gzipFast], comparisons, networks, {
    delta: 0.1,
  });
  assert.deepStrictEqual(
    wide.checks.map((c) => [c.measured, c.outcome]),
    [
      ['compressed', 'holds'],
      ['as fast', 'contradicted'],
    ],
  );
  // Had the 10 Mbit/s cells found no compression faster, the check would say so.
  const contradicted = breakEvens(
    [none, gzip, noneSlow, gzipSlow],
    [comparisons[0], pair(noneSlow, gzipSlow, 0.5, [0.45, 0.55])],
    networks,
  );
  assert.equal(contradicted[0].checks[0].outcome, 'contradicted');
  const { header, rows } = breakEvenTableRows([row]);
  assert.equal(header.length, rows[0].length);
  assert.match(
    rows[0].join(' | '),
    /JSON with GZIP \| 90000 \| 0\.50 \(0\.32 to 0\.73\) \| — \| — \| 1440 Mbit\/s \(980 Mbit\/s – 2286 Mbit\/s\) \| 10 Mbit\/s: compressed 2\.17× faster; predicted compressed → holds/,
  );
});

test('compressing that costs nothing pays at any speed; saving nothing never pays', () => {
  const none = cell('none', null, 'unthrottled', 10, 1_000);
  const free = cell('zstd', 3, 'unthrottled', 9, 400);
  const useless = cell('deflate', 6, 'unthrottled', 11, 1_020);
  const rows = breakEvens(
    [none, free, useless],
    [pair(none, free, 10 / 9, [1.08, 1.14]), pair(none, useless, 10 / 11, [0.88, 0.93])],
    {},
  );
  assert.equal(rows[0].break_even_mbps, Infinity);
  assert.equal(speedText(rows[0].break_even_mbps), 'any speed');
  assert.equal(rows[1].break_even_mbps, 0);
  assert.equal(speedText(rows[1].break_even_mbps), 'never');
});

// Where compression pays: for every compression and level measured against no compression,
// the break-even bandwidth — the link speed below which compressing is faster end to end — from
// the unthrottled cells, checked against the cells measured on slower links.
//
// The model. On a link of B bit/s, a request's time is what it takes without any link limit
// plus its bytes over the link: T(B) ≈ T(∞) + bytes × 8 / B. Compressing costs
// Δ = T_c(∞) − T_none(∞) (compress on the server, decompress in the browser, less a shorter
// transfer on loopback) and saves (bytes_none − bytes_c) × 8 / B, so it pays below
//     B* = (bytes_none − bytes_c) × 8 / Δ.
// Δ ≤ 0 means compressing pays at every speed (the costs hide inside the loopback transfer it
// shortens); no bytes saved means it never pays. The interval of B* follows from the 95% CI of
// the unthrottled ratio (round bootstrap): Δ = T_c × (1 − r) with r = T_none / T_c. The model
// leaves out TCP's slow start and the RTT, which add round trips for the larger body; the
// check against measured cells shows where that matters.
//
// Δ is split into the server's compress time (Server-Timing, scaled to the whole body where it
// covered only its head) and the rest: the browser's decompression plus whatever else differs.

import { inFamily } from '#common/cell.js';
import { configurationWords, leaning, network, timesWords } from '#common/answer-words.js';
import { DEFAULT_DELTA, VERDICTS, verdictOf } from '#common/comparison.js';
import { medianOrNull } from '#common/stats.js';
import { wholeBodyMs } from '#common/weighted-index.js';

const MBIT = 1e6;

/** A cell's figures the model needs: body bytes on the wire and the server's compress time. */
function cellFigures(cell) {
  return {
    bytes: medianOrNull(cell.samples.map((s) => s.encoded_body_size)),
    compress_ms: medianOrNull(
      cell.samples.map((s) => wholeBodyMs(s.server_compress_ms, s.server_compress_covers, s.encoded_body_size)),
    ),
  };
}

/** The situation of a comparison without its network: what the break-even is computed for. */
const configurationKey = (c) => [c.object, c.format, c.decoder, c.count, c.compression, c.level].join('/');

/**
 * What a measured comparison (a = none, b = compressed) says, certain (its group settled it):
 * 'compressed' or 'none' (certainly faster), 'as fast', or null while it can't tell yet. A
 * comparison stored without `settled` (a run made before it was recorded) is read by its CI.
 */
function measuredWinner(comparison, delta) {
  if (comparison.settled === false) return null;
  const verdict = comparison.settled ? comparison.verdict : verdictOf(comparison, delta, comparison.margin_rule ?? 1);
  return (
    {
      [VERDICTS.B_FASTER]: 'compressed',
      [VERDICTS.A_FASTER]: 'none',
      [VERDICTS.EQUIVALENT]: 'as fast',
    }[verdict] ?? null
  );
}

/**
 * The break-even bandwidth of every compression and level measured unthrottled against no
 * compression (scenario 1), and its check against each slower network measured.
 *
 * @param cells the report's cells ({case_id, cell, samples, stats})
 * @param comparisons the report's comparisons (answers.js comparisons())
 * @param networks the run's network profiles (run.json's `networks`: name → {downBps, rttMs, …})
 * @param options {delta}: the run's δ, at which a measured comparison names a faster side
 * @returns [{object, format, decoder, count, compression, level, none_ms, compressed_ms, delta_ms,
 *   delta_low_ms, delta_high_ms, saved_bytes, compress_ms, rest_ms, break_even_mbps, low_mbps,
 *   high_mbps, checks: [{network, rate_mbps, rtt_ms, predicted, measured, ratio, ci_low, ci_high, outcome}]}]
 *   break_even_mbps is Infinity when compressing pays at every speed and 0 when it never pays.
 */
export function breakEvens(cells, comparisons, networks = {}, { delta: margin = DEFAULT_DELTA } = {}) {
  const byId = new Map(cells.map((c) => [c.case_id, c]));
  const againstNone = comparisons.filter(
    (c) => c.dimension === 'compression' && inFamily(c.a, 'formats') && c.a.compression === 'none',
  );
  const measuredElsewhere = new Map();
  for (const c of againstNone.filter((x) => x.a.network !== 'unthrottled')) {
    const key = configurationKey(c.b);
    if (!measuredElsewhere.has(key)) measuredElsewhere.set(key, []);
    measuredElsewhere.get(key).push(c);
  }
  return againstNone
    .filter((c) => c.a.network === 'unthrottled')
    .map((c) => {
      const none = byId.get(c.a_id);
      const compressed = byId.get(c.b_id);
      const [n, z] = [cellFigures(none), cellFigures(compressed)];
      // The times the report shows (answers.js onOneScale: the fastest's median × each one's ratio
      // to it), else the medians the pair's ratio and CI were computed on (the rounds both were
      // measured in), so that Δ and its interval come from one estimate.
      const tNone = c.time_a_ms ?? c.median_a ?? none.stats.median;
      const tCompressed = c.time_b_ms ?? c.median_b ?? compressed.stats.median;
      const delta = tCompressed - tNone;
      // r = T_none / T_c, so Δ = T_c (1 − r): the CI's high ratio gives the low Δ.
      const [deltaLow, deltaHigh] = [tCompressed * (1 - c.ci_high), tCompressed * (1 - c.ci_low)];
      const saved = n.bytes !== null && z.bytes !== null ? n.bytes - z.bytes : null;
      const speed = (ms) =>
        saved === null ? null : saved <= 0 ? 0 : ms <= 0 ? Infinity : (saved * 8) / (ms / 1000) / MBIT;
      const row = {
        object: c.b.object,
        format: c.b.format,
        decoder: c.b.decoder,
        count: c.b.count,
        compression: c.b.compression,
        level: c.b.level,
        none_ms: tNone,
        compressed_ms: tCompressed,
        delta_ms: delta,
        delta_low_ms: deltaLow,
        delta_high_ms: deltaHigh,
        saved_bytes: saved,
        compress_ms: z.compress_ms,
        rest_ms: z.compress_ms === null ? null : delta - z.compress_ms,
        break_even_mbps: speed(delta),
        low_mbps: speed(deltaHigh),
        high_mbps: speed(deltaLow),
      };
      row.checks = (measuredElsewhere.get(configurationKey(c.b)) ?? [])
        .map((m) => check(row, m, networks[m.a.network], margin))
        .sort((x, y) => (x.rate_mbps ?? Infinity) - (y.rate_mbps ?? Infinity));
      return row;
    });
}

/** What the break-even predicts on one measured network, and whether the measured comparison agrees. */
function check(row, comparison, profile, margin) {
  const rate = Number.isFinite(profile?.downBps) ? profile.downBps / MBIT : null;
  let predicted = null;
  if (rate !== null && row.low_mbps !== null) {
    if (rate < row.low_mbps) predicted = 'compressed';
    else if (rate > row.high_mbps) predicted = 'none';
    else predicted = 'too close to call';
  }
  const measured = measuredWinner(comparison, margin);
  // A side predicted and the two certainly as fast: the prediction fails; too close to call and
  // certainly as fast: it holds.
  const decided = (side) => side === 'compressed' || side === 'none';
  let outcome = 'open';
  if (decided(predicted) && decided(measured)) outcome = predicted === measured ? 'holds' : 'contradicted';
  else if (decided(predicted) && measured === 'as fast') outcome = 'contradicted';
  else if (predicted === 'too close to call' && measured === 'as fast') outcome = 'holds';
  return {
    network: comparison.a.network,
    rate_mbps: rate,
    rtt_ms: profile?.rttMs ?? null,
    predicted,
    measured,
    ratio: comparison.ratio,
    ci_low: comparison.ci_low,
    ci_high: comparison.ci_high,
    outcome,
  };
}

/** How the checks came out, over all rows: {holds, contradicted, open, n}. */
export function checkCounts(rows) {
  const checks = rows.flatMap((r) => r.checks);
  const count = (outcome) => checks.filter((c) => c.outcome === outcome).length;
  return { holds: count('holds'), contradicted: count('contradicted'), open: count('open'), n: checks.length };
}

/** The report's section of the break-even table, which the opening points to. */
export const BREAK_EVEN_HEADING = 'Where compression pays: break-even bandwidth';

/** A network as the table names it: "10 Mbit/s", "WebPageTest LTE". */
const networkWords = (name) => network(name).replace(/^(at|on) /, '');

/** A speed in Mbit/s as a reader sees it. */
export function speedText(mbps) {
  if (mbps === null || mbps === undefined || Number.isNaN(mbps)) return '—';
  if (mbps === Infinity) return 'any speed';
  if (mbps === 0) return 'never';
  return mbps >= 100
    ? `${mbps.toFixed(0)} Mbit/s`
    : mbps >= 1
      ? `${mbps.toFixed(1)} Mbit/s`
      : `${(mbps * 1000).toFixed(0)} kbit/s`;
}

/** The name of a row's configuration, as the opening says it: "JSON with Brotli 11", "JSON with GZIP". */
export const configurationName = (row) => configurationWords({ ...row, scenario: 1, cm: 0 });

/** The break-even table as a header and rows of text. */
export function breakEvenTableRows(rows) {
  const ms = (v) => (Number.isFinite(v) ? v.toFixed(2) : '—');
  const range = (low, high) => (Number.isFinite(low) && Number.isFinite(high) ? ` (${ms(low)} to ${ms(high)})` : '');
  const speeds = (r) =>
    Number.isNaN(r.low_mbps) || Number.isNaN(r.high_mbps) || r.low_mbps === null
      ? speedText(r.break_even_mbps)
      : `${speedText(r.break_even_mbps)} (${speedText(r.low_mbps)} – ${speedText(r.high_mbps)})`;
  const header = [
    'objects',
    'N',
    'configuration',
    'bytes saved',
    'cost unthrottled ms (95 % CI)',
    'compress ms',
    'rest ms',
    'pays below (95 % CI)',
    'measured on slower links',
  ];
  // c.ratio is T_none / T_c: read as "compressed k× faster" (or slower), whichever it is.
  const side = { compressed: 'compressed', none: 'uncompressed', 'too close to call': 'too close to call' };
  // c.ratio is T_none / T_c: the compressed one's time over the uncompressed one's is 1 / c.ratio.
  const measuredText = (c) =>
    c.measured === 'as fast'
      ? 'as fast'
      : c.measured === null
        ? `can't tell yet, ${leaning(1 / c.ratio, 0.05)}`
        : timesWords(1 / c.ratio);
  const checkText = (c) =>
    `${networkWords(c.network)}: compressed ${measuredText(c)}; predicted ${side[c.predicted] ?? '—'} → ${c.outcome}`;
  return {
    header,
    rows: rows.map((r) => [
      r.object,
      r.count,
      configurationName(r),
      r.saved_bytes === null ? '—' : String(Math.round(r.saved_bytes)),
      `${ms(r.delta_ms)}${range(r.delta_low_ms, r.delta_high_ms)}`,
      ms(r.compress_ms),
      ms(r.rest_ms),
      speeds(r),
      r.checks.length ? r.checks.map(checkText).join('; ') : '—',
    ]),
  };
}

/** Where the chart puts speeds it cannot draw: "any speed" at the right edge, "never" at the left. */
export const CHART_RANGE_MBPS = Object.freeze({ min: 0.1, max: 10_000 });

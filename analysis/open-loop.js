// The load testbed's constant-rate (open-loop) figures, from Vegeta's results as `vegeta encode
// --to json` writes them (one JSON object a line: attack, seq, code, timestamp, latency, error…),
// and the search over rates that finds the highest rate a cell sustains.
//
// Latency from the intended send time. Vegeta's constant pacer sends its request number k (from
// 0) at began + (k + 1) / rate, and stamps each result with the time the request actually left
// (`timestamp`) and the time to its whole answer from then (`latency`). When the generator falls
// behind, a request leaves late and the wait before it would be lost (coordinated omission); so
// each request's latency here is counted from when it was due: began + (seq + 1) / rate, where
// `began` is the latest start consistent with every result (no request leaves before it is due):
// the minimum over results of timestamp − (seq + 1) / rate. How late requests left (the send lag)
// is kept too: it says whether the machine generated the rate asked, apart from the server.
//
// Several generators (one a host, each with its own attack name, `vegeta attack -name`) attack
// with equal shares of the rate; their results are merged by attack name, each with its own
// schedule, and one histogram takes them all.
//
// Percentiles come from a histogram with logarithmic buckets (1 % wide, from 1 µs): mergeable
// across generators and runs, and kept with the figures, so that they can be recomputed.

/** A bucket's upper edge is this factor above its lower one: percentiles are exact to 1 %. */
export const BUCKET_GROWTH = 1.01;
/** The histogram's lowest bucket starts here (nanoseconds). */
const HISTOGRAM_FLOOR_NS = 1000;
const LOG_GROWTH = Math.log(BUCKET_GROWTH);
/** A generator that sent fewer than this share of the requests asked did not generate the rate. */
export const MIN_SENT_SHARE = 0.98;
/** The percentiles reported. */
export const PERCENTILES = Object.freeze([50, 90, 99, 99.9]);

/** Nanoseconds since the epoch, as a BigInt, from an RFC 3339 time with up to 9 fraction digits. */
export function timestampNs(text) {
  const match = /^(.*T\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d)$/.exec(text);
  if (!match) throw new Error(`not an RFC 3339 time: ${text}`);
  const seconds = Date.parse(`${match[1]}${match[3]}`);
  if (!Number.isFinite(seconds)) throw new Error(`not an RFC 3339 time: ${text}`);
  return BigInt(seconds) * 1_000_000n + BigInt((match[2] ?? '').padEnd(9, '0'));
}

/** Vegeta's JSON-encoded results (one object a line) as plain records; a line that is not one is refused. */
export function parseVegetaResults(text) {
  const results = [];
  for (const [index, line] of text.split('\n').entries()) {
    if (!line.trim()) continue;
    let r;
    try {
      r = JSON.parse(line);
    } catch {
      throw new Error(`line ${index + 1} is not JSON: is this \`vegeta encode --to json\` output?`);
    }
    if (!Number.isInteger(r.seq) || typeof r.timestamp !== 'string' || !Number.isFinite(r.latency)) {
      throw new Error(`line ${index + 1} is not a Vegeta result (seq, timestamp, latency)`);
    }
    results.push({
      attack: r.attack ?? '',
      seq: r.seq,
      code: r.code,
      sent_ns: timestampNs(r.timestamp),
      latency_ns: r.latency,
      error: r.error ?? '',
    });
  }
  return results;
}

/** An empty latency histogram: bucket index → count. */
export const emptyHistogram = () => ({ growth: BUCKET_GROWTH, floor_ns: HISTOGRAM_FLOOR_NS, counts: {} });

const bucketOf = (ns) => (ns <= HISTOGRAM_FLOOR_NS ? 0 : Math.ceil(Math.log(ns / HISTOGRAM_FLOOR_NS) / LOG_GROWTH));
const upperEdgeNs = (bucket) => HISTOGRAM_FLOOR_NS * BUCKET_GROWTH ** bucket;

export function addToHistogram(histogram, ns) {
  const bucket = bucketOf(ns);
  histogram.counts[bucket] = (histogram.counts[bucket] ?? 0) + 1;
}

/** Histograms added together (they must share their buckets). */
export function mergeHistograms(histograms) {
  const merged = emptyHistogram();
  for (const h of histograms) {
    if (h.growth !== BUCKET_GROWTH || h.floor_ns !== HISTOGRAM_FLOOR_NS)
      throw new Error('histograms with other buckets cannot be merged');
    for (const [bucket, count] of Object.entries(h.counts))
      merged.counts[bucket] = (merged.counts[bucket] ?? 0) + count;
  }
  return merged;
}

/**
 * The value at percentile p (0–100) in milliseconds: the upper edge of the bucket holding the
 * ⌈p/100 · n⌉-th smallest value (so never below the true value, at most 1 % above); null when empty.
 */
export function histogramPercentileMs(histogram, p) {
  const buckets = Object.entries(histogram.counts)
    .map(([b, c]) => [Number(b), c])
    .sort((a, b) => a[0] - b[0]);
  const total = buckets.reduce((s, [, c]) => s + c, 0);
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil((p / 100) * total));
  let seen = 0;
  for (const [bucket, count] of buckets) {
    seen += count;
    if (seen >= rank) return upperEdgeNs(bucket) / 1e6;
  }
  return upperEdgeNs(buckets.at(-1)[0]) / 1e6;
}

/** Percentiles no higher than the largest value seen (a bucket's upper edge can be above it). */
const capped = (percentiles, maxMs) =>
  Object.fromEntries(Object.entries(percentiles).map(([k, v]) => [k, v === null ? null : Math.min(v, maxMs)]));
const percentilesMs = (histogram) =>
  Object.fromEntries(PERCENTILES.map((p) => [`p${p}`, histogramPercentileMs(histogram, p)]));

const largest = (values) => values.reduce((a, b) => Math.max(a, b), -Infinity);

/** Exact percentile (nearest rank) of plain numbers. */
function nearestRank(values, p) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * One generator's results, with their due times: began (the latest start consistent with every
 * result) + (seq + 1) / rate.
 */
function scheduled(results, ratePerS) {
  const intervalNs = 1e9 / ratePerS;
  // Relative to the first result, in plain numbers (nanoseconds fit a double to within a few ns).
  const origin = results.reduce((min, r) => (r.sent_ns < min ? r.sent_ns : min), results[0].sent_ns);
  const sent = results.map((r) => Number(r.sent_ns - origin));
  let began = Infinity;
  results.forEach((r, i) => {
    began = Math.min(began, sent[i] - (r.seq + 1) * intervalNs);
  });
  return results.map((r, i) => {
    const due = began + (r.seq + 1) * intervalNs;
    return { ...r, lag_ns: sent[i] - due, from_due_ns: sent[i] - due + r.latency_ns };
  });
}

/**
 * A measured window's figures from the results of one or more generators that were asked for
 * `ratePerS` together (each an equal share) for `windowS` seconds.
 *
 * generator_kept_up says whether the generators sent at least `minSentShare` of the requests
 * asked with a send lag p99 within `maxSendLagMs` (probeVerdict says what follows from it).
 */
export function windowFigures(results, { ratePerS, windowS, maxSendLagMs = 10, minSentShare = MIN_SENT_SHARE }) {
  if (!(ratePerS > 0) || !(windowS > 0)) throw new Error('a window needs a rate and a duration above 0');
  const byAttack = new Map();
  for (const r of results) {
    if (!byAttack.has(r.attack)) byAttack.set(r.attack, []);
    byAttack.get(r.attack).push(r);
  }
  const shareRate = ratePerS / Math.max(1, byAttack.size);
  const fromDue = emptyHistogram();
  const service = emptyHistogram();
  const lags = [];
  const generators = [];
  const statusCodes = {};
  const errorKinds = {};
  let errors = 0;
  let non2xx = 0;
  let ok = 0;
  let sumFromDueNs = 0;
  let maxFromDueNs = 0;
  for (const [attack, own] of [...byAttack.entries()].sort((a, b) => a[0].localeCompare(b[0]))) {
    const rows = scheduled(own, shareRate);
    for (const r of rows) {
      statusCodes[r.code] = (statusCodes[r.code] ?? 0) + 1;
      // Vegeta names a non-2xx answer in `error` too ("400 Bad Request"): an answer with a status
      // is non-2xx; an error is a request with no whole answer (code 0, or a body cut short).
      const answered2xx = r.code >= 200 && r.code <= 299;
      if (r.code >= 100 && !answered2xx) non2xx++;
      else if (r.error || !answered2xx) {
        errors++;
        // "Get "http://…": context deadline exceeded" → the part after the last colon names the kind.
        const kind = r.error.split(': ').at(-1).slice(0, 80);
        errorKinds[kind] = (errorKinds[kind] ?? 0) + 1;
      } else ok++;
      addToHistogram(fromDue, r.from_due_ns);
      addToHistogram(service, r.latency_ns);
      sumFromDueNs += r.from_due_ns;
      maxFromDueNs = Math.max(maxFromDueNs, r.from_due_ns);
      lags.push(r.lag_ns / 1e6);
    }
    const ownLags = rows.map((r) => r.lag_ns / 1e6);
    generators.push({
      attack,
      asked_per_s: shareRate,
      sent: rows.length,
      sent_per_s: rows.length / windowS,
      send_lag_ms: { p50: nearestRank(ownLags, 50), p99: nearestRank(ownLags, 99), max: largest(ownLags) },
    });
  }
  const sent = results.length;
  const lagP99 = nearestRank(lags, 99);
  const keptUp = sent >= minSentShare * ratePerS * windowS && (lagP99 ?? 0) <= maxSendLagMs;
  return {
    asked_per_s: ratePerS,
    window_s: windowS,
    generators,
    sent,
    sent_per_s: sent / windowS,
    ok,
    ok_per_s: ok / windowS,
    errors,
    non_2xx: non2xx,
    status_codes: statusCodes,
    error_kinds: errorKinds,
    sent_share: sent / (ratePerS * windowS),
    send_lag_ms: { p50: nearestRank(lags, 50), p99: lagP99, max: lags.length ? largest(lags) : null },
    generator_kept_up: keptUp,
    latency_ms: {
      ...capped(percentilesMs(fromDue), maxFromDueNs / 1e6),
      mean: sent ? sumFromDueNs / sent / 1e6 : null,
      max: sent ? maxFromDueNs / 1e6 : null,
    },
    service_latency_ms: percentilesMs(service),
    histogram: fromDue,
  };
}

/**
 * A probe's verdict:
 * - 'not sustained': an error or a non-2xx answer (whatever the generator did), or p99 from the
 *   due time over the target where the server was slow too (p99 from the send over the target,
 *   or the requests left on time);
 * - 'generator-limited': the generator sent fewer than `minSentShare` of the requests asked, or
 *   p99 missed the target only through the generator's lateness (from the send it was within
 *   the target, and the send lag p99 was over `maxSendLagMs`) — the machine did not generate
 *   the rate, so this is no verdict on the server;
 * - 'sustained': every request answered 2xx, p99 from the due time within the target (send lag
 *   included, so a late generator cannot flatter the server), and the rate sent.
 */
export function probeVerdict(figures, { p99TargetMs, maxSendLagMs, minSentShare = MIN_SENT_SHARE }) {
  if (figures.errors > 0 || figures.non_2xx > 0) return 'not sustained';
  if (figures.sent < minSentShare * figures.asked_per_s * figures.window_s) return 'generator-limited';
  if (figures.latency_ms.p99 <= p99TargetMs) return 'sustained';
  const lateOnly = figures.service_latency_ms.p99 <= p99TargetMs && figures.send_lag_ms.p99 > maxSendLagMs;
  return lateOnly ? 'generator-limited' : 'not sustained';
}

/**
 * A link is full when what crosses it fills at least this share of its rate (bytes on the wire):
 * the same share by which the closed-loop report calls a cell link-limited (load-testbed-report.js).
 */
export const LINK_BOUND = 0.85;

/** A rate rounded to 3 significant digits (requests/s), as the search asks for them. */
export function roundRate(rate) {
  if (!(rate > 0)) return rate;
  const digits = Math.max(0, 2 - Math.floor(Math.log10(rate)));
  return Number(rate.toFixed(Math.min(digits, 3)));
}

/**
 * The search over rates: given the probes so far ([{rate_per_s, verdict}]), the next rate to
 * probe or the result. From `start_per_s` it doubles while the rate is sustained and halves
 * while it is not, until one of each brackets the answer; then it bisects (geometric mean)
 * until the highest sustained rate and the lowest rate above it that was not are within
 * `precision` of each other. A generator-limited probe is a ceiling the search cannot look
 * past: the result then says the generator, not the server, bounded it. When the rate above the
 * result, at the bytes on the wire per request measured at the result (the sustained probe's
 * `link_utilization` over its rate), would fill at least LINK_BOUND of the link, that rate met the
 * link's capacity, not the server's: the result says the link bounded it. Bounds: `min_per_s`,
 * `max_per_s`, `max_probes`.
 *
 * @returns {{next: number}} or {{done: true, sustained_per_s, ceiling_per_s, bounded_by, probes}}
 *     where bounded_by is 'server' (latency target or errors above the result, the link not full),
 *     'link' (the same with the link full), 'generator', 'max_per_s' (sustained up to the search's
 *     highest rate), 'min_per_s' (not even the lowest), or 'max_probes'
 */
export function nextRate(history, settings) {
  const { start_per_s: start, min_per_s: min, max_per_s: max, precision, max_probes: maxProbes } = settings;
  const clamp = (rate) => roundRate(Math.min(max, Math.max(min, rate)));
  if (history.length === 0) return { next: clamp(start) };
  const rates = (verdict) => history.filter((h) => h.verdict === verdict).map((h) => h.rate_per_s);
  const sustained = rates('sustained');
  const lo = sustained.length ? Math.max(...sustained) : null;
  const failing = rates('not sustained').filter((r) => lo === null || r > lo);
  const limited = rates('generator-limited').filter((r) => lo === null || r > lo);
  const failAt = failing.length ? Math.min(...failing) : null;
  const limitAt = limited.length ? Math.min(...limited) : null;
  const ceiling = [failAt, limitAt].filter((r) => r !== null).sort((a, b) => a - b)[0] ?? null;
  // The link's share the rate above the result needed: that rate × the bytes on the wire per
  // request at the result (its probe's link use over its rate), every one of those answered.
  const atLo = history.find((h) => h.verdict === 'sustained' && h.rate_per_s === lo);
  const linkFull =
    failAt !== null && Number.isFinite(atLo?.link_utilization) && (failAt / lo) * atLo.link_utilization >= LINK_BOUND;
  const boundedBy = ceiling === null ? null : ceiling !== failAt ? 'generator' : linkFull ? 'link' : 'server';
  const done = (bounded) => ({
    done: true,
    sustained_per_s: lo,
    ceiling_per_s: ceiling,
    bounded_by: bounded,
    probes: history.length,
  });
  const tried = new Set(history.map((h) => h.rate_per_s));
  const propose = (rate, otherwise) => {
    const next = clamp(rate);
    return tried.has(next) ? done(otherwise) : { next };
  };
  if (lo !== null && ceiling !== null && ceiling / lo <= 1 + precision) return done(boundedBy);
  if (history.length >= maxProbes) return done('max_probes');
  if (lo === null) {
    if (ceiling <= min) return done('min_per_s');
    return propose(ceiling / 2, 'min_per_s');
  }
  if (ceiling === null) {
    if (lo >= max) return done('max_per_s');
    return propose(lo * 2, 'max_per_s');
  }
  return propose(Math.sqrt(lo * ceiling), boundedBy);
}

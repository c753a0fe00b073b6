// The load testbed's report (experiments/load-testbed/run.js writes the runs): requests/s against
// bandwidth per format, transfer/s, latency percentiles, where the plateau begins and what limits
// it (the link or the CPU, from the recorded CPU time), the testbed's published figures beside
// ours, and its conclusions judged on our data with the rule the study's report uses. Everything
// is derived from cells.jsonl; `npm run report:load -- <run dir>` remakes it.
//
// A run whose plan has "open_loop" adds, per bandwidth, the highest constant rate each format
// sustained (p99 from the due time under the plan's target, no errors) with its latency
// percentiles, beside the closed-loop figures of the same cell, and latency against offered rate.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readJsonLines } from '#common/run-directory.js';
import { median } from '#common/stats.js';
import { formatLabel } from '#common/catalogue.js';
import { toCsv } from '#common/csv.js';
import { judgeClaim } from './answers.js';
import { renderSvg } from './charts.js';
import { renderHtml, renderMarkdown } from './report.js';
import { LINK_BOUND } from './open-loop.js';

/** A cell is link-limited when its payload direction carries at least this share of the link's rate. */
export { LINK_BOUND };
/** A cell is CPU-limited when the server and wrk together use at least this share of the machine's cores. */
export const CPU_BOUND = 0.85;
/** Formats differ when one's requests/s exceed the other's by more than δ in every round. */
export const DELTA = 0.05;
/** A link-limited cell scales with the link when its requests/s are within this share of the link-bound rate. */
export const LINEAR_TOLERANCE = 0.1;

/** What the related study's testbed published (docs/method.md): the figures beside which ours are put. */
export const PUBLISHED = Object.freeze({
  plateau_requests_per_s: 310,
  linear_up_to_mbit: 50,
  ranking: ['cbor', 'json', 'xml'],
  bandwidths_mbit: [1, 5, 10, 50, 100, 500, 1000],
  connections: 100,
  duration_s: 30,
});

/** The run's context and its cell records. */
export function readLoadRun(path) {
  return {
    context: JSON.parse(readFileSync(join(path, 'run.json'), 'utf8')),
    records: readJsonLines(join(path, 'cells.jsonl')),
  };
}

/** What limits a measured cell: 'link', 'cpu' or 'neither'. */
export function limitOf(row) {
  if (row.link_utilization >= LINK_BOUND) return 'link';
  if (row.server_cores + (row.load_cores ?? 0) >= CPU_BOUND * row.machine_cpus) return 'cpu';
  return 'neither';
}

/** What bounded a cell's search, in words (analysis/open-loop.js nextRate's bounded_by). */
const BOUNDED_BY = Object.freeze({
  server: 'the server: p99 over the target, or errors, above it, with the link not full',
  link: `the link: the rate above it needed ≥ ${LINK_BOUND * 100} % of the link's rate on the wire`,
  generator: 'the load generator: it could not send the next rate (a limit of this machine, not the server)',
  max_per_s: "the search's highest rate (max_per_s): sustained up to it",
  min_per_s: "nothing sustained down to the search's lowest rate (min_per_s)",
  max_probes: 'the probe budget (max_probes): the answer lies between the two rates',
});

/**
 * One row per cell with an open-loop search: the sustained rate (median over rounds), the
 * figures of the probe at that rate (from its round, the first when several), what bounded the
 * search, and every probe (for the chart).
 */
export function openLoopRows(records, target) {
  const byCell = new Map();
  for (const r of records) {
    if (!r.open_loop) continue;
    if (!byCell.has(r.cell_id)) byCell.set(r.cell_id, []);
    byCell.get(r.cell_id).push(r);
  }
  return [...byCell.values()].map((rounds) => {
    const sustained = rounds.map((r) => r.open_loop.result.sustained_per_s);
    const known = sustained.filter((v) => v !== null);
    const first = rounds[0];
    const result = first.open_loop.result;
    const at = first.open_loop.probes.find((p) => p.rate_per_s === result.sustained_per_s) ?? null;
    const probes = rounds.flatMap((r) => r.open_loop.probes.map((p) => ({ round: r.round, ...p })));
    const checks = probes.map((p) => p.responsive);
    return {
      cell_id: first.cell_id,
      ...first.cell,
      rounds: rounds.length,
      p99_target_ms: first.open_loop.settings.p99_target_ms ?? target,
      sustained_per_s: known.length === sustained.length && known.length ? median(known) : null,
      per_round_sustained_per_s: Object.fromEntries(rounds.map((r) => [r.round, r.open_loop.result.sustained_per_s])),
      ceiling_per_s: result.ceiling_per_s,
      bounded_by: [...new Set(rounds.map((r) => r.open_loop.result.bounded_by))].join(', '),
      at_sustained: at && {
        asked_per_s: at.figures.asked_per_s,
        sent_per_s: at.figures.sent_per_s,
        ok_per_s: at.figures.ok_per_s,
        latency_ms: at.figures.latency_ms,
        service_latency_ms: at.figures.service_latency_ms,
        send_lag_ms: at.figures.send_lag_ms,
      },
      closed_loop_requests_per_s: median(rounds.map((r) => r.requests_per_s)),
      closed_loop_p99_ms: median(rounds.map((r) => r.wrk.latency_ms.p99)),
      probes,
      errors: probes.reduce((sum, p) => sum + p.figures.errors, 0),
      non_2xx: probes.reduce((sum, p) => sum + p.figures.non_2xx, 0),
      generator_limited_probes: probes.filter((p) => p.verdict === 'generator-limited').length,
      check_max_ms: checks.some((c) => c.ms === null) ? null : Math.max(...checks.map((c) => c.ms)),
      checks_unanswered: checks.filter((c) => c.ms === null || c.status !== 200).length,
      not_freed: probes.filter((p) => !p.after.freed).length,
      connections_closed_after: probes.reduce((sum, p) => sum + p.after.connections_closed, 0),
    };
  });
}

/** Latency (p50 and p99 from the due time) against the offered rate, per format, a panel per situation. */
function openLoopChartSpec(rows) {
  const values = rows.flatMap((r) =>
    r.probes.flatMap((p) =>
      ['p50', 'p99']
        .map((q) => ({
          panel: `${methodText(r.method, r.count, r.object)}, ${r.bandwidth_mbit} Mbit/s`,
          format: formatLabel(r.format) + (r.compression === 'none' ? '' : `, ${r.compression}`),
          percentile: q,
          rate: p.rate_per_s,
          ms: p.figures.latency_ms[q],
          verdict: p.verdict,
        }))
        .filter((v) => Number.isFinite(v.ms) && v.ms > 0),
    ),
  );
  const target = rows[0]?.p99_target_ms;
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: `Latency from the due time against the offered rate (p99 target ${target} ms)`,
    data: { values },
    facet: { field: 'panel', type: 'nominal', title: null },
    columns: 3,
    spec: {
      width: 220,
      height: 180,
      layer: [
        {
          mark: { type: 'line', point: true },
          encoding: {
            x: { field: 'rate', type: 'quantitative', scale: { type: 'log' }, title: 'offered rate (requests/s)' },
            y: { field: 'ms', type: 'quantitative', scale: { type: 'log' }, title: 'latency (ms)' },
            color: { field: 'format', type: 'nominal' },
            strokeDash: { field: 'percentile', type: 'nominal' },
            shape: { field: 'verdict', type: 'nominal' },
            order: { field: 'rate', type: 'quantitative' },
          },
        },
        { mark: { type: 'rule', color: '#888' }, encoding: { y: { datum: target } } },
      ],
    },
    resolve: { scale: { y: 'independent', x: 'independent' } },
  };
}

const seriesKey = (cell) => `${cell.object}/${cell.method}/${cell.count}/${cell.format}/${cell.compression}`;
const situationKey = (cell) => `${cell.object}/${cell.method}/${cell.count}/${cell.bandwidth_mbit}`;

/** One row per cell: medians over its rounds (requests/s per round kept for the verdicts). */
export function cellRows(records) {
  const byCell = new Map();
  for (const r of records) {
    if (!byCell.has(r.cell_id)) byCell.set(r.cell_id, []);
    byCell.get(r.cell_id).push(r);
  }
  return [...byCell.entries()]
    .map(([id, rounds]) => {
      const medianOf = (pick) => {
        const values = rounds.map(pick).filter(Number.isFinite);
        return values.length ? median(values) : null;
      };
      const row = {
        cell_id: id,
        ...rounds[0].cell,
        rounds: rounds.length,
        per_round_requests_per_s: Object.fromEntries(rounds.map((r) => [r.round, r.requests_per_s])),
        requests_per_s: medianOf((r) => r.requests_per_s),
        link_bound_requests_per_s: medianOf((r) => r.link_bound_requests_per_s),
        payload_bytes_per_s: medianOf((r) => r.wire_bytes_per_s[r.payload_direction]),
        link_utilization: medianOf((r) => r.link_utilization),
        link_dropped_share: medianOf((r) => r.link_dropped_share),
        body_bytes: rounds[0].body_bytes,
        wire_bytes_per_request: medianOf((r) => r.wire_bytes_per_request),
        latency_p50_ms: medianOf((r) => r.wrk.latency_ms.p50),
        latency_p90_ms: medianOf((r) => r.wrk.latency_ms.p90),
        latency_p99_ms: medianOf((r) => r.wrk.latency_ms.p99),
        server_cores: medianOf((r) => r.server_cpu.cores),
        load_cores: medianOf((r) => r.load_cpu.cores),
        machine_cpus: rounds[0].machine_cpus,
        errors: rounds.reduce((s, r) => s + r.errors, 0),
        non_2xx: rounds.reduce((s, r) => s + r.non_2xx, 0),
        server_5xx: rounds.reduce((s, r) => s + (r.responses['5xx'] ?? 0), 0),
        max_rss_bytes: Math.max(...rounds.map((r) => r.server_memory.rss_bytes ?? 0)),
        max_heap_bytes: rounds[0].server_memory.heap_max_bytes ?? null,
        window_s: medianOf((r) => r.timing.measured_window_s),
      };
      row.limit = limitOf(row);
      return row;
    })
    .sort((a, b) => seriesKey(a).localeCompare(seriesKey(b)) || a.bandwidth_mbit - b.bandwidth_mbit);
}

/**
 * Per series (object, method, N, format, compression): the knee — the lowest bandwidth at which
 * the cell is no longer link-limited — the plateau (the highest requests/s at or above the knee)
 * and what limits the top bandwidth.
 */
export function plateaus(rows) {
  const series = new Map();
  for (const row of rows) {
    const key = seriesKey(row);
    if (!series.has(key)) series.set(key, []);
    series.get(key).push(row);
  }
  return [...series.values()].map((cells) => {
    const sorted = [...cells].sort((a, b) => a.bandwidth_mbit - b.bandwidth_mbit);
    const knee = sorted.find((c) => c.limit !== 'link') ?? null;
    const above = knee ? sorted.filter((c) => c.bandwidth_mbit >= knee.bandwidth_mbit) : [];
    const top = sorted.at(-1);
    return {
      object: top.object,
      method: top.method,
      count: top.count,
      format: top.format,
      compression: top.compression,
      link_bound_up_to_mbit: knee
        ? (sorted.filter((c) => c.bandwidth_mbit < knee.bandwidth_mbit).at(-1)?.bandwidth_mbit ?? null)
        : top.bandwidth_mbit,
      knee_mbit: knee?.bandwidth_mbit ?? null,
      plateau_requests_per_s: above.length ? Math.max(...above.map((c) => c.requests_per_s)) : null,
      top_mbit: top.bandwidth_mbit,
      top_limit: top.limit,
      top_requests_per_s: top.requests_per_s,
      top_server_cores: top.server_cores,
      top_load_cores: top.load_cores,
      machine_cpus: top.machine_cpus,
    };
  });
}

/**
 * a/b per round (rounds both cells measured); the verdict: 'holds' (a faster by > δ in every
 * round), 'contradicted', or 'open'.
 */
export function formatVerdict(a, b, delta = DELTA) {
  const rounds = Object.keys(a.per_round_requests_per_s).filter((r) => r in b.per_round_requests_per_s);
  const ratios = rounds.map((r) => a.per_round_requests_per_s[r] / b.per_round_requests_per_s[r]);
  if (ratios.length === 0 || ratios.some((ratio) => !Number.isFinite(ratio))) return { ratios, verdict: 'open' };
  if (ratios.every((ratio) => ratio > 1 + delta)) return { ratios, verdict: 'holds' };
  if (ratios.every((ratio) => ratio < 1 - delta)) return { ratios, verdict: 'contradicted' };
  return { ratios, verdict: 'open' };
}

const tally = (verdicts) => ({
  holds: verdicts.filter((v) => v === 'holds').length,
  contradicted: verdicts.filter((v) => v === 'contradicted').length,
  open: verdicts.filter((v) => v === 'open').length,
});

/** The testbed's three conclusions as data records, each with the comparisons it covers and its verdict. */
export function testbedClaims(rows, delta = DELTA) {
  // 1. Linear scaling up to ~50 Mbit/s: every cell at or below it serves the link-bound rate.
  const linearCells = rows.filter(
    (r) => r.bandwidth_mbit <= PUBLISHED.linear_up_to_mbit && r.link_bound_requests_per_s,
  );
  const linear = linearCells.map((r) => {
    const ratio = r.requests_per_s / r.link_bound_requests_per_s;
    return {
      what: `${r.cell_id}: ${ratio.toFixed(2)} of the link-bound rate`,
      verdict: r.limit === 'link' && Math.abs(ratio - 1) <= LINEAR_TOLERANCE ? 'holds' : 'contradicted',
    };
  });
  // 2. A CPU plateau above the knee: cells past it are CPU-limited.
  const plateauCells = rows.filter((r) => r.bandwidth_mbit > PUBLISHED.linear_up_to_mbit);
  const plateau = plateauCells.map((r) => ({
    what:
      `${r.cell_id}: ${r.limit}-limited (server ${r.server_cores.toFixed(2)}` +
      ` + wrk ${(r.load_cores ?? 0).toFixed(2)} of ${r.machine_cpus} cores,` +
      ` ${(r.link_utilization * 100).toFixed(0)} % of the link)`,
    verdict: r.limit === 'cpu' ? 'holds' : r.limit === 'link' ? 'open' : 'contradicted',
  }));
  // 3. CBOR > JSON > XML wherever bandwidth limits.
  const situations = new Map();
  for (const r of rows) {
    if (r.compression !== 'none') continue;
    const key = situationKey(r);
    if (!situations.has(key)) situations.set(key, new Map());
    situations.get(key).set(r.format, r);
  }
  const ranking = [];
  for (const [key, formats] of situations) {
    for (const [faster, slower] of [
      ['cbor', 'json'],
      ['json', 'xml'],
    ]) {
      const [fasterCell, slowerCell] = [formats.get(faster), formats.get(slower)];
      if (!fasterCell || !slowerCell || fasterCell.limit !== 'link' || slowerCell.limit !== 'link') continue;
      const { ratios, verdict } = formatVerdict(fasterCell, slowerCell, delta);
      ranking.push({
        what:
          `${key.replace(/\//g, ', ')} Mbit/s: ${faster} / ${slower} = ` +
          ratios.map((ratio) => ratio.toFixed(2)).join(', '),
        verdict,
      });
    }
  }
  const claim = (id, text, rule, parts) => ({
    id,
    text,
    rule,
    parts,
    ...tally(parts.map((p) => p.verdict)),
    verdict: judgeClaim(tally(parts.map((p) => p.verdict))),
  });
  return [
    claim(
      'linear',
      `Requests/s scale linearly with bandwidth up to about ${PUBLISHED.linear_up_to_mbit} Mbit/s`,
      `each cell at ≤ ${PUBLISHED.linear_up_to_mbit} Mbit/s holds when it is link-limited and within ` +
        `${LINEAR_TOLERANCE * 100} % of the link-bound rate (link rate ÷ bytes on the wire per request), ` +
        'else contradicts',
      linear,
    ),
    claim(
      'plateau',
      'Above that, requests/s reach a CPU plateau',
      `each cell above ${PUBLISHED.linear_up_to_mbit} Mbit/s holds when the server and wrk use ` +
        `≥ ${CPU_BOUND * 100} % of the cores, is open while the link still limits, else contradicts`,
      plateau,
    ),
    claim(
      'ranking',
      'CBOR > JSON > XML wherever bandwidth limits',
      'each link-limited situation compares CBOR with JSON and JSON with XML: holds when the first serves ' +
        `more than ${delta * 100} % more requests/s in every round, contradicted when fewer by that much ` +
        'in every round, else open',
      ranking,
    ),
  ];
}

/** A number with `digits` decimals, or a dash when there is none. */
const decimal = (value, digits = 1) =>
  value === null || value === undefined || !Number.isFinite(value) ? '–' : value.toFixed(digits);
const mbit = (bytesPerS) => (bytesPerS * 8) / 1e6;
const methodText = (method, count, object) => (method === 'GET' ? `GET ${count} ${object}` : `POST ${count} ${object}`);

function chartSpec(rows, y, title, yTitle) {
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title,
    data: {
      values: rows
        .map((r) => ({
          panel: `${methodText(r.method, r.count, r.object)}`,
          format: formatLabel(r.format),
          mbit: r.bandwidth_mbit,
          value: y(r),
        }))
        .filter((r) => Number.isFinite(r.value) && r.value > 0),
    },
    facet: { field: 'panel', type: 'nominal', title: null },
    columns: 3,
    spec: {
      width: 220,
      height: 180,
      mark: { type: 'line', point: true },
      encoding: {
        x: { field: 'mbit', type: 'quantitative', scale: { type: 'log' }, title: 'link (Mbit/s)' },
        y: { field: 'value', type: 'quantitative', scale: { type: 'log' }, title: yTitle },
        color: { field: 'format', type: 'nominal' },
      },
    },
    resolve: { scale: { y: 'independent' } },
  };
}

const SUMMARY_COLUMNS = [
  'cell_id',
  'object',
  'method',
  'count',
  'format',
  'compression',
  'bandwidth_mbit',
  'rounds',
  'requests_per_s',
  'link_bound_requests_per_s',
  'link_utilization',
  'link_dropped_share',
  'payload_bytes_per_s',
  'body_bytes',
  'wire_bytes_per_request',
  'latency_p50_ms',
  'latency_p90_ms',
  'latency_p99_ms',
  'server_cores',
  'load_cores',
  'limit',
  'errors',
  'non_2xx',
  'max_rss_bytes',
  'window_s',
  'open_loop_sustained_per_s',
  'open_loop_bounded_by',
  'open_loop_p50_ms',
  'open_loop_p99_ms',
];

/** The open-loop probes' lines for "Did the server hold". */
function openLoopHeld(openRows) {
  if (openRows.length === 0) return [];
  const probes = openRows.reduce((sum, r) => sum + r.probes.length, 0);
  const sum = (key) => openRows.reduce((total, r) => total + r[key], 0);
  const checks = openRows.map((r) => r.check_max_ms).filter((v) => v !== null);
  return [
    `Open loop: ${sum('errors')} errors and ${sum('non_2xx')} non-2xx answers over ${probes} probes ` +
      `(rates above the sustained one included); ${sum('generator_limited_probes')} probes the generator ` +
      'could not send as asked.',
    "A small GET from inside the server's namespace half-way through every probe: " +
      (checks.length ? `answered within ${decimal(Math.max(...checks), 0)} ms at worst` : 'no answer timed') +
      `, ${sum('checks_unanswered')} unanswered or not 200.`,
    `After each probe: ${sum('connections_closed_after')} connections still open closed (ss -K); ` +
      `${sum('not_freed')} probes after which the server still had requests in progress 10 s later.`,
  ];
}

const ms = (value) => decimal(value, value !== null && value < 10 ? 1 : 0);

/** The open-loop part of the report: how it was measured, then a table per bandwidth. */
function openLoopSections(openRows, session, connections) {
  if (openRows.length === 0) return [];
  const plan = session?.open_loop_generator;
  const bandwidths = [...new Set(openRows.map((r) => r.bandwidth_mbit))].sort((a, b) => a - b);
  const target = openRows[0].p99_target_ms;
  const intro = {
    heading: 'Sustainable rate at a constant load (open loop)',
    paragraphs: [
      `Per cell, after its closed-loop measurement, ${plan?.tool ?? 'Vegeta'} sent requests at constant rates ` +
        `(${plan?.generators ?? 1} generator${(plan?.generators ?? 1) > 1 ? 's' : ''}, ` +
        `over ${plan?.protocol_label ?? plan?.protocol ?? 'cleartext HTTP/1.1'}` +
        `${plan?.protocol && plan.protocol !== 'http1.1' ? "; wrk's closed loop stays cleartext HTTP/1.1" : ''}), ` +
        'on schedule whatever the answers did. ' +
        'A rate is sustained when every answer in the measured window (after a warm-up) is a 2xx and the ' +
        'p99 latency, counted from when each request was due (so a late send cannot hide a wait), ' +
        `is at most ${target} ms. ` +
        'The search doubles or halves from half the closed-loop rate, then bisects between the highest ' +
        "sustained rate and the lowest one above it that was not, to the plan's precision. " +
        'A rate the generator could not send (too few requests sent, or a p99 missed only through its ' +
        'lateness) is no verdict on the server: the search stops below it and says so.',
      'Latency percentiles are from a histogram (1 % buckets) over the measured window only. ' +
        `"Closed loop" is the same cell under wrk (the related testbed's method: ${connections} connections, ` +
        'each sending its next request when its answer is in), whose latency is from the actual send, ' +
        'warm-up included. ' +
        'Figures taken on a machine shared with other work are not final.',
    ],
  };
  const perBandwidth = bandwidths.map((bandwidth) => ({
    subheading: `${bandwidth} Mbit/s`,
    table: {
      header: [
        'requests',
        'format',
        'sustained req/s',
        'p50 ms',
        'p90 ms',
        'p99 ms',
        'sent / asked',
        'bounded by',
        'closed-loop req/s',
        'closed-loop p99 ms',
        'sustained ÷ closed-loop',
      ],
      rows: openRows
        .filter((r) => r.bandwidth_mbit === bandwidth)
        .sort((a, b) => (b.sustained_per_s ?? -1) - (a.sustained_per_s ?? -1))
        .map((r) => [
          methodText(r.method, r.count, r.object),
          formatLabel(r.format) + (r.compression === 'none' ? '' : `, ${r.compression}`),
          r.sustained_per_s === null ? 'none' : decimal(r.sustained_per_s, r.sustained_per_s < 10 ? 2 : 1),
          ms(r.at_sustained?.latency_ms.p50 ?? null),
          ms(r.at_sustained?.latency_ms.p90 ?? null),
          ms(r.at_sustained?.latency_ms.p99 ?? null),
          r.at_sustained ? `${decimal(r.at_sustained.sent_per_s, 1)} / ${decimal(r.at_sustained.asked_per_s, 1)}` : '–',
          r.bounded_by +
            (r.ceiling_per_s === null ? '' : ` (${decimal(r.ceiling_per_s, r.ceiling_per_s < 10 ? 2 : 1)} req/s)`),
          decimal(r.closed_loop_requests_per_s),
          ms(r.closed_loop_p99_ms),
          r.sustained_per_s === null ? '–' : decimal(r.sustained_per_s / r.closed_loop_requests_per_s, 2),
        ]),
    },
  }));
  const bounds = {
    paragraphs: [
      '"Bounded by": ' +
        Object.entries(BOUNDED_BY)
          .map(([key, text]) => `${key} — ${text}`)
          .join('; ') +
        '. The rate in brackets is the lowest one above the sustained rate that failed (or could not be sent).',
    ],
  };
  return [intro, ...perBandwidth, bounds];
}

/** Writes report.md, report.html, summary.csv and charts/*.svg into the run directory. */
export async function makeLoadReport(runDir, outDirectory = runDir) {
  const { context, records } = readLoadRun(runDir);
  if (records.length === 0) throw new Error(`${runDir} has no measured cells yet`);
  const rows = cellRows(records);
  const series = plateaus(rows);
  const claims = testbedClaims(rows);
  const openRows = openLoopRows(records, context.plan.open_loop?.p99_target_ms);
  const session = context.sessions.at(-1);
  const plan = context.plan;
  mkdirSync(join(outDirectory, 'charts'), { recursive: true });

  const charts = [];
  for (const [name, spec] of [
    [
      'requests-per-second',
      chartSpec(
        rows,
        (r) => r.requests_per_s,
        "Requests/s against bandwidth (the testbed's figure), per format",
        'requests/s',
      ),
    ],
    [
      'transfer',
      chartSpec(
        rows,
        (r) => mbit(r.payload_bytes_per_s),
        "Transfer on the wire in the payload's direction (Mbit/s)",
        'Mbit/s',
      ),
    ],
    ['latency-p99', chartSpec(rows, (r) => r.latency_p99_ms, 'Latency p99 (ms), wrk, whole run', 'ms')],
    ...(openRows.length ? [['open-loop-latency', openLoopChartSpec(openRows)]] : []),
  ]) {
    const svg = await renderSvg(spec);
    writeFileSync(join(outDirectory, 'charts', `${name}.svg`), svg);
    charts.push({ name, title: spec.title, svg });
  }

  const totalErrors = rows.reduce((s, r) => s + r.errors, 0);
  const totalNon2xx = rows.reduce((s, r) => s + r.non_2xx, 0);
  const total5xx = rows.reduce((s, r) => s + r.server_5xx, 0);
  const maxRss = Math.max(...rows.map((r) => r.max_rss_bytes));
  const maxHeap = rows.find((r) => r.max_heap_bytes)?.max_heap_bytes ?? null;
  const intro =
    `Plan ${plan.name}: ${rows.length} cells, ${records.length} measurements ` +
    `(${plan.rounds} round${plan.rounds > 1 ? 's' : ''}), ` +
    `${plan.connections} connections (${plan.threads} wrk threads), ` +
    `a window of ${plan.duration_s} s after ${plan.warmup_s} s of warm-up ` +
    `(longer where one request per connection takes more than ${plan.duration_s}/${plan.waves} s ` +
    "at the link's rate). " +
    `Load generator: ${session?.load_generator?.tool ?? 'wrk'}, ` +
    'closed loop (each connection sends its next request when the answer is in). ' +
    `Link: ${session?.link?.shaping ?? 'tc tbf'}. ` +
    `Machine: ${session?.machine?.cpus ?? '?'} cores (${session?.machine?.cpu_model ?? 'unknown'}).`;

  const best = [];
  const situations = new Map();
  for (const r of rows) {
    const key = situationKey(r);
    if (!situations.has(key)) situations.set(key, []);
    situations.get(key).push(r);
  }
  for (const cells of situations.values()) {
    const sorted = [...cells].sort((a, b) => b.requests_per_s - a.requests_per_s);
    const [first, second] = sorted;
    const verdict = second ? formatVerdict(first, second).verdict : 'open';
    best.push([
      methodText(first.method, first.count, first.object),
      first.bandwidth_mbit,
      verdict === 'holds'
        ? formatLabel(first.format)
        : `no clear winner (${sorted
            .filter((c) => formatVerdict(first, c).verdict !== 'holds')
            .map((c) => formatLabel(c.format))
            .join(', ')})`,
      decimal(first.requests_per_s),
      second ? `${decimal(first.requests_per_s / second.requests_per_s, 2)} × ${formatLabel(second.format)}` : '–',
      first.limit,
    ]);
  }

  const sections = [
    { paragraphs: [intro] },
    ...openLoopSections(openRows, session, plan.connections),
    {
      heading: 'Which format serves the most requests',
      paragraphs: [
        'Per method, N and bandwidth, the format with the most requests/s, and its ratio to the next; ' +
          `"no clear winner" when it is not ahead by more than ${DELTA * 100} % in every round. ` +
          `The last column is what limits that cell (link: ≥ ${LINK_BOUND * 100} % of the link's rate used; ` +
          `cpu: server + wrk ≥ ${CPU_BOUND * 100} % of the cores).`,
      ],
      table: {
        header: ['requests', 'Mbit/s', 'most requests/s', 'requests/s', 'ratio to the next', 'limited by'],
        rows: best,
      },
    },
    {
      heading: "The testbed's conclusions on our data",
      paragraphs: [
        'Each conclusion covers comparisons; each holds, is contradicted or stays open. ' +
          'Not measured: none; confirmed: holds in every one; holds so far: contradicted in none and holds ' +
          "in at least half, the rest open; can't tell yet: contradicted in none, holds in fewer than half; " +
          'refuted: contradicted in more than it holds in; partly: holds in some, contradicted in others.',
      ],
      table: {
        header: ['conclusion', 'verdict', 'holds', 'contradicted', 'open', 'what "holds" means'],
        rows: claims.map((c) => [c.text, c.verdict, c.holds, c.contradicted, c.open, c.rule]),
      },
      after: 'Contradicting comparisons:',
      list: claims
        .flatMap((c) => c.parts.filter((p) => p.verdict === 'contradicted').map((p) => `${c.id}: ${p.what}`))
        .slice(0, 40),
    },
    {
      heading: 'Published figures beside ours',
      paragraphs: [
        'The testbed published requests/s rising linearly with bandwidth up to about ' +
          `${PUBLISHED.linear_up_to_mbit} Mbit/s, then a CPU plateau near ${PUBLISHED.plateau_requests_per_s} ` +
          'requests/s on its machine, with CBOR > JSON > XML wherever bandwidth limits. ' +
          'Ours, per series: the highest bandwidth still link-limited, the first that is not (the knee), ' +
          'the plateau from there on, and what limits the fastest link.',
      ],
      table: {
        header: [
          'series',
          'link-limited up to (Mbit/s)',
          'knee (Mbit/s)',
          'plateau req/s',
          `top (${series[0]?.top_mbit} Mbit/s) limited by`,
          'server cores',
          'wrk cores',
          'published',
        ],
        rows: series.map((s) => [
          `${methodText(s.method, s.count, s.object)}, ${formatLabel(s.format)}` +
            (s.compression === 'none' ? '' : `, ${s.compression}`),
          s.link_bound_up_to_mbit ?? '–',
          s.knee_mbit ?? 'none (link-limited throughout)',
          decimal(s.plateau_requests_per_s),
          s.top_limit,
          decimal(s.top_server_cores, 2),
          decimal(s.top_load_cores, 2),
          `linear to ~${PUBLISHED.linear_up_to_mbit}, plateau ~${PUBLISHED.plateau_requests_per_s} req/s`,
        ]),
      },
    },
    {
      heading: 'Every cell',
      paragraphs: [
        "Requests/s are the server's own 2xx answers over the measured window; " +
          "link-bound requests/s = the link's rate ÷ bytes on the wire per request in the payload's direction, " +
          'as delivered through the link (kernel counters: Ethernet frames, HTTP headers, retransmissions included); ' +
          "dropped = the share of the bytes sent that way which the link's token bucket dropped. " +
          "Latency percentiles are wrk's, over its whole run (warm-up included). " +
          "CPU: the server's JVM over the window, wrk over its run, in cores.",
      ],
      table: {
        header: [
          'cell',
          'req/s',
          'link-bound req/s',
          'link used',
          'dropped',
          'Mbit/s',
          'bytes/request',
          'p50 ms',
          'p90 ms',
          'p99 ms',
          'server cores',
          'wrk cores',
          'limit',
          'errors',
          'non-2xx',
        ],
        rows: rows.map((r) => [
          r.cell_id,
          decimal(r.requests_per_s),
          decimal(r.link_bound_requests_per_s),
          `${decimal(r.link_utilization * 100, 0)} %`,
          r.link_dropped_share === null ? '–' : `${decimal(r.link_dropped_share * 100, 0)} %`,
          decimal(mbit(r.payload_bytes_per_s), 2),
          decimal(r.wire_bytes_per_request, 0),
          decimal(r.latency_p50_ms),
          decimal(r.latency_p90_ms),
          decimal(r.latency_p99_ms),
          decimal(r.server_cores, 2),
          decimal(r.load_cores, 2),
          r.limit,
          r.errors,
          r.non_2xx,
        ]),
      },
    },
    {
      heading: 'Did the server hold',
      list: [
        `${totalErrors} connection errors and timeouts (wrk), ${totalNon2xx} answers that were not 2xx, ` +
          `${total5xx} of them 5xx, over ${records.length} measurements.`,
        `Largest resident memory of the server's JVM at a window's edge: ${decimal(maxRss / 2 ** 20, 0)} MiB` +
          (maxHeap ? `, its heap bounded at ${decimal(maxHeap / 2 ** 20, 0)} MiB (the plan's server_heap_mb).` : '.'),
        ...openLoopHeld(openRows),
      ],
    },
    { heading: 'Charts', charts },
    { paragraphs: ['Every cell: summary.csv; every measurement with its context: cells.jsonl and run.json.'] },
  ];
  const title = 'Response Time Lab — load testbed report';
  writeFileSync(join(outDirectory, 'report.md'), renderMarkdown(sections, title));
  writeFileSync(join(outDirectory, 'report.html'), renderHtml(sections, title));
  writeFileSync(
    join(outDirectory, 'summary.csv'),
    toCsv(
      SUMMARY_COLUMNS,
      rows.map((r) => {
        const open = openRows.find((o) => o.cell_id === r.cell_id);
        const row = {
          ...r,
          open_loop_sustained_per_s: open?.sustained_per_s,
          open_loop_bounded_by: open?.bounded_by,
          open_loop_p50_ms: open?.at_sustained?.latency_ms.p50,
          open_loop_p99_ms: open?.at_sustained?.latency_ms.p99,
        };
        return Object.fromEntries(SUMMARY_COLUMNS.map((c) => [c, row[c]]));
      }),
    ),
  );
  return {
    html: join(outDirectory, 'report.html'),
    markdown: join(outDirectory, 'report.md'),
    csv: join(outDirectory, 'summary.csv'),
    rows,
    claims,
    series,
    openRows,
  };
}

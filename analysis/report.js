// Makes the report of one or more runs: summary.csv (one row per cell), report.md, report.html
// (self-contained, charts inline), charts/*.svg and report-data.json (what the client page shows
// when a run is loaded there), in the output directory (by default the first run's). Everything
// is derived from the raw samples; it can be remade at any time.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  DEFAULT_JUDGING,
  answerQuestions,
  comparisons,
  conclusionRule,
  decisions,
  percent,
  sourceConclusions,
} from './answers.js';
import { chartSpecs, renderSvg } from './charts.js';
import { readRuns } from './read-runs.js';
import { answerFirst } from './answer-first.js';
import { CELL_COLUMNS } from '#common/cell.js';
import { indexRanking, indexRows, indexTableRows, sizeTable, sizeTableRows } from './formats.js';
import { breakEvenTableRows, breakEvens, checkCounts } from './compression.js';
import { DEFAULT_WEIGHTS, FIGURES } from '#common/weighted-index.js';
import { toCsv } from '#common/csv.js';
import { median } from '#common/stats.js';
import { protocolEffects, protocolParagraphs } from './protocols.js';

const SUMMARY_COLUMNS = [
  'case_id',
  ...CELL_COLUMNS,
  'n',
  'mean_trimmed_ms',
  'median_ms',
  'ci_low_ms',
  'ci_high_ms',
  'p95_ms',
  'dropped',
  'min_ms',
  'max_ms',
  'sd_ms',
  'transfer_size',
  'decoded_body_size',
];

/** How the report's comparisons were computed, in one sentence. */
const METHOD =
  'Cells compared with each other were measured together, interleaved in rounds; a ratio is of medians, ' +
  'with a 95% CI from a round bootstrap (whole rounds resampled, so drift shared by a round cancels), the estimator ' +
  'that also decided when to stop; it is clear when the CI lies wholly above 1 + δ or below 1 − δ, equivalent when ' +
  'wholly inside [1 − δ, 1 + δ]. Runs without rounds get an independent bootstrap and a Mann–Whitney U p-value.';
const escapeHtml = (text) =>
  String(text).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
const fixed = (value) => (Number.isFinite(value) ? Number(value.toFixed(4)) : '');

function summaryRows(cells) {
  return cells.map((c) => ({
    case_id: c.case_id,
    ...c.cell,
    n: c.stats.n,
    mean_trimmed_ms: fixed(c.stats.mean_trimmed),
    median_ms: fixed(c.stats.median),
    ci_low_ms: fixed(c.stats.ci_low),
    ci_high_ms: fixed(c.stats.ci_high),
    p95_ms: fixed(c.stats.p95),
    dropped: c.stats.dropped,
    min_ms: fixed(c.stats.min),
    max_ms: fixed(c.stats.max),
    sd_ms: fixed(c.stats.sd),
    transfer_size: c.bytes.transfer,
    decoded_body_size: c.bytes.decoded,
  }));
}

const SIZES_NOTE =
  'The body of each answer as the browser received it: raw (its decoded size) and on the wire under ' +
  'each compression measured, for the whole body and per object (medians over the samples; sizes do not vary).';
const INDEX_NOTE =
  "Per situation (objects, N, network), each configuration's server encode time " +
  '(Server-Timing; scaled ' +
  'up by bytes where the header covered only the first part of a streamed body), ' +
  'transfer time, bytes on the wire and ' +
  "browser decode time (last byte to decoded objects), each divided by the baseline's (JSON with response.json(), no " +
  'compression), combined with the weights. The baseline scores 1; lower is better. The figures are medians of ' +
  "per-sample values. Other weights: npm run report -- <run> --weights 40/20/35/5, or the page's report view.";

const BREAK_EVEN_NOTE =
  'For each compression and level against no compression: what compressing costs unthrottled ' +
  '(Δ, the difference of the medians over the rounds both were measured in, 95% CI from the round bootstrap; ' +
  "split into the server's compress time from " +
  "Server-Timing and the rest — the browser's decompression and whatever else differs) and the body bytes it saves. " +
  'On a link of B bit/s the saved bytes take saved × 8 / B longer without compression, so compressing pays below ' +
  'B* = saved × 8 / Δ ("any speed" when it costs nothing measurable unthrottled). The model leaves out round trips ' +
  '(slow start grows with the body); the last column checks it against the cells measured on slower links.';

/** The report's sections as Markdown (also the load testbed's report). */
export function renderMarkdown(sections, title = 'Response Time Lab report') {
  const out = [`# ${title}`, ''];
  for (const s of sections) {
    if (s.heading) out.push(`## ${s.heading}`, '');
    if (s.subheading) out.push(`### ${s.subheading}`, '');
    for (const p of s.paragraphs ?? []) out.push(p, '');
    if (s.table) out.push(markdownTable(s.table.header, s.table.rows), '');
    if (s.after) out.push(s.after, '');
    if (s.list) out.push(...s.list.map((l) => `- ${l}`), '');
    for (const c of s.charts ?? []) out.push(`![${c.title}](charts/${c.name}.svg)`, '');
  }
  return `${out.join('\n').trimEnd()}\n`;
}

/** The report's sections as one self-contained HTML page, charts inline. */
export function renderHtml(sections, title = 'Response Time Lab report') {
  const body = sections
    .map((s) =>
      [
        s.heading ? `<h2>${escapeHtml(s.heading)}</h2>` : '',
        s.subheading ? `<h3>${escapeHtml(s.subheading)}</h3>` : '',
        ...(s.paragraphs ?? []).map((p) => `<p>${escapeHtml(p)}</p>`),
        s.table ? htmlTable(s.table.header, s.table.rows) : '',
        s.after ? `<p>${escapeHtml(s.after)}</p>` : '',
        s.list ? `<ul>${s.list.map((l) => `<li>${escapeHtml(l)}</li>`).join('')}</ul>` : '',
        ...(s.charts ?? []).map((c) => `<figure>${c.svg}<figcaption>${escapeHtml(c.title)}</figcaption></figure>`),
      ]
        .filter(Boolean)
        .join('\n'),
    )
    .join('\n');
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font:15px/1.45 system-ui,sans-serif;max-width:1200px;margin:0 auto;padding:0 16px 40px;color:#1f2328}
table{border-collapse:collapse;font-size:13px;margin:8px 0}` +
    `th,td{border-bottom:1px solid #d0d7de;padding:4px 6px;text-align:left;vertical-align:top}
figure{margin:20px 0;overflow-x:auto}figcaption{color:#57606a}</style></head><body>
<h1>${escapeHtml(title)}</h1>
${body}
</body></html>
`
  );
}

function markdownTable(header, rows) {
  return [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.map((v) => String(v).replace(/\|/g, '\\|')).join(' | ')} |`),
  ].join('\n');
}

function htmlTable(header, rows) {
  return `<table><thead><tr>${header.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr></thead><tbody>${rows
    .map((r) => `<tr>${r.map((v) => `<td>${escapeHtml(v)}</td>`).join('')}</tr>`)
    .join('')}</tbody></table>`;
}

/**
 * Builds everything the report says; pure, for tests and for the page.
 *
 * @param loaded {cells, groups, judging}: the runs as read-runs.js reads them (judging: the run's
 *     {delta, looks}, the defaults when not given)
 */
export function analyse({ cells, groups, judging = DEFAULT_JUDGING }) {
  const all = comparisons(cells, groups);
  return {
    comparisons: all,
    answers: answerQuestions(cells, all, judging),
    conclusions: sourceConclusions(cells, all, judging),
    decisions: decisions(cells, groups),
  };
}

/**
 * An unshaped network has no link rate to measure (profiles.js measureNetwork): its RTT, and
 * what the largest probe proves, its bytes over its whole time (the median probe). Runs from
 * before `at_least_bps` recorded a noise throughput, from probes read off the wrong entry: only
 * their RTT is shown.
 */
function unshapedMeasure(m, mbit) {
  if (!(m.rtt_ms >= 0)) return 'not measured';
  const rtt = `RTT ${m.rtt_ms.toFixed(1)} ms; no link rate to measure`;
  if (!m.at_least_bps) return rtt;
  return (
    `${rtt}: a ${(m.probe_transfer_size / 1e6).toFixed(2)} MB answer ` +
    `took ${(median(m.probe_seconds) * 1000).toFixed(1)} ms, ` +
    `at least ${mbit(m.at_least_bps)}`
  );
}

/**
 * The run's networks as measured before its first cell, and how each was shaped: a reader
 * comparing RTT profiles needs to know whether TCP was real (netns) or emulated (cdp).
 */
export function describeNetworks(context) {
  const entries = Object.entries(context.networks ?? {});
  if (entries.length === 0) return '';
  const mbit = (bps) => `${(bps / 1e6).toFixed(bps < 1e8 ? 2 : 0)} Mbit/s`;
  const parts = entries.map(([name, n]) => {
    const m = n.measured ?? {};
    const nominal = n.downBps == null ? 'no shaping' : `nominal ${mbit(n.downBps)}, RTT ${n.rttMs} ms`;
    const how =
      n.downBps == null && !n.rttMs
        ? null
        : context.shaping === 'cdp'
          ? "Chromium's emulation" +
            `${n.cdp?.calibration === 'on' && n.downBps != null ? ` calibrated ×${n.cdp.factor.toFixed(2)}` : ''}`
          : `the kernel${n.netns?.delay ? `, delay by ${n.netns.delay}` : ''}`;
    const measured =
      n.downBps == null
        ? unshapedMeasure(m, mbit)
        : m.throughput_bps
          ? `measured ${mbit(m.throughput_bps)}, RTT ${m.rtt_ms.toFixed(1)} ms`
          : 'not measured';
    const floor = n.browser_floor
      ? `; the browser's floor ${n.browser_floor.median_ms.toFixed(2)} ms for 1 Book ` +
        `(p5–p95 ${n.browser_floor.p5_ms.toFixed(2)}–${n.browser_floor.p95_ms.toFixed(2)} ms)`
      : '';
    return `${name}: ${measured} (${how ? `${nominal}; ${how}` : nominal})${floor}`;
  });
  const tcp = context.netns_link?.congestion_control
    ? `; TCP congestion control ${context.netns_link.congestion_control}`
    : '';
  const floorNote = entries.some(([, n]) => n.browser_floor)
    ? ' The floor is what the browser needs for the smallest request on that network; differences between cells ' +
      'smaller than its p5–p95 spread lie below what this browser on this machine resolves in one request.'
    : '';
  return `Networks — ${parts.join('; ')}${tcp}.${floorNote}`;
}

/**
 * @param runPaths run directories
 * @param outDirectory where the report goes (the first run's directory by default)
 * @param options {weights} of the weighted index (default 40/20/35/5)
 */
export async function makeReport(runPaths, outDirectory = runPaths[0], { weights = DEFAULT_WEIGHTS } = {}) {
  const loaded = readRuns(runPaths);
  const { runs, cells, judging } = loaded;
  if (cells.length === 0) throw new Error(`no completed cells in ${runPaths.join(', ')}`);
  const context = runs[0].context;
  const { comparisons: all, answers, conclusions, decisions: helper } = analyse(loaded);
  mkdirSync(join(outDirectory, 'charts'), { recursive: true });

  const rows = summaryRows(cells);
  writeFileSync(join(outDirectory, 'summary.csv'), toCsv(SUMMARY_COLUMNS, rows));

  const charts = [];
  for (const [name, spec] of chartSpecs(cells, all, context.networks, judging)) {
    const svg = await renderSvg(spec);
    writeFileSync(join(outDirectory, 'charts', `${name}.svg`), svg);
    charts.push({ name, title: spec.title, svg });
  }

  const intro =
    `Plan ${context.plan?.name ?? '?'}: ${cells.length} cells from ${runs.length} run(s), ` +
    `${cells.reduce((n, c) => n + c.stats.n, 0)} samples; commit ${context.git?.commit?.slice(0, 12) ?? '?'}` +
    `${context.git?.dirty ? ' (dirty)' : ''}; ${context.versions?.browser ?? ''}; shaping ${context.shaping ?? '?'}.`;
  const networks = describeNetworks(context);
  const conclusionRows = conclusions.map((c) => [
    c.claim,
    c.theirs,
    c.ours,
    `holds in ${c.holds} of ${c.n}, contradicted in ${c.contradicted}, equivalent or unresolved in ${c.open}`,
    c.verdict,
  ]);
  const contradictions = conclusions
    .filter((c) => c.contradicted > 0)
    .map(
      (c) =>
        `The source says: "${c.claim}" We measured ${c.ours} (the source: ${c.theirs}); it is contradicted in ` +
        `${c.contradicted} of ${c.n} comparisons and holds in ${c.holds}: ` +
        `${c.parts
          .filter((p) => p.contradicted > 0)
          .map((p) => `${p.what} — contradicted in ${p.contradicted} of ${p.n}`)
          .join('; ')}.`,
    );
  const ci = (m) => (m && Number.isFinite(m.ci_low) ? ` (95% CI ${m.ci_low.toFixed(2)}–${m.ci_high.toFixed(2)})` : '');
  const decisionRows = helper.map((d) => [
    d.object,
    d.count,
    d.protocol && d.protocol !== 'http1.1' ? `${d.network}, ${d.protocol}` : d.network,
    `CM${d.cm}`,
    d.recommendation,
    d.median_ms.toFixed(2),
    d.margin ? `${d.margin.over}: ${d.margin.ratio.toFixed(2)}×${ci(d.margin)}` : '—',
    d.no_clear_winner_among.join('; '),
    d.settled ? 'yes' : 'no: a margin was not settled at the budget',
  ]);
  const decisionHeader = [
    'objects',
    'N',
    'network',
    'CM',
    'recommended',
    'fastest median ms',
    'next best (× slower)',
    'no clear winner among',
    'margins settled',
  ];
  const conclusionHeader = ['source conclusion', 'source', 'ours (ratios)', 'comparisons', 'verdict'];
  const held =
    judging.looks > 1
      ? `, and did so at ${judging.looks} looks in a row (the rounds in which both were measured, ` +
        'each judged on the samples up to it) as the stop rule asks'
      : '';
  const decisionNote =
    `A configuration is recommended when every other is clearly slower: the 95% CI of its ratio to the ` +
    `fastest lies wholly above 1 + δ (δ = ${percent(judging.delta)})${held}; ` +
    `otherwise "no clear winner" names every configuration ` +
    `not clearly slower. A situation's group samples until every margin is settled ` +
    `(clearly slower, or equivalent within ±δ` +
    `${judging.looks > 1 ? `, at ${judging.looks} looks in a row` : ''}); ` +
    `where its budget ran out first ("margins settled: no"), a margin's CI ` +
    `still spans a δ boundary or had only just left it ` +
    `(a difference close to δ, or rounds too few or too noisy for a narrow CI) ` +
    `and another run may decide that situation the other way.`;

  const breakEven = breakEvens(cells, all, context.networks, judging);
  const counts = checkCounts(breakEven);
  const breakEvenCheck =
    counts.n === 0
      ? 'No slower network was measured to check these against.'
      : 'Checked against the cells measured on slower links: ' +
        `the break-even predicted the faster side in ${counts.holds} of ` +
        `${counts.n} comparisons, was contradicted in ${counts.contradicted}, ` +
        `and ${counts.open} stay open (the link speed ` +
        "inside the break-even's CI, or the measured comparison unresolved or equivalent).";
  const sizes = sizeTable(cells);
  const ranking = indexRanking(cells, weights);
  const weightsText = FIGURES.map((f) => weights[f]).join('/');
  const opening = answerFirst(helper, cells, judging);
  const sections = [
    {
      heading: 'What to choose',
      paragraphs: [
        ...opening.situations.map((p) => p.text),
        ...(opening.general ? [`In general: ${opening.general}`] : []),
        ...protocolParagraphs(helper, cells),
        opening.reading,
      ],
    },
    {
      heading: 'This run',
      paragraphs: [
        intro,
        ...(networks ? [networks] : []),
        `Times are from the first request's start until the data is decoded (and sorted) in the browser. ${METHOD}`,
      ],
    },
    {
      heading: 'Which configuration to choose, in numbers',
      paragraphs: [decisionNote],
      table: { header: decisionHeader, rows: decisionRows },
    },
    ...Object.entries(answers).map(([id, { question, answers: lines }]) => ({
      heading: `${id}: ${question}`,
      list: lines.length ? lines : ['Not measured in these runs.'],
    })),
    ...(breakEven.length
      ? [
          {
            heading: 'Where compression pays: break-even bandwidth',
            paragraphs: [BREAK_EVEN_NOTE, breakEvenCheck],
            table: breakEvenTableRows(breakEven),
          },
        ]
      : []),
    ...(sizes.length ? [{ heading: 'Bytes per format', paragraphs: [SIZES_NOTE], table: sizeTableRows(sizes) }] : []),
    ...(ranking.length
      ? [
          { heading: `Weighted index (encode/transfer/size/decode = ${weightsText})`, paragraphs: [INDEX_NOTE] },
          ...ranking.map((situation) => ({
            subheading: situation.situation.replace(/\//g, ', '),
            table: indexTableRows(situation),
          })),
        ]
      : []),
    {
      heading: "The source study's conclusions",
      paragraphs: [conclusionRule(judging.delta)],
      table: { header: conclusionHeader, rows: conclusionRows },
      ...(contradictions.length
        ? { after: 'Where our measurements contradict the source:', list: contradictions }
        : {}),
    },
    { heading: 'Charts', charts },
    { paragraphs: ["Every cell's statistics: summary.csv."] },
  ];
  writeFileSync(join(outDirectory, 'report.md'), renderMarkdown(sections));
  writeFileSync(join(outDirectory, 'report.html'), renderHtml(sections));
  // Everything the client page needs to show this report (Load a run): no raw samples.
  writeFileSync(
    join(outDirectory, 'report-data.json'),
    JSON.stringify(
      {
        kind: 'response-time-lab/report',
        version: 1,
        opening,
        intro,
        networks,
        judging,
        answers,
        conclusions,
        contradictions,
        decisions: helper,
        protocols: protocolEffects(helper, cells),
        charts,
        sizes,
        break_even: breakEven,
        index: { weights, rows: indexRows(cells) },
      },
      (key, value) => (value === Infinity ? 'Infinity' : value),
    ),
  );
  return { cells: cells.length, comparisons: all.length, charts: charts.length, outDirectory };
}

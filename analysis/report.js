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
  NO_CLEAR_WINNER,
  decisions,
  onOneScale,
  percent,
  SOURCE_STUDY,
  asFastWords,
  sourceConclusions,
} from './answers.js';
import { CHART_LAYOUTS, chartSpecs, renderCharts } from './charts.js';
import { readRuns } from './read-runs.js';
import { answerFirst, SITUATIONS_HEADING, SITUATIONS_NOTE } from './answer-first.js';
import {
  WORDS,
  capital,
  computationWords,
  configurationWords,
  interval,
  leaning,
  network,
  ownMedians,
  ratioText,
  situationAnswer,
  situationWords,
  timesWords,
  topicItem,
} from '#common/answer-words.js';
import { completeCell } from '#common/cell.js';
import { byFewRounds, hasInterval, isResolved, verdictOf } from '#common/comparison.js';
import { CATALOGUE, SCENARIO_ENTRIES, defaultLevel } from '#common/catalogue.js';
import {
  budgetParagraph,
  countedWarmupParagraph,
  countedWarmups,
  duration,
  perAnswer,
  runClock,
  longerRun,
  timeSpent,
} from './time-spent.js';
import { describeEngine } from './engine.js';
import { CELL_COLUMNS } from '#common/cell.js';
import { indexRanking, indexRows, indexTableRows, sizeTable, sizeTableRows } from './formats.js';
import { datasetSizeSections } from './dataset-sizes.js';
import { BREAK_EVEN_HEADING, breakEvenTableRows, breakEvens, checkCounts } from './compression.js';
import { DEFAULT_WEIGHTS, FIGURES } from '#common/weighted-index.js';
import { toCsv } from '#common/csv.js';
import { median } from '#common/stats.js';
import { protocolEffects, protocolParagraphs } from './protocols.js';
import { DEFAULT_PROTOCOL } from '#common/protocols.js';

const SUMMARY_COLUMNS = [
  'case_id',
  ...CELL_COLUMNS,
  // The figures "What to choose", the table and the charts show (answer-words.js situationAnswer).
  'situation',
  'situation_ms',
  'times_fastest',
  'verdict',
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

/** How the report's comparisons were computed and when a group stops, in a few sentences. */
const method = ({ delta, looks }) =>
  'A cell is one configuration in one situation; a group, the cells of one situation, compared with each ' +
  "other. They were measured together, interleaved in rounds (a round: every configuration's turn " +
  'once, the "turn" of "What to choose"; each round visits every cell ' +
  "of the group in a random order, but one whose every comparison the stricter early test (the lab's " +
  'few-rounds test, docs/method.md) decided; runs made by earlier versions of the lab ' +
  'left out cells whose comparisons were settled); a ratio is of medians over the rounds both ' +
  'cells ran in, with a 95 % CI from ' +
  'a round bootstrap (whole rounds resampled, so drift shared by a round cancels), the estimator that also ' +
  'decided when to stop. A ratio is clear when its CI lies wholly above 1 + δ or below 1 / (1 + δ) ' +
  `(δ = ${percent(delta)}), ` +
  'equivalent when wholly inside [1 / (1 + δ), 1 + δ]' +
  (looks > 1
    ? `; a verdict settles once it held at ${looks} checks in a row (a check: the judgment after a ` +
      'round, on the samples up to it)'
    : '') +
  '. A configuration\'s time in "What to choose", the table and the charts is its own median over all its ' +
  'samples, and its ratio the ratio of two such times: every round visits every cell, so that all of them are ' +
  'over the same rounds (but a cell whose every comparison the stricter early test decided, which then leaves). ' +
  'In runs ' +
  'whose groups raced (made by earlier versions of the lab) it is ' +
  "the situation's fastest's median times the judged ratio " +
  '(summary.csv: situation_ms and times_fastest; median_ms is the own median). Runs without rounds get an ' +
  'independent bootstrap and a Mann–Whitney U p-value.';
const escapeHtml = (text) =>
  String(text).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
const fixed = (value, digits = 4) => (Number.isFinite(value) ? Number(value.toFixed(digits)) : '');

function summaryRows(cells, shown) {
  return cells.map((c) => ({
    case_id: c.case_id,
    ...c.cell,
    situation: shown.get(c.case_id)?.situation ?? '',
    situation_ms: fixed(shown.get(c.case_id)?.time_ms),
    // To six decimals: a ratio just under a ±5 % line (1.04998) must not read as on it (1.05).
    times_fastest: fixed(shown.get(c.case_id)?.ratio, 6),
    verdict: shown.get(c.case_id)?.verdict ?? '',
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

/**
 * What each configuration of a decided situation shows, by case id: its situation in words, its
 * time, its ratio to the fastest and its verdict in the four words (answer-words.js), and its
 * time's interval (the ratio's CI times the fastest's median) — the figures of the opening, the
 * table, the charts and summary.csv.
 */
export function shownFigures(decisions, cells, { delta }) {
  const byId = new Map(cells.map((c) => [c.case_id, c]));
  const shown = new Map();
  for (const d of decisions) {
    const answer = situationAnswer(d, delta);
    const situation = situationWords(completeCell(byId.get(answer.fastest).cell));
    const lead = { fastest: WORDS.FASTEST, tie: 'lowest time, no clear winner', open: 'looked fastest' }[answer.kind];
    shown.set(answer.fastest, {
      situation,
      time_ms: answer.time_ms,
      ratio: 1,
      verdict: lead,
      ci_low_ms: answer.time_ms,
      ci_high_ms: answer.time_ms,
      ci: null,
    });
    for (const r of answer.rows) {
      // An interval only where it can be judged (hasInterval: finite, from enough rounds).
      const judgeable = !byFewRounds(r) && hasInterval(r);
      // Open with a CI already clear of the δ lines: it had not held for the looks asked.
      const early = judgeable && isResolved(verdictOf(r, delta, d.margin_rule ?? 1));
      const verdict =
        r.word === WORDS.SLOWER
          ? timesWords(r.ratio)
          : r.word === WORDS.AS_FAST
            ? WORDS.AS_FAST
            : `${WORDS.OPEN}, ${leaning(r.ratio, delta)}${early ? ', not yet for long enough to be certain' : ''}`;
      shown.set(r.case_id, {
        situation,
        time_ms: r.time_ms,
        ratio: r.ratio,
        verdict,
        ci_low_ms: judgeable ? d.median_ms * r.ci_low : NaN,
        ci_high_ms: judgeable ? d.median_ms * r.ci_high : NaN,
        ci: judgeable ? [r.ci_low, r.ci_high] : null,
        few_rounds: byFewRounds(r),
        few_bound: byFewRounds(r) ? (d.others.find((o) => o.case_id === r.case_id)?.few_rounds ?? null) : null,
      });
    }
  }
  return shown;
}

/** The table of every configuration: situation, configuration, time, ratio, verdict, the ratio's CI. */
function decisionTableRows(decisions, cells, judging) {
  const shown = shownFigures(decisions, cells, judging);
  const byId = new Map(cells.map((c) => [c.case_id, c]));
  return decisions.flatMap((d) => {
    const answer = situationAnswer(d, judging.delta);
    return [answer.fastest, ...answer.rows.map((r) => r.case_id)].map((id, i) => {
      const f = shown.get(id);
      return [
        i === 0 ? f.situation : '',
        configurationWords(completeCell(byId.get(id).cell)),
        f.time_ms.toFixed(2),
        ratioText(f.ratio),
        f.verdict,
        // Where the few-rounds test decided, its own bound: what "certain" rests on there.
        f.ci ? interval(f.ci[0], f.ci[1]) : f.few_rounds ? fewRoundsWords(f.few_bound, f.ratio) : '—',
        byId.get(id).stats.n,
      ];
    });
  });
}

/**
 * A few-rounds decision's bound in words: "at least 1.42×: decided by the stricter early test". The
 * test bounds the ratio of the rounds it decided on; where the ratio shown (of every round) lies
 * beyond that bound, the ratio shown is the bound given — still a true bound, and never one that
 * the row's own ratio contradicts.
 */
export function fewRoundsWords(bound, ratio) {
  const how = 'decided by the stricter early test';
  // Rounded outward, as the CIs are.
  const [down, up] = [(x) => Math.floor(x * 100) / 100, (x) => Math.ceil(x * 100) / 100];
  if (bound?.low > 1) return `at least ${down(Math.min(bound.low, ratio)).toFixed(2)}×: ${how}`;
  if (bound?.high != null && bound.high < 1) return `at most ${up(Math.max(bound.high, ratio)).toFixed(2)}×: ${how}`;
  return `none: ${how}`;
}

/** The report's first line: what was measured, where and when, on what machine. */
function runLine(context, decisions, groups) {
  const date = (context.created_at ?? '').slice(0, 10);
  // The caching groups have no fastest of their own (a pair, not a situation): counted apart, so
  // that the Method's count of groups adds up.
  const cached = groups.filter(
    (g) => !g.judgment.decision && g.judgment.comparisons.some((c) => c.dimension === 'caching'),
  ).length;
  const situations =
    `${decisions.length} situation${decisions.length === 1 ? '' : 's'}` +
    (cached ? `, and ${cached} more of cached data sorted again` : '');
  // How much the run left open, said before any answer leans on it.
  const comparisons = groups.flatMap((g) => g.judgment.comparisons);
  const open = comparisons.filter((c) => !c.settled).length;
  const unsure = open ? ` ${open} of its ${comparisons.length} comparisons ended before they were certain.` : '';
  // A total shorter than the groups needed: why more is left "can't tell yet", said up front.
  const short =
    context.budget?.total_ms && context.budget.need_ms > context.budget.total_ms
      ? ` Its ${duration(context.budget.total_ms)} were less than the ${duration(context.budget.need_ms)} ` +
        'needed to measure every situation enough: a longer run would leave fewer.'
      : '';
  // The plan by name and, where it has one, in words: "Plan quick (a short sample of …)".
  const title = context.plan?.title ? ` (${context.plan.title})` : '';
  const plan = `Plan ${context.plan?.name ?? '?'}${title}, ${browserWords(context)}${date ? `, ${date}` : ''}`;
  return `${plan}; ${situations}.${unsure}${short}`;
}

const SIZES_NOTE =
  'The body of each answer as the browser received it, its headers not counted: raw (its decoded size) and as ' +
  'sent under each compression measured, for the whole body and per object (medians over the samples; sizes ' +
  'do not vary). The chart of bytes per configuration counts the headers too.';
/** What the weighted index is, and is not. */
const indexNote = (weightsText) =>
  "A related study (listed in the lab's docs/method.md) ranked formats by an index rather than by response " +
  'time: each ' +
  "configuration's server encode time, transfer time, bytes on the wire and browser decode time, each divided " +
  "by the baseline's (JSON with response.json(), uncompressed), then weighted " +
  `${weightsText} (encode/transfer/size/decode) and summed. The baseline scores 1; lower is better. It is shown ` +
  'here to compare with that study, not as a recommendation: it weighs bytes and encode time whether or not ' +
  'they make anyone wait, so its first rank need not be the fastest configuration — for that, read "What to ' +
  'choose". The figures are medians of per-sample values; the encode time of a streamed body is scaled up from ' +
  'its first part (Server-Timing covers only that). Other weights: this run loaded on the lab\'s page ("Load a ' +
  'run"), or npm run report -- <run directory> --weights 40/20/35/5.';

/** "books/1000/10mbit" → "1,000 Books at 10 Mbit/s"; "books/10/lte/h2" → "… over HTTP/2 with TLS". */
function situationTitle(situation) {
  const [object, count, name, protocol] = situation.split('/');
  return situationWords({ object, count: Number(count), network: name, cm: 0, protocol });
}

/**
 * How often the index's first rank is not the fastest configuration of its situation (the
 * decision of the nothing-computed group with the same objects, N and network), named.
 */
function indexDisagreements(ranking, decided, delta) {
  const differ = [];
  let compared = 0;
  let asFast = 0;
  for (const situation of ranking) {
    const [object, count, name, protocol = DEFAULT_PROTOCOL] = situation.situation.split('/');
    const decision = decided.find(
      (d) =>
        d.cm === 0 &&
        d.object === object &&
        d.count === Number(count) &&
        d.network === name &&
        (d.protocol ?? DEFAULT_PROTOCOL) === protocol,
    );
    const first = situation.ranking[0];
    if (!decision || !first || first.index === null) continue;
    compared += 1;
    const fastest = decision.fastest_cell;
    const same = ['format', 'decoder', 'compression'].every((k) => first.configuration[k] === fastest[k]);
    const sameLevel = (first.configuration.level ?? null) === (fastest.level ?? defaultLevel(fastest.compression));
    if (same && sameLevel) continue;
    // The index's first, certainly as fast as the fastest, agrees with it: not a disagreement.
    const named = configurationWords({ ...first.configuration, scenario: 1 });
    const caseId = decision.others.find((o) => o.configuration === named)?.case_id;
    const standing = situationAnswer(decision, delta).rows.find((r) => r.case_id === caseId);
    if (standing?.word === WORDS.AS_FAST) {
      asFast += 1;
      continue;
    }
    differ.push(
      `${situationTitle(situation.situation)}: the index ranks ${named} first; ` +
        `${configurationWords(decision.fastest_cell)} ` +
        `${decision.recommendation !== NO_CLEAR_WINNER ? 'was' : decision.settled ? 'tied' : 'looked'} fastest`,
    );
  }
  const alike = asFast ? ` (in ${asFast} more, its first was as fast as the fastest)` : '';
  if (!compared) return 'No situation here has both an index (it needs Server-Timing) and a fastest configuration.';
  if (!differ.length)
    return asFast
      ? `In all ${compared} situations the index ranks first the fastest configuration or one as fast.`
      : `In all ${compared} situations the index ranks the fastest configuration first.`;
  return (
    `In ${differ.length} of ${compared} situations the index's first is not the fastest configuration` +
    `${alike}: ${differ.join('; ')}.`
  );
}

const BREAK_EVEN_NOTE =
  'For each compression and level against uncompressed: what compressing costs unthrottled (the difference ' +
  "of the two times as measured side by side, with its 95 % CI; split into the server's compress time from " +
  "Server-Timing and the rest — the browser's decompression and whatever else differs; the server compresses " +
  'while it sends, so its compress time overlaps the transfer and the rest can be negative) and the body bytes it ' +
  'saves. On a link of B bit/s the saved bytes take saved × 8 / B longer uncompressed, so compressing pays below ' +
  'B* = saved × 8 / cost ("any speed" where the cost is zero or less; where only its 95 % CI reaches zero, the ' +
  'range of B* reaches any speed). The model leaves out round ' +
  'trips (slow start grows with the body); the last column checks it against the cells measured on slower links, ' +
  'in the words of "What to choose".';

/**
 * An anchor for a heading, as GitHub makes them for Markdown headings (lower case, punctuation
 * dropped, each space a hyphen), so that the Markdown report's contents link on GitHub too;
 * `seen` numbers repeats ("-1", "-2") as GitHub does.
 */
export function headingId(heading, seen = new Map()) {
  const base = heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
  const times = seen.get(base) ?? 0;
  seen.set(base, times + 1);
  return times === 0 ? base : `${base}-${times}`;
}

/**
 * The sections' headings with their anchors; the contents list the headings after the first
 * section (which comes before them, so that the report opens with its answer), and only when
 * there are at least three.
 */
function contents(sections) {
  const seen = new Map();
  const ids = sections.map((s) => ({
    heading: s.heading ? headingId(s.heading, seen) : null,
    subheading: s.subheading ? headingId(s.subheading, seen) : null,
  }));
  const entries = sections.map((s, i) => ({ text: s.heading, id: ids[i].heading })).filter((e) => e.text);
  return { ids, entries: entries.length >= 3 ? entries.slice(1) : [] };
}

/** The index of the first section with a heading: the contents follow it (the answer comes first). */
const afterFirstHeading = (sections) => sections.findIndex((s) => s.heading);

/** The report's title, and the heading of its opening (whose words the opening counts). */
const REPORT_TITLE = 'Response Time Lab report';
const OPENING_HEADING = 'What to choose';

/**
 * The report's sections as Markdown (also the load testbed's report). A section's paragraph is a
 * string, or {lead, list}: a line in bold with a list under it, or {lead, table}: with a table.
 */
export function renderMarkdown(sections, title = REPORT_TITLE) {
  const out = [`# ${title}`, ''];
  const { entries } = contents(sections);
  sections.forEach((s, i) => {
    if (s.heading) out.push(`## ${s.heading}`, '');
    if (s.subheading) out.push(`### ${s.subheading}`, '');
    for (const p of s.paragraphs ?? [])
      out.push(
        ...(typeof p === 'string'
          ? [p]
          : [
              `**${p.lead}**`,
              '',
              ...(p.table ? [markdownTable(p.table.header, p.table.rows)] : p.list.map((l) => `- ${markdownItem(l)}`)),
            ]),
        '',
      );
    if (s.table) out.push(markdownTable(s.table.header, s.table.rows), '');
    if (s.after) out.push(s.after, '');
    if (s.list) out.push(...s.list.map((l) => `- ${l}`), '');
    for (const c of s.charts ?? []) out.push(`${c.title}`, '', `![${c.title}](charts/${c.name}.svg)`, '');
    // The contents under a heading of their own, so the opening section ends where they start.
    if (i === afterFirstHeading(sections) && entries.length)
      out.push('## Contents', '', ...entries.map((e) => `- [${e.text}](#${e.id})`), '');
  });
  return `${out.join('\n').trimEnd()}\n`;
}

/**
 * The page's style: text in lines short enough to read, tables that scroll inside themselves
 * when wider than the page, and each chart at the drawing (CHART_LAYOUTS) its figure's width
 * reaches, scaled to that width.
 */
const STYLE = [
  'body{font:15px/1.5 system-ui,sans-serif;max-width:1200px;margin:0 auto;padding:0 16px 40px;color:#1f2328}',
  'h1{font-size:1.75em;line-height:1.25}',
  'h2{margin-top:1.8em;padding-bottom:.2em;border-bottom:1px solid #d0d7de;line-height:1.3}',
  'h2,h3{scroll-margin-top:8px}',
  'p,li{max-width:80ch}',
  'p.lead{font-weight:600;margin-bottom:.2em}ul.answers{margin-top:0}ul.answers li{margin:.15em 0}',
  // A paragraph's table is the answers in short: what to choose stands out.
  '.choices td:nth-child(2){font-weight:600}',
  // The words before the bottom line that uses them; on a phone the bottom line first (htmlParagraphs).
  'h1,h2,h3,p,li,figcaption{overflow-wrap:anywhere}',
  'nav.contents{background:#f6f8fa;border:1px solid #d0d7de;border-radius:6px;padding:8px 16px;margin:16px 0;' +
    'width:fit-content;max-width:100%;box-sizing:border-box}',
  'nav.contents h2{font-size:1em;margin:0;padding:0;border:0}',
  'nav.contents ol{margin:6px 0;padding-left:1.4em}nav.contents li{margin:2px 0}',
  'a{color:#0969da}',
  // As wide as its table, no wider: a narrow table's rules and shading end where its box does.
  '.table-scroll{overflow-x:auto;margin:8px 0 16px;border:1px solid #d0d7de;border-radius:6px;' +
    'width:fit-content;max-width:100%;box-sizing:border-box}',
  // A shadow on the side where more of the table is hidden, gone once scrolled there (local backgrounds
  // cover it at each end): on a phone the reader sees that the columns go on.
  '.table-scroll{background:linear-gradient(to right,#fff 30%,#fff0),linear-gradient(to left,#fff 30%,#fff0) 100% 0,' +
    'radial-gradient(farthest-side at 0 50%,#0005,#0000),' +
    'radial-gradient(farthest-side at 100% 50%,#0005,#0000) 100% 0;' +
    'background-repeat:no-repeat;background-size:40px 100%,40px 100%,14px 100%,14px 100%;' +
    'background-attachment:local,local,scroll,scroll}',
  'table{border-collapse:collapse;font-size:13px;line-height:1.4}',
  '.nowrap{white-space:nowrap}',
  'th,td{border-bottom:1px solid #d0d7de;padding:4px 8px;text-align:left;vertical-align:top}',
  'th{background:#f6f8fa}tr:last-child td{border-bottom:0}td.long{min-width:14em}',
  // On a phone, no column hides off the side: each row a card, each value under its column's name.
  '@media (max-width:600px){.table-scroll{overflow:visible;border:0;background:none}' +
    '.table-scroll table,.table-scroll tbody,.table-scroll tr,.table-scroll td{display:block}' +
    '.table-scroll thead{display:none}' +
    '.table-scroll tr{border:1px solid #d0d7de;border-radius:6px;margin:0 0 8px;padding:4px 0}' +
    '.table-scroll td{border:0;padding:1px 8px}.table-scroll td.long{min-width:0}.table-scroll td:empty{display:none}' +
    '.table-scroll td[data-label]::before{content:attr(data-label) ": ";font-weight:600}' +
    '.table-scroll td:first-child{font-weight:600}.table-scroll td[data-carried]{display:block}' +
    '.table-scroll td[data-carried]::before{content:attr(data-label) ": " attr(data-carried)}}',
  'figure.chart{margin:20px 0 36px;container-type:inline-size}',
  'figure.chart figcaption{font-weight:600;margin-bottom:8px;max-width:80ch}',
  'figure.chart svg{display:block;max-width:100%;height:auto}',
  'figure.chart .drawn-at svg{width:100%}',
  `${CHART_LAYOUTS.map((l) => `.drawn-at-${l.width}`).join(',')}{display:none}`,
  ...CHART_LAYOUTS.map((l, i) => {
    const below = CHART_LAYOUTS[i - 1]?.from;
    const query = [l.from > 0 ? `(min-width:${l.from}px)` : '', below ? `(max-width:${below - 0.02}px)` : '']
      .filter(Boolean)
      .join(' and ');
    return `@container ${query}{.drawn-at-${l.width}{display:block}}`;
  }),
].join('\n');

/** A chart as a figure: its drawings at each width (one shown, CSS picks), or its one SVG. */
function htmlChart(chart) {
  const drawings = chart.variants
    ? chart.variants.map((v) => `<div class="drawn-at drawn-at-${v.width}">${v.svg}</div>`).join('\n')
    : chart.svg;
  return `<figure class="chart"><figcaption>${escapeHtml(chart.title)}</figcaption>\n${drawings}</figure>`;
}

/** The report's sections as one self-contained HTML page, charts inline. */
export function renderHtml(sections, title = REPORT_TITLE) {
  const { ids, entries } = contents(sections);
  const nav = entries.length
    ? `<nav class="contents" aria-label="Contents"><h2 id="contents">Contents</h2><ol>${entries
        .map((e) => `<li><a href="#${e.id}">${escapeHtml(e.text)}</a></li>`)
        .join('')}</ol></nav>`
    : '';
  const body = sections
    .map((s, i) =>
      [
        s.heading ? `<h2 id="${ids[i].heading}">${escapeHtml(s.heading)}</h2>` : '',
        s.subheading ? `<h3 id="${ids[i].subheading}">${escapeHtml(s.subheading)}</h3>` : '',
        htmlParagraphs(s.paragraphs ?? []),
        s.table ? htmlTable(s.table.header, s.table.rows) : '',
        s.after ? `<p>${escapeHtml(s.after)}</p>` : '',
        s.list ? `<ul>${s.list.map((l) => `<li>${escapeHtml(l)}</li>`).join('')}</ul>` : '',
        ...(s.charts ?? []).map(htmlChart),
        i === afterFirstHeading(sections) ? nav : '',
      ]
        .filter(Boolean)
        .join('\n'),
    )
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style>
${STYLE}
</style></head><body>
<h1>${escapeHtml(title)}</h1>
${body}
</body></html>
`;
}

/** A list item: text, or {lead, text} with its lead in bold. */
/** Dates kept on one line (a narrow screen would break "2026-11-" from "28"). */
const noBreakDates = (html) => html.replace(/\b\d{4}-\d{2}-\d{2}\b/g, '<span class="nowrap">$&</span>');

/** A section's paragraphs in HTML: text, or a list under its lead. */
function htmlParagraphs(paragraphs) {
  const html = (p) =>
    typeof p === 'string'
      ? `<p>${noBreakDates(escapeHtml(p))}</p>`
      : `<div><p class="lead">${escapeHtml(p.lead)}</p>` +
        (p.table
          ? htmlTable(p.table.header, p.table.rows, p.grid ? 'grid' : 'choices')
          : `<ul class="answers">${p.list.map((l) => `<li>${htmlItem(l)}</li>`).join('')}</ul>`) +
        '</div>';
  return paragraphs.map(html).join('\n');
}

/** A list item in markdown: text, or {lead, text, sub} with its lead in bold and its sub-items below it. */
const markdownItem = (item) =>
  typeof item === 'string'
    ? item
    : [`**${item.lead}:** ${item.text}`, ...(item.sub ?? []).map((i) => `  - ${markdownItem(i)}`)].join('\n');
/** markdownItem in HTML. */
const htmlItem = (item) =>
  typeof item === 'string'
    ? escapeHtml(item)
    : `<strong>${escapeHtml(item.lead)}:</strong> ${escapeHtml(item.text)}` +
      (item.sub?.length ? `<ul>${item.sub.map((i) => `<li>${htmlItem(i)}</li>`).join('')}</ul>` : '');

function markdownTable(header, rows) {
  return [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.map((v) => String(v).replace(/\|/g, '\\|')).join(' | ')} |`),
  ].join('\n');
}

/** Characters from which a table cell's text counts as long (it keeps a readable width). */
const LONG_CELL = 30;

/** A table in a box of its own (of class `className`) that scrolls sideways when wider than the page. */
function htmlTable(header, rows, className = null) {
  const head = header.map((h) => `<th>${escapeHtml(h)}</th>`).join('');
  // A long text keeps a width a line of it reads at; the table scrolls rather than squeezing it.
  // Each cell names its column (data-label): on a phone a row is a card of "column: value" lines.
  // A first column left empty under the row above's value (the same situation) carries that value
  // for the card, which stands alone.
  let carried = '';
  const cell = (v, i) => {
    const label = header[i] ? ` data-label="${escapeHtml(header[i])}"` : '';
    if (i === 0 && v !== '') carried = String(v);
    const carry = i === 0 && v === '' && carried ? ` data-carried="${escapeHtml(carried)}"` : '';
    return `<td${String(v).length > LONG_CELL ? ' class="long"' : ''}${label}${carry}>${escapeHtml(v)}</td>`;
  };
  const body = rows.map((r) => `<tr>${r.map(cell).join('')}</tr>`).join('');
  const classes = ['table-scroll', className].filter(Boolean).join(' ');
  return `<div class="${classes}"><table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table></div>`;
}

/**
 * Builds everything the report says; pure, for tests and for the page.
 *
 * @param loaded {cells, groups, judging}: the runs as read-runs.js reads them (judging: the run's
 *     {delta, looks}, the defaults when not given)
 */
export function analyse({ cells, groups, judging = DEFAULT_JUDGING }) {
  const decided = decisions(cells, groups);
  const shown = shownFigures(decided, cells, judging);
  const all = onOneScale(comparisons(cells, groups), shown, judging.delta);
  return {
    comparisons: all,
    answers: answerQuestions(cells, all, judging, shown),
    conclusions: sourceConclusions(cells, all, judging),
    decisions: decided,
    shown,
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
  // On one machine there is no link, and no round trip to speak of: only what the largest probe proves.
  const none = 'browser and server on one machine, no link to measure';
  if (!m.at_least_bps) return none;
  return (
    `${none}: a ${(m.probe_transfer_size / 1e6).toFixed(2)} MB answer ` +
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
    const nominal =
      n.downBps == null
        ? 'no shaping'
        : `nominal ${mbit(n.downBps)}${n.rttMs ? `, ${n.rttMs} ms round trip added` : ''}`;
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
          ? `measured ${mbit(m.throughput_bps)}` +
            // A round trip is the link's only where the profile adds one; on loopback it is the machine's.
            (n.rttMs ? `, a small request's round trip ${m.rtt_ms.toFixed(1)} ms` : '')
          : 'not measured';
    return `${name}: ${measured} (${how ? `${nominal}; ${how}` : nominal})`;
  });
  const tcp = context.netns_link?.congestion_control
    ? `; TCP congestion control ${context.netns_link.congestion_control}`
    : '';
  return `Networks as measured before the first group — ${parts.join('; ')}${tcp}.`;
}

/** The run's browser and OS in words: "Chromium 156 on Linux". */
function browserWords(context) {
  const [engine = 'an unrecorded browser', version = ''] = (context.versions?.browser ?? '').split(' ');
  const name = engine.charAt(0).toUpperCase() + engine.slice(1);
  const os = (context.browser_machine?.os ?? '').split(' ')[0];
  return `${name}${version ? ` ${version.split('.')[0]}` : ''}${os ? ` on ${os}` : ''}`;
}

/** The networks in plain words: what each is and how it was made. */
function plainNetworks(context) {
  const entries = Object.entries(context.networks ?? {});
  const how = context.shaping === 'cdp' ? "Chromium's own network emulation" : 'the Linux kernel (tc), as a real link';
  return entries
    .map(([name, n]) => {
      const measured = n.measured?.throughput_bps
        ? // As the Method gives it, so that one rate reads the same in both.
          `, measured ${(n.measured.throughput_bps / 1e6).toFixed(n.measured.throughput_bps < 1e8 ? 2 : 0)} Mbit/s`
        : '';
      if (n.downBps == null && !n.rttMs)
        return `${network(name)}: browser and server on one machine, nothing in between`;
      return `${network(name)}: limited by ${how}${measured}`;
    })
    .join('; ');
}

/**
 * Who made the study this run reproduces, and how this run differs from it: the browser, the
 * operating system and the network.
 */
function sourceAndRun(context) {
  return (
    `The study reproduced: ${SOURCE_STUDY.authors}, "${SOURCE_STUDY.title}" (${SOURCE_STUDY.where}, ` +
    `${SOURCE_STUDY.year}). It timed ${SOURCE_STUDY.setup}. This run timed ${browserWords(context)}` +
    `${context.browser_machine?.cpus ? ` on a ${context.browser_machine.cpus}-CPU machine` : ''}, ` +
    'with browser and server on one machine over HTTP/1.1; the networks: ' +
    `${plainNetworks(context) || 'none recorded'}. Its cells, samples and version: see Method, at the end.`
  );
}

/** "Books have 6 properties, Videos 7": what "each property in turn" means for the run's objects. */
function properties(cells) {
  const measured = new Set(cells.map((c) => c.cell.object));
  return CATALOGUE.objects
    .filter((o) => measured.has(o.name))
    .map((o) => `${o.label.replace(/ \(.*\)$/, '')} have ${o.fields.length} properties`)
    .join(', ');
}

/** What the run's computation models and scenarios are, in words (only those it measured). */
function termsOfRun(cells) {
  const cms = [...new Set(cells.map((c) => c.cell.cm))].filter((cm) => cm > 0).sort((a, b) => a - b);
  const scenarios = [...new Set(cells.map((c) => c.cell.scenario))].sort((a, b) => a - b);
  const timed = scenarios.map((n) => `scenario ${n}, ${SCENARIO_ENTRIES[n].timed}`).join('; ');
  const models = cms.length
    ? ' The computation models are how much sorting is done: ' +
      cms.map((cm) => `CM${cm} — ${computationWords(cm).replace(/ \(CM\d\)$/, '')}`).join('; ') +
      ` (${properties(cells)}).`
    : '';
  // As the words of the opening say it: sorted too, where the browser sorts.
  const covers =
    "What a time covers: from the request's start until the objects are decoded (and sorted) in the browser";
  return `${covers} — ${timed}.${models} ${setupWords(cells)}`;
}

/**
 * What the objects hold and how each answer was made and read, from the run's cells: "A Book has
 * title, author, …; Decoded by: JSON with response.json(), …; GZIP at level 6, inflated by the
 * browser."
 */
function setupWords(cells) {
  const all = cells.map((c) => completeCell(c.cell));
  const objects = CATALOGUE.objects
    .filter((o) => all.some((c) => c.object === o.name))
    .map((o) => `a ${o.element} has ${o.fields.map((f) => `${f.name} (${f.type})`).join(', ')}`);
  const decoders = CATALOGUE.formats.flatMap((f) =>
    f.decoders
      .filter((d) => all.some((c) => c.format === f.name && c.decoder === d.name))
      .map((d) => `${f.label} with ${d.label}`),
  );
  const levels = CATALOGUE.compressions.flatMap((z) =>
    [...new Set(all.filter((c) => c.compression === z.name && c.level != null).map((c) => c.level))].map(
      (level) => `${z.label} at level ${level}`,
    ),
  );
  return [
    objects.length ? `${capital(objects.join('; '))}.` : '',
    decoders.length ? `Decoded by ${decoders.join('; ')}.` : '',
    levels.length ? `Compression: ${levels.join(', ')}, inflated by the browser itself.` : '',
  ]
    .filter(Boolean)
    .join(' ');
}

/**
 * @param runPaths run directories
 * @param outDirectory where the report goes (the first run's directory by default)
 * @param options {weights} of the weighted index (default 40/20/35/5)
 */
/** The datasets the runs brought, each once by name (the first run's record of it). */
function broughtDatasets(runs) {
  const byName = new Map();
  for (const dataset of runs.flatMap((r) => r.context.datasets ?? [])) {
    if (!byName.has(dataset.name)) byName.set(dataset.name, dataset);
  }
  return [...byName.values()];
}

export async function makeReport(runPaths, outDirectory = runPaths[0], { weights = DEFAULT_WEIGHTS } = {}) {
  const loaded = readRuns(runPaths);
  const { runs, cells, judging } = loaded;
  if (cells.length === 0) throw new Error(`no completed cells in ${runPaths.join(', ')}`);
  const context = runs[0].context;
  const { comparisons: all, answers, conclusions, decisions: helper } = analyse(loaded);
  mkdirSync(join(outDirectory, 'charts'), { recursive: true });

  const breakEven = breakEvens(cells, all, context.networks, judging);
  // The opening's words count its title, first line and heading too.
  const firstLine = runLine(context, helper, loaded.groups);
  const titleWords = [REPORT_TITLE, firstLine, OPENING_HEADING].join(' ').split(/\s+/).length;
  const opening = answerFirst(helper, cells, judging, {
    comparisons: all,
    breakEven,
    longer: longerRun(context, loaded.groups),
    shaping: context.shaping,
    titleWords,
  });
  const shown = shownFigures(helper, cells, judging);
  const rows = summaryRows(cells, shown);
  writeFileSync(join(outDirectory, 'summary.csv'), toCsv(SUMMARY_COLUMNS, rows));

  const charts = await renderCharts(chartSpecs(cells, all, context.networks, judging, shown));
  for (const chart of charts) writeFileSync(join(outDirectory, 'charts', `${chart.name}.svg`), chart.svg);

  const intro =
    `Plan ${context.plan?.name ?? '?'}: ${cells.length} cells (a cell is one configuration in one situation) from ` +
    `${runs.length} run(s), ${cells.reduce((n, c) => n + c.stats.n, 0)} samples; commit ` +
    `${context.git?.commit?.slice(0, 12) ?? '?'}${context.git?.dirty ? ' (dirty)' : ''}; ` +
    `${context.versions?.browser ?? ''}; shaping ${context.shaping ?? '?'}.`;
  const networks = describeNetworks(context);
  const conclusionRows = conclusions.map((c) => [c.claim, c.theirs, c.ours, c.counted, c.verdict_words]);
  const contradictions = conclusions
    .filter((c) => c.contradicted > 0)
    .map(
      (c) =>
        `The source says: "${c.claim}" We measured: ${c.ours} (the source: ${c.theirs}); it is contradicted in ` +
        `${c.contradicted} of ${c.n} comparisons and holds in ${c.holds}: ` +
        `${c.parts
          .filter((p) => p.contradicted > 0)
          .map((p) => `${p.what} — contradicted in ${p.contradicted} of ${p.n}${asFastWords(p)}`)
          .join('; ')}.`,
    );
  const decisionHeader = [
    'situation',
    'configuration',
    'time (ms)',
    '× the fastest',
    'verdict',
    "ratio's 95 % CI",
    'times measured',
  ];
  const decisionRows = decisionTableRows(helper, cells, judging);
  const conclusionHeader = ['source conclusion', 'the source measured', 'we measured', 'comparisons', 'verdict'];
  const everyOwnMedian = helper.every(ownMedians);
  const decisionNote =
    'Every configuration of every situation, with the time and verdict "What to choose" gives it: the fastest ' +
    'first, then the others by time. ' +
    (cells.some((c) => SCENARIO_ENTRIES[c.cell.scenario]?.family === 'caching')
      ? 'The caching pairs (asking the server again against re-sorting a cached copy) are compared in their ' +
        'own section below, on client-side caching (research question 4), not here. '
      : '') +
    (everyOwnMedian
      ? "A configuration's time is its median, measured in turns with the others of its situation; × the " +
        "fastest is its time over the fastest's. "
      : "A configuration's time is the fastest's times its ratio to the fastest (the ratio the two had when " +
        'measured side by side). ') +
    "The CI is the ratio's, the range its true value lies in with 95 % confidence, rounded outward; where a " +
    'few measurements decided a ratio by the stricter early test (one that errs far less often than 1 in 20; see ' +
    'Method), the bound that test gives instead ("at least k×", no further from 1 than the ratio shown). ' +
    'Times measured can differ within a situation: each turn measures a configuration twice, or once where ' +
    'one measurement takes longer than a turn may, and a configuration the stricter early test had already told ' +
    'apart from every other leaves the turns early. summary.csv has the same figures (situation_ms, ' +
    'times_fastest, verdict).';

  const counts = checkCounts(breakEven);
  const breakEvenCheck =
    counts.n === 0
      ? 'No slower network was measured to check these against.'
      : 'Checked against the cells measured on slower links: ' +
        `the break-even predicted the faster side in ${counts.holds} of ` +
        `${counts.n} comparisons, was contradicted in ${counts.contradicted}, ` +
        `and ${counts.open} ${counts.open === 1 ? 'stays' : 'stay'} open (the link speed ` +
        "inside the break-even's CI, or the measured comparison unresolved or equivalent).";
  const sizes = sizeTable(cells);
  const ranking = indexRanking(cells, weights);
  const weightsText = FIGURES.map((f) => weights[f]).join('/');
  const indexAgainstFastest = indexDisagreements(ranking, helper, judging.delta);
  const spent = timeSpent(loaded.groups);
  const warmCheck = countedWarmups(cells);
  const { total } = spent;
  const phase = (ms) => `${duration(ms)} (${total.ms ? Math.round((100 * ms) / total.ms) : 0} %)`;
  const rowOf = new Map(spent.groups.map((g) => [g.group_id, g]));
  const nothing = total.bought_nothing.map((id) => {
    const time = rowOf.get(id).time;
    return `${id}${time ? ` (${duration(time.total_ms)})` : ''}`;
  });
  const whatTimeBought = [
    ...(total.ms_per_answer === null
      ? []
      : [
          `Per settled comparison, ${perAnswer(total.ms_per_answer)} of group time: the time of the groups ` +
            `with comparisons over the ${total.answered} they settled (the "per settled" column gives it group ` +
            'by group; a group of one cell has no comparison, and its time is left out).',
        ]),
    nothing.length
      ? `${nothing.length === 1 ? 'One group' : `${nothing.length} groups`} settled none of ` +
        `${nothing.length === 1 ? 'its' : 'their'} comparisons, so ${nothing.length === 1 ? 'its' : 'their'} ` +
        `time bought no answer: ${nothing.join(', ')}.`
      : 'Every group with comparisons settled at least one of them.',
  ].join(' ');
  const timeSection = {
    subheading: 'How the groups decided, and where the time went',
    paragraphs: [
      `Of ${total.comparisons} comparisons, ${total.by_bootstrap} ` +
        `${total.by_bootstrap === 1 ? 'was settled by its' : 'were settled by their'} round-bootstrap CI, ` +
        `${total.by_few_rounds} by the stricter early test (an overwhelming ratio, decided from the rounds a ` +
        `slow cell allows: the lab's docs/method.md), and ${total.open} stayed open; each open one's group says why.`,
      ...(total.ms
        ? [
            `The groups took ${duration(total.ms)}: warm-up ${phase(total.warmup_ms)}, ` +
              `rounds ${phase(total.rounds_ms)}, decision time ${phase(total.decision_ms)}, ` +
              `verification ${phase(total.verify_ms)}. A warm-up iteration long enough to stand as a group's ` +
              "round 1 counts in the warm-up's time.",
          ]
        : []),
      ...(warmCheck ? [countedWarmupParagraph(warmCheck)] : []),
      whatTimeBought,
      ...(context.budget?.total_ms ? [budgetParagraph(context.budget, runClock(context, loaded.groups))] : []),
    ],
    table: {
      header: [
        'group',
        'time',
        'warm-up',
        ...(context.budget?.total_ms ? ['share for rounds'] : []),
        'rounds (time)',
        'decision time',
        'stopped',
        'by CI',
        'by stricter early test',
        'open',
        'per settled',
        'why open',
      ],
      rows: [...spent.groups]
        .sort((a, b) => (b.time?.total_ms ?? 0) - (a.time?.total_ms ?? 0))
        .map((g) => [
          g.group_id,
          g.time ? duration(g.time.total_ms) : '—',
          g.time ? duration(g.time.warmup_ms) : '—',
          ...(context.budget?.total_ms ? [g.budget ? duration(g.budget.rounds_ms) : '—'] : []),
          `${g.rounds}${g.time ? ` (${duration(g.time.rounds_ms)})` : ''}`,
          g.time ? duration(g.time.decision_ms) : '—',
          g.stop ?? '—',
          g.by_bootstrap,
          g.by_few_rounds,
          g.open,
          g.ms_per_answer === null ? '—' : perAnswer(g.ms_per_answer),
          g.why_open,
        ]),
    },
  };
  const engine = describeEngine(runs.map((r) => r.context));
  const sections = [
    { paragraphs: [firstLine] },
    {
      heading: OPENING_HEADING,
      paragraphs: [
        ...(opening.short.length ? [{ lead: opening.leads.short, list: opening.short.map(topicItem) }] : []),
        ...(opening.answer.length ? [{ lead: opening.leads.answer, list: opening.answer }] : []),
        ...(opening.sure.length ? [{ lead: opening.leads.sure, list: opening.sure }] : []),
        // The words (CM, situation, unthrottled) before the grids that use them.
        { lead: opening.leads.words, list: opening.words },
        ...opening.in_short_grids.map((g) => ({ ...g, grid: true })),
        ...(opening.bottom_line.length ? [{ lead: opening.leads.bottom, list: opening.bottom_line }] : []),
        ...protocolParagraphs(helper, cells, judging),
      ],
    },
    ...(opening.families.length
      ? [
          {
            heading: SITUATIONS_HEADING,
            paragraphs: [
              SITUATIONS_NOTE,
              ...opening.families.map(({ family, texts }) => ({ lead: `${family}:`, list: texts })),
            ],
          },
        ]
      : []),
    {
      heading: 'This run and the study it reproduces',
      paragraphs: [sourceAndRun(context), termsOfRun(cells)],
    },
    {
      heading: 'Every configuration, in numbers',
      paragraphs: [decisionNote],
      table: { header: decisionHeader, rows: decisionRows },
    },
    ...Object.entries(answers).map(([id, { question, answers: lines }]) => ({
      heading: `${question} (research question ${id.replace(/^RQ/, '')})`,
      list: lines.length ? lines : ['Not measured in these runs.'],
    })),
    ...(breakEven.length
      ? [
          {
            heading: BREAK_EVEN_HEADING,
            paragraphs: [BREAK_EVEN_NOTE, breakEvenCheck],
            table: breakEvenTableRows(breakEven),
          },
        ]
      : []),
    ...(sizes.length ? [{ heading: 'Bytes per format', paragraphs: [SIZES_NOTE], table: sizeTableRows(sizes) }] : []),
    ...datasetSizeSections(broughtDatasets(runs)),
    {
      heading: "The source study's conclusions",
      paragraphs: [conclusionRule(judging.delta)],
      table: { header: conclusionHeader, rows: conclusionRows },
      ...(contradictions.length
        ? { after: 'Where our measurements contradict the source:', list: contradictions }
        : {}),
    },
    ...(ranking.length
      ? [
          {
            heading: "A related study's weighted index (not a response-time answer)",
            paragraphs: [indexNote(weightsText), indexAgainstFastest],
          },
          ...ranking.map((situation) => ({
            subheading: situationTitle(situation.situation),
            table: indexTableRows(situation),
          })),
        ]
      : []),
    { heading: 'Charts', charts },
    {
      heading: 'Method',
      paragraphs: [
        engine,
        intro,
        ...(networks ? [networks] : []),
        method(judging),
        "Every cell's statistics: summary.csv. Every time the report shows is a median over all of a " +
          "cell's samples, none dropped; summary.csv's mean_trimmed_ms is the source study's statistic " +
          '(the mean after dropping values more than 2σ from it; how many: the dropped column).',
      ],
    },
    timeSection,
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
        engine,
        intro,
        networks,
        judging,
        answers,
        conclusions,
        contradictions,
        decisions: helper,
        time_spent: spent,
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

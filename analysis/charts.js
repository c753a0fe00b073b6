// The report's charts as Vega-Lite specs, rendered to SVG in Node (no browser): response time
// per configuration, where the time goes, bytes on the wire, server against browser sorting per
// CM, caching against a second request, "how many times slower" ratios, bytes per object, and
// the break-even bandwidth of each compression against the networks measured.
//
// Each chart is drawn at a few widths (CHART_LAYOUTS) and a page shows the one that fits its
// column, scaled to the column's width: a panel per situation (objects, N, network) with its own
// axis, so N=10 is as readable as N=100,000, panels wrapped into as many columns as fit. Every
// configuration has one colour in every chart (chart-colours.js); labels are never cut.

import * as vega from 'vega';
import { compile } from 'vega-lite';
import { inFamily, scenarioOf } from '#common/cell.js';
import { CATALOGUE, OBJECT_NAMES, compressionLabel, formatLabel } from '#common/catalogue.js';
import { NETWORK_NAMES } from '#common/network-profiles.js';
import { cmAmount, configurationWords, network, objects } from '#common/answer-words.js';
import { sizeTable } from './formats.js';
import { CHART_RANGE_MBPS, breakEvens } from './compression.js';
import { configurationColour, configurationOrder } from './chart-colours.js';

const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';

/**
 * The widths each chart is drawn at (px) and the narrowest column each is shown in (`from`): a
 * page shows the widest that its column reaches, scaled to the column, so text is drawn at 0.7
 * to 1.4 times its size. The widest is the HTML report's column.
 */
export const CHART_LAYOUTS = Object.freeze([
  Object.freeze({ width: 1200, from: 900 }),
  Object.freeze({ width: 760, from: 560 }),
  Object.freeze({ width: 400, from: 0 }),
]);

/** Font sizes (px): axis and legend labels and titles, panel titles. */
const FONT = 12;
const PANEL_FONT = 13;
/** Space between panels (px), and what Vega pads around a whole chart on each side. */
const COLUMN_SPACING = 32;
const ROW_SPACING = 18;
const PADDING = 5;
/** Height of one bar or row of points (px): room for a 12 px label and a gap. */
const ROW_STEP = 22;
/** What an axis needs beside its labels: tick, padding, and a little air (px). */
const AXIS_GAP = 14;
/** The narrowest a panel's plot may get before its panels wrap into fewer columns (px). */
const MIN_PANEL = 240;

/**
 * The charts' font, named rather than left to each engine's `sans-serif` (Chromium's is Liberation
 * Sans here, Firefox's the taller and wider DejaVu Sans): Arial's metrics wherever one of these is
 * installed, so that what is laid out in Node fits in every browser.
 */
const FONT_FAMILY = 'Liberation Sans, Arial, Helvetica, sans-serif';

const CONFIG = {
  font: FONT_FAMILY,
  // Title padding past Vega's 4 px: Firefox's text boxes reach further above and below a line than
  // Chromium's, and a title 4 px from the tick labels touches them there.
  axis: {
    labelFontSize: FONT,
    titleFontSize: FONT,
    titleFontWeight: 'normal',
    labelLimit: 0,
    titleLimit: 0,
    titlePadding: 8,
  },
  legend: {
    labelFontSize: FONT,
    titleFontSize: FONT,
    labelLimit: 0,
    titleLimit: 0,
    orient: 'top',
    direction: 'horizontal',
    symbolSize: 120,
    // Rows of a wrapped legend apart by more than Vega's 2 px, for the same reason as titlePadding.
    rowPadding: 6,
  },
  // Labels at a quantitative axis's ends (within this many px) align inside it, not half over its edge.
  axisQuantitative: { labelFlush: 40 },
  header: { labelFontSize: PANEL_FONT, labelLimit: 0, titleLimit: 0 },
  view: { stroke: '#d0d7de' },
};

// Text widths. Without a canvas in Node, Vega guesses 0.8 em for every character, so labels'
// room comes out about half as wide again as they are and panels narrower than they could be.
// Instead: per character, a little more than DejaVu Sans takes (wider than the Arial-metric fonts
// FONT_FAMILY names, so an upper bound where it falls back further).
const NARROW = new Set(" .,:;!'|ilIjft()[]");
const WIDE = new Set('mwMW%@');
/** The width (px) a text takes at `fontSize`, an upper bound for common sans-serif fonts. */
export function textWidth(text, fontSize = 11, bold = false) {
  let em = 0;
  for (const ch of String(text)) {
    em += NARROW.has(ch) ? 0.4 : WIDE.has(ch) ? 1 : /[A-Z]/.test(ch) ? 0.76 : /[a-z0-9]/.test(ch) ? 0.64 : 0.72;
  }
  return em * fontSize * (bold ? 1.1 : 1);
}
const isBold = (weight) => weight === 'bold' || Number(weight) >= 600;
// Vega's hook for measuring text (vega-scenegraph's textMetrics.width, which vl-convert replaces too).
vega.textMetrics.width = (item, text) => {
  const width = textWidth(String(text ?? '').trim(), item.fontSize ?? 11, isBold(item.fontWeight));
  return item.limit > 0 ? Math.min(width, item.limit) : width;
};

const objectText = (object) => objects({ object, count: 2 }).replace(/^2 /, '');
const countText = (count) => `N=${Number(count).toLocaleString('en-US')}`;
/** A compression as the opening says it: "uncompressed", "GZIP", "Brotli 11". */
const compressionText = (cell) =>
  cell.compression === 'none' ? 'uncompressed' : compressionLabel(cell.compression, cell.level);
/** A situation as a panel's title, in the opening's words: "1,000 Books at 10 Mbit/s", "10 Books unthrottled". */
const situationText = ({ object, count, network: name }) =>
  [objects({ object, count }), name && network(name)].filter(Boolean).join(' ');
/** Situations in the report's order: objects as the catalogue lists them, networks as profiles do, N ascending. */
const situationOrder = (a, b) =>
  OBJECT_NAMES.indexOf(a.object) - OBJECT_NAMES.indexOf(b.object) ||
  NETWORK_NAMES.indexOf(a.network) - NETWORK_NAMES.indexOf(b.network) ||
  (a.count ?? 0) - (b.count ?? 0);
/** A computation model in words, as the opening's grids name it: "CM3: 10 sorts per property". */
function cmText(level) {
  return CATALOGUE.computation_models.some((m) => m.level === level) ? `CM${level}: ${cmAmount(level)}` : `CM${level}`;
}
/** A configuration without what it computes, in the opening's words: "JSON uncompressed", "JSON with GZIP". */
const configurationText = (cell) => configurationWords({ ...cell, scenario: 1 });

/** The distinct values of `key` among `rows`, in the order `order` sorts their rows. */
function distinct(rows, key, order) {
  const seen = new Map();
  for (const r of [...rows].sort(order)) if (!seen.has(r[key])) seen.set(r[key], r);
  return [...seen.keys()];
}

/** The colour scale of the configurations measured: each its own colour, in catalogue order. */
function colourScale(rows) {
  const byLabel = new Map();
  for (const r of [...rows].sort((a, b) => configurationOrder(a.cell, b.cell))) {
    if (!byLabel.has(r.configuration)) byLabel.set(r.configuration, configurationColour(r.cell));
  }
  return { domain: [...byLabel.keys()], range: [...byLabel.values()] };
}

/**
 * How many columns of panels fit `width`, and each panel's plot width: `left` is the room the
 * first column's row labels take; `correction` (px) is what an earlier drawing missed by.
 */
function columnsFor(width, { panels, preferred = panels, left, minPanel = MIN_PANEL, correction = 0 }) {
  const usable = width - 2 * PADDING - left;
  const fits = (n) => n === 1 || (usable - (n - 1) * COLUMN_SPACING) / n >= minPanel;
  let fitting = Math.max(1, Math.min(panels, preferred));
  while (!fits(fitting)) fitting--;
  // One N per column keeps a column's panels alike; when they do not all fit, a divisor of
  // them does the same (4 N in 2 columns), unless it would leave half the room unused.
  const divisor = [...Array(fitting).keys()].map((i) => fitting - i).find((n) => preferred % n === 0);
  const columns = preferred > fitting && divisor * 2 >= fitting ? divisor : fitting;
  const panelWidth = Math.floor((usable - (columns - 1) * COLUMN_SPACING + correction) / columns);
  return { columns, panelWidth: Math.max(60, panelWidth) };
}

/** `text` broken into lines of at most `maxWidth` px, between words (a word longer stays whole). */
export function wrapText(text, maxWidth, fontSize = FONT, bold = false) {
  const lines = [];
  for (const word of String(text).split(' ')) {
    const last = lines.at(-1);
    if (last !== undefined && textWidth(`${last} ${word}`, fontSize, bold) <= maxWidth)
      lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}

/**
 * Labels wrapped to `maxWidth`: {lines (the most any label takes), width (px, the widest line),
 * expr (a Vega label expression giving the wrapped ones as lines, or undefined when none wraps)}.
 * `datum.label` is in parentheses: Vega-Lite pastes an expression of its own in its place.
 */
function wrappedLabels(labels, maxWidth, { fontSize = FONT, bold = false, even = false } = {}) {
  const parts = new Map(labels.map((label) => [label, wrapText(label, maxWidth, fontSize, bold)]));
  const lines = Math.max(1, ...[...parts.values()].map((p) => p.length));
  const width = Math.max(0, ...[...parts.values()].flat().map((p) => textWidth(p, fontSize, bold)));
  const wrapped = {};
  for (const [label, own] of parts) {
    // Even: every label as many lines as the longest, blank ones first, so that panels side by side line up.
    const padded = even ? [...Array(lines - own.length).fill(''), ...own] : own;
    if (padded.length > 1) wrapped[label] = padded;
  }
  const expr = Object.keys(wrapped).length ? `(${JSON.stringify(wrapped)})[(datum.label)] || (datum.label)` : undefined;
  return { lines, width: Math.ceil(width), expr };
}

/** The most of a chart's width its row labels may take: a phone keeps room for the data. */
const maxLabelRoom = (width) => Math.max(120, Math.round(0.36 * width));

/** Ticks for about every 90 px of a panel, so that labels such as "100,000" never crowd. */
const tickCount = (panelWidth) => Math.max(2, Math.floor(panelWidth / 90));

/** How many columns a legend's entries (`labels`) take in `width`. */
function legendColumns(width, labels) {
  const entry = Math.max(...labels.map((l) => textWidth(l, FONT))) + 30;
  return Math.max(1, Math.min(labels.length, Math.floor((width - 2 * PADDING) / entry)));
}

/**
 * A chart of panels, one per situation (`panel` in the rows), wrapped into columns that fill
 * the width; each panel has its own x scale, rows (y) are shared and labelled once per line.
 * `rowLabels`: the y axis's labels (wrapped to fit), or `left`, the room a quantitative y axis
 * takes. `layers({width, panelWidth, rowAxis, step})` gives the panel's layers: `rowAxis` is the
 * y axis's properties, `step` the height of a row, `width` the room a legend has.
 */
function panelChart({ rows, panels, rowLabels, left, layers, preferredColumns, height, rowsPerStep = 1, minPanel }) {
  return (width, correction = 0) => {
    const labels = rowLabels
      ? wrappedLabels(rowLabels, maxLabelRoom(width) - AXIS_GAP)
      : { lines: 1, width: left - AXIS_GAP, expr: undefined };
    const { columns, panelWidth } = columnsFor(width, {
      panels: panels.length,
      preferred: preferredColumns,
      left: labels.width + AXIS_GAP,
      minPanel,
      correction,
    });
    const headers = wrappedLabels(panels, panelWidth, { fontSize: PANEL_FONT, bold: true, even: true });
    // A row holds its label's lines; with several kinds per row (rowsPerStep) they share its height.
    const step = Math.max(ROW_STEP, Math.ceil((labels.lines * (FONT + 3) + 6) / rowsPerStep));
    const rowAxis = { labelLimit: 0, ...(labels.expr ? { labelExpr: labels.expr, labelLineHeight: FONT + 3 } : {}) };
    return {
      $schema: SCHEMA,
      data: { values: rows },
      facet: {
        field: 'panel',
        type: 'nominal',
        title: null,
        sort: panels,
        header: {
          labelFontWeight: 'bold',
          labelAnchor: 'start',
          labelPadding: 8,
          ...(headers.expr ? { labelExpr: headers.expr, labelLineHeight: PANEL_FONT + 3 } : {}),
        },
      },
      columns,
      spacing: { row: ROW_SPACING, column: COLUMN_SPACING },
      spec: {
        width: panelWidth,
        height: height ?? { step },
        // A legend starts where the panels do, right of the row labels.
        layer: layers({ width: width - labels.width - AXIS_GAP, panelWidth, rowAxis, step }),
      },
      resolve: { scale: { x: 'independent' }, axis: { x: 'independent' } },
      config: CONFIG,
    };
  };
}

/**
 * The fields of a cell's chart row: its situation's panel, its configuration, and its time — the
 * one the report's opening shows (`times`: case id → {time_ms, ci_low_ms, ci_high_ms}, the
 * fastest's median × its ratio to the fastest and that ratio's CI) where its situation was
 * decided, else its own median and CI.
 */
function cellRow(c, panelOf = situationText, times = new Map()) {
  const shown = times.get(c.case_id);
  return {
    cell: c.cell,
    panel: panelOf(c.cell),
    configuration: configurationText(c.cell),
    median_ms: shown ? shown.time_ms : c.stats.median,
    ci_low_ms: shown ? shown.ci_low_ms : c.stats.ci_low,
    ci_high_ms: shown ? shown.ci_high_ms : c.stats.ci_high,
  };
}
/** Rows in panel order, then configuration order (what every chart's domains follow). */
const rowOrder = (a, b) => situationOrder(a.cell, b.cell) || configurationOrder(a.cell, b.cell);

/** How many distinct N the rows have: a wide chart puts one per column, N ascending. */
const countsIn = (rows) => new Set(rows.map((r) => r.cell.count)).size;

/** Horizontal bars (median, with its CI as a line when given) per configuration, a panel per situation. */
function barChart(rows, { x, xTitle, ci }) {
  const configurations = distinct(rows, 'configuration', rowOrder);
  const colours = colourScale(rows);
  const y = { field: 'configuration', type: 'nominal', title: null, sort: configurations };
  return panelChart({
    rows,
    panels: distinct(rows, 'panel', rowOrder),
    rowLabels: configurations,
    preferredColumns: countsIn(rows),
    layers: ({ panelWidth, rowAxis }) => [
      {
        mark: { type: 'bar', height: { band: 0.7 } },
        encoding: {
          y: { ...y, axis: rowAxis },
          x: {
            field: x,
            type: 'quantitative',
            title: xTitle,
            axis: { tickCount: tickCount(panelWidth), format: ',~r' },
          },
          color: { field: 'configuration', type: 'nominal', scale: colours, legend: null },
        },
      },
      ...(ci
        ? [
            {
              mark: { type: 'rule', color: '#1f2328', strokeWidth: 1.5 },
              encoding: { y, x: { field: ci[0], type: 'quantitative' }, x2: { field: ci[1] } },
            },
          ]
        : []),
    ],
  });
}

/** A log scale over the data alone (not widened to whole decades), with room for a point's radius. */
const LOG_SCALE = Object.freeze({ type: 'log', nice: false, padding: 12 });
/**
 * A log axis's ticks: 1, 1.5, 2, 2.5, 3, 3.5, 4, 5, 6, 7, 8 and 9 of every power of ten, so that a
 * panel spanning a small part of one decade (3,100 to 3,900 ms) still has a label; the axis shows
 * those in its domain and drops any that would overlap, keeping the first.
 */
const LOG_TICKS = Object.freeze(
  [-1, 0, 1, 2, 3, 4, 5, 6].flatMap((power) =>
    [1, 1.5, 2, 2.5, 3, 3.5, 4, 5, 6, 7, 8, 9].map((m) => Number((m * 10 ** power).toPrecision(2))),
  ),
);
/** A linear scale over the data alone (a point needs no zero), with room for a point's radius. */
const POINT_SCALE = Object.freeze({ type: 'linear', zero: false, padding: 12 });
/** How many times its smallest value a panel's largest may be before its points go on a log scale. */
const LOG_FROM = 8;
/** Whether some panel's values span so much that the small ones would vanish on a linear scale. */
function needsLog(rows) {
  const spans = new Map();
  for (const r of rows) {
    const [low, high] = spans.get(r.panel) ?? [Infinity, 0];
    spans.set(r.panel, [Math.min(low, r.ci_low_ms ?? r.median_ms), Math.max(high, r.ci_high_ms ?? r.median_ms)]);
  }
  return [...spans.values()].some(([low, high]) => high > LOG_FROM * low);
}

/**
 * Points with their CI (on a log scale when `log`), two kinds (`kind`, told apart by shape and shade) per row
 * (`rowField`), a panel per configuration and situation: for computation, whose cost spans
 * orders of magnitude between CMs.
 */
function pairedPoints(rows, { kinds, xTitle, log }) {
  const scale = log ? LOG_SCALE : POINT_SCALE;
  const rowLabels = distinct(rows, 'row', (a, b) => a.cm - b.cm);
  const colours = colourScale(rows);
  const y = {
    field: 'row',
    type: 'nominal',
    title: null,
    sort: rowLabels,
    scale: { type: 'band', paddingInner: 0.25 },
  };
  const yOffset = { field: 'kind', type: 'nominal', sort: kinds, scale: { domain: kinds } };
  const panels = distinct(rows, 'panel', rowOrder);
  // A CM row a panel has no cells in (that CM not measured at its N) says so rather than stand empty.
  const gaps = panels.flatMap((panel) =>
    rowLabels
      .filter((row) => !rows.some((r) => r.panel === panel && r.row === row))
      .map((row) => ({ panel, row, kind: kinds[0], gap: 'not measured' })),
  );
  const measured = { filter: '!datum.gap' };
  return panelChart({
    rows: [...rows, ...gaps],
    panels,
    rowLabels,
    preferredColumns: countsIn(rows),
    rowsPerStep: kinds.length,
    layers: ({ width, panelWidth, rowAxis, step }) => [
      {
        // In the first kind's place, moved down to the row's middle.
        transform: [{ filter: 'datum.gap' }],
        mark: {
          type: 'text',
          align: 'left',
          baseline: 'middle',
          dy: ((kinds.length - 1) * step) / 2,
          fontStyle: 'italic',
          color: '#57606a',
        },
        encoding: { y, yOffset, x: { value: 4 }, text: { field: 'gap' } },
      },
      {
        transform: [measured],
        mark: { type: 'rule', strokeWidth: 1.5 },
        encoding: {
          y: { ...y, axis: rowAxis },
          yOffset,
          x: { field: 'ci_low_ms', type: 'quantitative', scale },
          x2: { field: 'ci_high_ms' },
          color: { field: 'configuration', type: 'nominal', scale: colours, legend: null },
        },
      },
      {
        transform: [measured],
        mark: { type: 'point', filled: true, size: 70, opacity: 1 },
        encoding: {
          y,
          yOffset,
          x: {
            field: 'median_ms',
            type: 'quantitative',
            scale,
            title: `${xTitle} (ms${log ? ', log scale' : ''})`,
            axis: log
              ? { values: LOG_TICKS, labelOverlap: 'greedy', format: ',~r' }
              : { tickCount: tickCount(panelWidth), format: ',~r' },
          },
          color: { field: 'configuration', type: 'nominal', scale: colours, legend: null },
          shape: {
            field: 'kind',
            type: 'nominal',
            title: null,
            scale: { domain: kinds, range: ['circle', 'triangle-up', 'square', 'diamond'].slice(0, kinds.length) },
            legend: { columns: legendColumns(width, kinds), symbolFillColor: '#57606a', symbolStrokeColor: '#57606a' },
          },
        },
      },
    ],
  });
}

/** Response time per configuration, as the opening shows it: a panel per situation. */
function responseTimeChart(cells, times) {
  const rows = cells.filter((c) => inFamily(c.cell, 'formats')).map((c) => cellRow(c, situationText, times));
  if (!rows.length) return null;
  return {
    name: 'formats',
    title:
      'Time of each configuration, from the request until the data is decoded, as "What to choose" gives it ' +
      "(bar: the time; line: the 95 % CI of its ratio to the fastest, times the fastest's time; none for the " +
      'fastest, or where the stricter early test decided), one panel per ' +
      'situation, each with its own scale',
    spec: barChart(rows, { x: 'median_ms', xTitle: 'time (ms)', ci: ['ci_low_ms', 'ci_high_ms'] }),
  };
}

/**
 * Phases of the largest N's uncompressed cells: waiting for the server, transfer, and the rest of
 * the time "What to choose" gives (reading and decoding).
 */
function phasesChart(cells, times) {
  const formats = cells.filter((c) => inFamily(c.cell, 'formats') && c.cell.compression === 'none');
  const largest = new Map();
  const key = (cell) => `${cell.object}/${cell.network}`;
  for (const c of formats) largest.set(key(c.cell), Math.max(largest.get(key(c.cell)) ?? 0, c.cell.count));
  // Each named with its shade, since the legend's greys stand for shades of each bar's own colour.
  const phaseNames = ['waiting for the server (darkest)', 'transfer (middle)', 'reading and decoding (lightest)'];
  const rows = formats
    .filter((c) => c.cell.count === largest.get(key(c.cell)))
    .flatMap((c) => {
      const waiting = c.phases.waiting_ms;
      const transfer = c.phases.transfer_ms;
      // The whole bar is the time "What to choose" gives (else the cell's own median).
      const total = times.get(c.case_id)?.time_ms ?? c.stats.median;
      return [waiting, transfer, total - (waiting ?? 0) - (transfer ?? 0)]
        .map((ms, i) => ({ ...cellRow(c), phase: phaseNames[i], order: i, ms: Math.max(0, ms) }))
        .filter((r) => Number.isFinite(r.ms));
    });
  if (!rows.length) return null;
  const configurations = distinct(rows, 'configuration', rowOrder);
  const y = { field: 'configuration', type: 'nominal', title: null, sort: configurations };
  return {
    name: 'phases',
    title:
      'Where the time goes, per format uncompressed at the largest N measured (waiting and transfer: medians ' +
      'of each phase; reading and decoding: the rest of the time "What to choose" gives; each phase a lighter ' +
      "shade of the bar's colour)",
    spec: panelChart({
      rows,
      panels: distinct(rows, 'panel', rowOrder),
      rowLabels: configurations,
      preferredColumns: 2,
      layers: ({ width, panelWidth, rowAxis }) => [
        {
          mark: { type: 'bar', height: { band: 0.7 }, stroke: 'white', strokeWidth: 1 },
          encoding: {
            y: { ...y, axis: rowAxis },
            x: {
              field: 'ms',
              type: 'quantitative',
              stack: 'zero',
              title: 'milliseconds',
              axis: { tickCount: tickCount(panelWidth), format: ',~r' },
            },
            color: { field: 'configuration', type: 'nominal', scale: colourScale(rows), legend: null },
            opacity: {
              field: 'phase',
              type: 'ordinal',
              sort: phaseNames,
              title: "phase (shade of each bar's colour)",
              scale: { domain: phaseNames, range: [1, 0.6, 0.3] },
              legend: {
                columns: legendColumns(width, phaseNames),
                symbolType: 'square',
                symbolFillColor: '#1f2328',
                symbolStrokeWidth: 0,
              },
            },
            order: { field: 'order' },
          },
        },
      ],
    }),
  };
}

/** Bytes on the wire per configuration, unthrottled (the bytes do not depend on the network). */
function bytesChart(cells) {
  const rows = cells
    .filter((c) => inFamily(c.cell, 'formats') && c.cell.network === 'unthrottled' && c.bytes.transfer)
    .map((c) => ({
      ...cellRow(c, (cell) => situationText({ ...cell, network: undefined })),
      kb: c.bytes.transfer / 1000,
    }));
  if (!rows.length) return null;
  return {
    name: 'bytes',
    title:
      'Bytes transferred per configuration (kB, the median transfer size: the body as sent and its headers), ' +
      'one panel per object and N',
    spec: barChart(rows, { x: 'kb', xTitle: 'kB transferred, headers included' }),
  };
}

/** Server against browser sorting per CM (scenarios 2 and 3), a panel per configuration and situation. */
function sidesChart(cells, times) {
  const kinds = ['the server sorts', 'the browser sorts'];
  const rows = cells
    .filter((c) => inFamily(c.cell, 'side'))
    .map((c) => ({
      ...cellRow(c, (cell) => `${configurationText(cell)} — ${situationText(cell)}`, times),
      cm: c.cell.cm,
      row: cmText(c.cell.cm),
      kind: scenarioOf(c.cell).computes === 'server' ? kinds[0] : kinds[1],
    }));
  if (!rows.length) return null;
  return {
    name: 'sides',
    title:
      'Sorting on the server against sorting in the browser, per computation model (CM): the time "What to ' +
      'choose" gives, with the 95 % CI of its ratio to the fastest times the fastest\'s time (none for the ' +
      'fastest, or where the stricter early test decided)' +
      `${needsLog(rows) ? ', on a log scale' : ''}. Each CM row is a situation of its own, measured at its own ` +
      'time: compare circle and triangle within a row, not one row with another',
    spec: pairedPoints(rows, { kinds, xTitle: 'time', log: needsLog(rows) }),
  };
}

/** A cached copy sorted in the browser against a second request sorted on the server (scenarios 4 and 5). */
function cachingChart(cells) {
  const kinds = ['a second request, the server sorts', 'the cached copy, the browser sorts'];
  const rows = cells
    .filter((c) => inFamily(c.cell, 'caching'))
    .map((c) => ({
      ...cellRow(c, (cell) => `${configurationText(cell)} — ${situationText(cell)}`),
      cm: c.cell.cm,
      row: cmText(c.cell.cm),
      kind: scenarioOf(c.cell).cached ? kinds[1] : kinds[0],
    }));
  if (!rows.length) return null;
  return {
    name: 'caching',
    title:
      'Sorting a cached copy in the browser against asking the server again, per computation model (CM): ' +
      `median time of both requests or sorts, with its 95 % CI${needsLog(rows) ? ', on a log scale' : ''}. ` +
      'Each CM row is a situation of its own, measured at its own time: compare within a row only',
    spec: pairedPoints(rows, { kinds, xTitle: 'median time', log: needsLog(rows) }),
  };
}

/** Bytes per object across N, per configuration (format and compression), a panel per object. */
function sizesChart(cells) {
  const rows = sizeTable(cells).flatMap((r) =>
    [
      [{ compression: 'none', level: null }, r.raw_per_object],
      ...Object.entries(r.compressed).map(([key, v]) => {
        const [compression, level] = key.split('-');
        return [{ compression, level: Number(level) }, v.per_object];
      }),
    ]
      .filter(([, perObject]) => Number.isFinite(perObject))
      .map(([compressed, perObject]) => {
        const cell = { object: r.object, count: r.count, format: r.format, ...compressed };
        return {
          cell,
          panel: objectText(r.object),
          configuration: configurationText(cell),
          count: countText(r.count),
          perObject,
        };
      }),
  );
  if (!rows.length) return null;
  const colours = colourScale(rows);
  const counts = distinct(rows, 'count', (a, b) => a.cell.count - b.cell.count);
  return {
    name: 'sizes',
    title:
      'Body bytes per object as sent (headers not counted) across N, per format and compression, one panel per object',
    spec: panelChart({
      rows,
      panels: distinct(rows, 'panel', rowOrder),
      left: Math.ceil(textWidth('10,000', FONT)) + FONT + 2 * AXIS_GAP,
      preferredColumns: 2,
      height: 220,
      layers: ({ width }) => [
        {
          mark: { type: 'line', point: { filled: true, size: 50 }, strokeWidth: 2 },
          encoding: {
            x: { field: 'count', type: 'ordinal', sort: counts, title: 'objects per answer', axis: { labelAngle: 0 } },
            y: { field: 'perObject', type: 'quantitative', title: 'bytes per object', axis: { format: ',~r' } },
            color: {
              field: 'configuration',
              type: 'nominal',
              title: null,
              scale: colours,
              legend: { columns: legendColumns(width, colours.domain) },
            },
          },
        },
      ],
    }),
  };
}

/** Ratio ticks a log axis may show, in the order they are worth a label. */
const RATIO_TICKS = [1, 2, 1 / 2, 5, 1 / 5, 10, 1 / 10, 1.5, 1 / 1.5, 3, 1 / 3, 1.2, 1 / 1.2, 20, 1 / 20, 50, 1 / 50];
const ratioText = (t) =>
  t === 1 ? 'as fast' : t > 1 ? `${Number(t.toFixed(2))}× slower` : `${Number((1 / t).toFixed(2))}× faster`;
const RATIO_LABEL =
  "datum.value == 1 ? 'as fast' : datum.value > 1 ? format(datum.value, '.2~f') + '× slower' : " +
  "format(1 / datum.value, '.2~f') + '× faster'";

/** The ratio ticks whose labels fit a log axis of `panelWidth` px over [1/reach, reach] without touching. */
function ratioTicks(panelWidth, reach) {
  const taken = [];
  const ticks = [];
  for (const t of RATIO_TICKS.filter((r) => r >= 1 / reach && r <= reach)) {
    const x = (panelWidth * (Math.log(t) + Math.log(reach))) / (2 * Math.log(reach));
    const width = textWidth(ratioText(t), FONT) + 12;
    // The axis aligns the labels at its ends flush with them (labelFlush), the others centred.
    const left = Math.min(Math.max(x - width / 2, 0), panelWidth - width);
    if (taken.some(([a, b]) => left + width > a && left < b)) continue;
    taken.push([left, left + width]);
    ticks.push(t);
  }
  return ticks.sort((a, b) => a - b);
}

/** How far from 1 the ratios axis reaches, each way: a tick's value, so that its ends are labelled. */
const RATIO_REACHES = [1.2, 1.5, 2, 3, 5, 10, 20, 50];

/** "How many times slower" per pair of formats, a panel per situation and compression. */
function ratiosChart(comparisons, judging) {
  const rows = comparisons
    .filter((c) => c.dimension === 'format' && inFamily(c.a, 'formats') && Number.isFinite(c.ratio))
    .map((c) => ({
      cell: c.a,
      panel: `${situationText(c.a)}, ${compressionText(c.a)}`,
      row: `${formatLabel(c.a.format, c.a.decoder)} against ${formatLabel(c.b.format, c.b.decoder)}`,
      b: c.b,
      ratio: c.ratio,
      low: Number.isFinite(c.ci_low) ? c.ci_low : c.ratio,
      high: Number.isFinite(c.ci_high) ? c.ci_high : c.ratio,
      certain: c.settled === true,
    }));
  if (!rows.length) return null;
  const delta = judging.delta ?? 0.05;
  // One scale for every panel, symmetric around 1, so that panels compare at a glance.
  const needed = Math.max(1 + 2 * delta, ...rows.flatMap((r) => [r.high, 1 / r.low]).filter(Number.isFinite));
  const reach = RATIO_REACHES.find((r) => r >= needed * 1.02) ?? needed * 1.02;
  const pairs = distinct(rows, 'row', (a, b) => configurationOrder(a.cell, b.cell) || configurationOrder(a.b, b.b));
  const y = { field: 'row', type: 'nominal', title: null, sort: pairs };
  const x = {
    type: 'quantitative',
    scale: { type: 'log', domain: [1 / reach, reach], nice: false },
  };
  return {
    name: 'ratios',
    title:
      'How many times slower or faster the first format is than the second (the ratio of their times as ' +
      '"What to choose" gives them, with its 95 % CI, log scale; filled: certain, hollow: can\'t tell yet); the ' +
      `grey band is within ±${Math.round(delta * 100)} %, where the two are as fast`,
    spec: panelChart({
      rows,
      panels: distinct(rows, 'panel', (a, b) => rowOrder(a, b) || a.panel.localeCompare(b.panel)),
      rowLabels: pairs,
      // A line of panels per N, a column per compression.
      preferredColumns: new Set(rows.map((r) => compressionText(r.cell))).size,
      layers: ({ panelWidth, rowAxis }) => [
        {
          data: { values: [{ from: 1 / (1 + delta), to: 1 + delta }] },
          mark: { type: 'rect', color: '#eaeef2' },
          encoding: { x: { ...x, field: 'from' }, x2: { field: 'to' } },
        },
        { mark: { type: 'rule', color: '#8c959f', strokeDash: [4, 3] }, encoding: { x: { ...x, datum: 1 } } },
        {
          mark: { type: 'rule', color: '#1f2328', strokeWidth: 1.5 },
          encoding: { y: { ...y, axis: rowAxis }, x: { ...x, field: 'low' }, x2: { field: 'high' } },
        },
        {
          mark: { type: 'point', filled: true, stroke: '#1f2328', strokeWidth: 1.5, size: 60, opacity: 1 },
          encoding: {
            // Filled where the comparison is certain; hollow while it can't tell yet.
            fill: { condition: { test: 'datum.certain', value: '#1f2328' }, value: 'white' },
            y,
            x: {
              ...x,
              field: 'ratio',
              title: 'the first format against the second',
              axis: { values: ratioTicks(panelWidth, reach), labelExpr: RATIO_LABEL, labelFlush: true, grid: true },
            },
          },
        },
      ],
    }),
  };
}

/**
 * Break-even bandwidths (analysis/compression.js): per configuration, the speed below which
 * compressing is faster (point, 95 % CI as a line; at the edges where it reaches past them), and at
 * each slower network measured, which side the measured cells found faster.
 */
function breakEvenChart(cells, comparisons, networks, judging) {
  const breakEven = breakEvens(cells, comparisons, networks, judging);
  if (!breakEven.length) return null;
  const clamp = (mbps) => Math.min(CHART_RANGE_MBPS.max, Math.max(CHART_RANGE_MBPS.min, mbps));
  const what = [
    'break-even (95% CI)',
    'measured: compressing faster',
    'measured: not compressing faster',
    "measured: as fast, or can't tell yet",
  ];
  const base = (r) => ({
    cell: r,
    panel: situationText({ object: r.object, count: r.count }),
    configuration: configurationText(r),
  });
  const rows = [
    ...breakEven
      .filter((r) => r.break_even_mbps !== null)
      .map((r) => ({
        ...base(r),
        what: what[0],
        mbps: clamp(r.break_even_mbps),
        low: clamp(r.low_mbps),
        high: clamp(r.high_mbps),
      })),
    ...breakEven.flatMap((r) =>
      r.checks
        .filter((c) => c.rate_mbps !== null)
        .map((c) => ({
          ...base(r),
          what: c.measured === 'compressed' ? what[1] : c.measured === 'none' ? what[2] : what[3],
          mbps: clamp(c.rate_mbps),
        })),
    ),
  ];
  if (!rows.length) return null;
  const configurations = distinct(rows, 'configuration', (a, b) => configurationOrder(a.cell, b.cell));
  const y = { field: 'configuration', type: 'nominal', title: null, sort: configurations };
  const x = {
    field: 'mbps',
    type: 'quantitative',
    scale: { type: 'log', domain: [CHART_RANGE_MBPS.min, CHART_RANGE_MBPS.max], nice: false },
  };
  const present = what.filter((w) => rows.some((r) => r.what === w));
  const legend = (width) => ({ columns: legendColumns(width, present) });
  const whatScale = {
    domain: present,
    range: present.map(
      (w) => ({ [what[0]]: '#1f2328', [what[1]]: '#1a7f37', [what[2]]: '#cf222e', [what[3]]: '#8c959f' })[w],
    ),
  };
  const shapeScale = { domain: present, range: present.map((w) => (w === what[0] ? 'circle' : 'diamond')) };
  return {
    name: 'break-even',
    title:
      'Where compressing pays: the link speed below which a compression is faster than none, estimated from ' +
      'the unthrottled cells, with its 95 % CI (a point or line that reaches the right edge: it pays at every ' +
      'speed shown and maybe beyond; the left edge: at none shown), beside what the cells measured on slower ' +
      'links found',
    spec: panelChart({
      rows,
      panels: distinct(rows, 'panel', (a, b) => situationOrder(a.cell, b.cell)),
      rowLabels: configurations,
      preferredColumns: 2,
      layers: ({ width, rowAxis }) => [
        {
          transform: [{ filter: `datum.what === '${what[0]}'` }],
          mark: { type: 'rule', color: '#1f2328', strokeWidth: 1.5 },
          encoding: { y: { ...y, axis: rowAxis }, x: { ...x, field: 'low' }, x2: { field: 'high' } },
        },
        {
          mark: { type: 'point', filled: true, size: 70, opacity: 1 },
          encoding: {
            y,
            x: {
              ...x,
              title: 'link speed (Mbit/s, log scale)',
              // On a narrow panel the labels that would overlap are left out, not drawn over each other.
              axis: { values: [0.1, 1, 10, 100, 1000, 10000], format: ',~r', labelOverlap: 'greedy' },
            },
            color: { field: 'what', type: 'nominal', title: null, scale: whatScale, legend: legend(width) },
            shape: { field: 'what', type: 'nominal', title: null, scale: shapeScale, legend: legend(width) },
          },
        },
      ],
    }),
  };
}

/**
 * The charts for these cells and comparisons (networks: run.json's profiles, for the break-even
 * chart; judging: {delta}, the run's δ); charts without data are left out. Each is
 * {name, title, spec: (width, correction) → Vega-Lite spec}: its layout at a width, the
 * correction being the pixels an earlier drawing at that width missed by.
 */
export function chartSpecs(cells, comparisons, networks = {}, judging = {}, times = new Map()) {
  return [
    responseTimeChart(cells, times),
    phasesChart(cells, times),
    bytesChart(cells),
    sidesChart(cells, times),
    cachingChart(cells),
    sizesChart(cells),
    ratiosChart(comparisons, judging),
    breakEvenChart(cells, comparisons, networks, judging),
  ].filter(Boolean);
}

/**
 * Renders one Vega-Lite spec to SVG text. The labels an axis's overlap rule hid (drawn at opacity
 * 0) are left out: unseen, they would still be read out by a screen reader and found by a search.
 */
export async function renderSvg(spec) {
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' });
  const svg = await view.toSVG();
  view.finalize();
  return svg.replace(/<text [^>]*opacity="0"[^>]*>[^<]*<\/text>/g, '');
}

const svgWidth = (svg) => Number(/^<svg[^>]* width="([\d.]+)"/.exec(svg)?.[1]);

/** How many times a chart is drawn again, corrected by what the last drawing missed its width by. */
const FIT_PASSES = 3;

/** A chart drawn at `width`: laid out, drawn, and drawn again corrected until it fits (or the closest drawing). */
async function renderAt(chart, width) {
  let best = null;
  let correction = 0;
  for (let pass = 0; pass <= FIT_PASSES; pass++) {
    const svg = await renderSvg(chart.spec(width, correction));
    const missed = width - svgWidth(svg);
    if (!best || Math.abs(missed) < Math.abs(best.missed)) best = { svg, missed };
    if (Math.abs(missed) <= 2) break;
    correction += missed;
  }
  return best.svg;
}

/**
 * The SVG with its element ids (clip paths, when Vega draws any) made unique by `prefix`: a page
 * holds every chart at every width, and an id is the document's, not the SVG's.
 */
const ownIds = (svg, prefix) =>
  svg.replace(/ id="([^"]+)"/g, ` id="${prefix}$1"`).replace(/url\(#([^)]+)\)/g, `url(#${prefix}$1)`);

/**
 * Draws each chart at every layout width: {name, title, svg (the widest, for charts/<name>.svg),
 * variants: [{width, from, svg}]}, widest first.
 */
export async function renderCharts(charts) {
  const drawn = [];
  for (const chart of charts) {
    const variants = [];
    for (const { width, from } of CHART_LAYOUTS) {
      variants.push({ width, from, svg: ownIds(await renderAt(chart, width), `${chart.name}-${width}-`) });
    }
    drawn.push({ name: chart.name, title: chart.title, svg: variants[0].svg, variants });
  }
  return drawn;
}

// The report's charts as Vega-Lite specs, rendered to SVG in Node (no browser): response time
// per format × compression, server against client per CM, caching against a second request, the
// "how many times faster" ratios, the phase breakdown per format, bytes on the wire, and the
// break-even bandwidth of each compression against the networks measured.

import { inFamily, scenarioOf } from '#common/cell.js';
import * as vega from 'vega';
import { compile } from 'vega-lite';
import { FORMATS, LABELS, compressionLabel, formatLabel } from '#common/catalogue.js';
import { compressedName, sizeTable } from './formats.js';
import { CHART_RANGE_MBPS, breakEvens, configurationName } from './compression.js';

const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';
const row = (c) => ({
  ...c.cell,
  format: formatLabel(c.cell.format, c.cell.decoder),
  countLabel: `N=${c.cell.count}`,
  median_ms: c.stats.median,
  ci_low_ms: c.stats.ci_low,
  ci_high_ms: c.stats.ci_high,
  panel: `${c.cell.object}, ${c.cell.network}`,
});

/** Bars grouped by `offset` within `x`, one panel per facet; linear scales (a bar cannot start at a log scale's 0). */
function groupedBars(
  title,
  values,
  { x, offset, facetRow, facetColumn, y = 'median_ms', yTitle = 'median response time (ms)' },
) {
  return {
    $schema: SCHEMA,
    title,
    data: { values },
    facet: {
      row: { field: facetRow, title: null },
      ...(facetColumn ? { column: { field: facetColumn, title: null } } : {}),
    },
    spec: {
      width: 260,
      height: 150,
      layer: [
        {
          mark: 'bar',
          encoding: {
            x: { field: x, type: 'ordinal' },
            xOffset: { field: offset },
            color: { field: offset, type: 'nominal' },
            y: { field: y, type: 'quantitative', title: yTitle },
          },
        },
        ...(y === 'median_ms'
          ? [
              {
                mark: { type: 'rule', color: 'black' },
                encoding: {
                  x: { field: x, type: 'ordinal' },
                  xOffset: { field: offset },
                  y: { field: 'ci_low_ms', type: 'quantitative' },
                  y2: { field: 'ci_high_ms' },
                },
              },
            ]
          : []),
      ],
    },
    resolve: { scale: { y: 'independent' } },
  };
}

/**
 * Break-even bandwidths (analysis/compression.js): per configuration, the speed below which
 * compressing is faster (point, 95% CI as a line; "any speed" and "never" at the edges), and at
 * each slower network measured, which side the measured cells found faster.
 */
function breakEvenSpec(rows) {
  const clamp = (mbps) => Math.min(CHART_RANGE_MBPS.max, Math.max(CHART_RANGE_MBPS.min, mbps));
  const panel = (r) => `${r.object}, N=${r.count}`;
  const estimates = rows
    .filter((r) => r.break_even_mbps !== null)
    .map((r) => ({
      panel: panel(r),
      configuration: configurationName(r),
      mbps: clamp(r.break_even_mbps),
      low: clamp(r.low_mbps),
      high: clamp(r.high_mbps),
    }));
  const measured = rows.flatMap((r) =>
    r.checks
      .filter((c) => c.rate_mbps !== null)
      .map((c) => ({
        panel: panel(r),
        configuration: configurationName(r),
        mbps: clamp(c.rate_mbps),
        network: c.network,
        faster:
          c.measured === 'compressed'
            ? 'compressed faster'
            : c.measured === 'none'
              ? 'no compression faster'
              : 'no clear winner',
      })),
  );
  const x = {
    field: 'mbps',
    type: 'quantitative',
    scale: { type: 'log', domain: [CHART_RANGE_MBPS.min, CHART_RANGE_MBPS.max] },
    title: 'link speed (Mbit/s): compressing pays left of the black point',
  };
  return {
    $schema: SCHEMA,
    title:
      'Break-even bandwidth per compression (black: estimate from unthrottled cells with 95% CI; ' +
      'coloured: what cells measured on slower links found)',
    data: {
      values: [
        ...estimates.map((e) => ({ ...e, layer: 'estimate' })),
        ...measured.map((m) => ({ ...m, layer: 'measured' })),
      ],
    },
    facet: { row: { field: 'panel', title: null } },
    spec: {
      width: 420,
      height: { step: 12 },
      layer: [
        {
          transform: [{ filter: "datum.layer === 'estimate'" }],
          mark: { type: 'rule', color: 'black' },
          encoding: {
            y: { field: 'configuration', type: 'nominal', title: null },
            x: { ...x, field: 'low' },
            x2: { field: 'high' },
          },
        },
        {
          transform: [{ filter: "datum.layer === 'estimate'" }],
          mark: { type: 'point', filled: true, color: 'black' },
          encoding: { y: { field: 'configuration', type: 'nominal' }, x },
        },
        {
          transform: [{ filter: "datum.layer === 'measured'" }],
          mark: { type: 'point', shape: 'diamond', size: 60, filled: true },
          encoding: {
            y: { field: 'configuration', type: 'nominal' },
            x,
            color: {
              field: 'faster',
              type: 'nominal',
              title: 'measured',
              scale: {
                domain: ['compressed faster', 'no compression faster', 'no clear winner'],
                range: ['#1a7f37', '#cf222e', '#8c959f'],
              },
            },
          },
        },
      ],
    },
    resolve: { scale: { y: 'independent' } },
  };
}

/**
 * The chart specs for these cells and comparisons (networks: run.json's profiles, for the
 * break-even chart; judging: {delta}, the run's δ, at which a slower link's comparison names a faster
 * side); charts without data are left out.
 */
export function chartSpecs(cells, comparisons, networks = {}, judging = {}) {
  const specs = [];
  const s1 = cells.filter((c) => inFamily(c.cell, 'formats')).map(row);
  if (s1.length) {
    specs.push([
      'formats',
      groupedBars(
        'Scenario 1: response time per format and compression (bars: median, lines: 95% CI)',
        s1.map((r) => ({ ...r, series: `${r.format}, ${compressionLabel(r.compression, r.level)}` })),
        { x: 'count', offset: 'series', facetRow: 'panel' },
      ),
    ]);
    const largest = new Map();
    for (const r of s1) largest.set(r.panel, Math.max(largest.get(r.panel) ?? 0, r.count));
    const phases = [];
    for (const c of cells.filter((cell) => inFamily(cell.cell, 'formats') && cell.cell.compression === 'none')) {
      const r = row(c);
      if (r.count !== largest.get(r.panel)) continue;
      for (const [phase, ms] of [
        ['waiting for the server', c.phases.waiting_ms],
        ['transfer', c.phases.transfer_ms],
        ['read and decode', c.stats.median - (c.phases.waiting_ms ?? 0) - (c.phases.transfer_ms ?? 0)],
      ]) {
        if (Number.isFinite(ms)) phases.push({ ...r, phase, ms: Math.max(0, ms), label: `${r.panel}, N=${r.count}` });
      }
    }
    if (phases.length) {
      specs.push([
        'phases',
        {
          $schema: SCHEMA,
          title: 'Where the time goes: phases per format (no GZIP, largest N; medians)',
          data: { values: phases },
          facet: { row: { field: 'label', title: null } },
          spec: {
            width: 320,
            height: 90,
            mark: 'bar',
            encoding: {
              y: { field: 'format', type: 'nominal' },
              x: { field: 'ms', type: 'quantitative', stack: 'zero', title: 'ms' },
              color: {
                field: 'phase',
                type: 'nominal',
                sort: ['waiting for the server', 'transfer', 'read and decode'],
              },
            },
          },
          resolve: { scale: { x: 'independent' } },
        },
      ]);
    }
    const bytes = cells
      .filter((c) => inFamily(c.cell, 'formats') && c.cell.network === 'unthrottled' && c.bytes.transfer)
      .map((c) => ({
        ...row(c),
        series: `${formatLabel(c.cell.format, c.cell.decoder)}, ${compressionLabel(c.cell.compression, c.cell.level)}`,
        kb: c.bytes.transfer / 1000,
      }));
    if (bytes.length) {
      specs.push([
        'bytes',
        groupedBars('Bytes on the wire per format, raw and compressed (kB)', bytes, {
          x: 'count',
          offset: 'series',
          facetRow: 'object',
          y: 'kb',
          yTitle: 'kB on the wire',
        }),
      ]);
    }
  }
  const sides = cells
    .filter((c) => inFamily(c.cell, 'side'))
    .map((c) => ({
      ...row(c),
      side: `${scenarioOf(c.cell).computes} computes`,
      cmLabel: `CM${c.cell.cm}`,
    }));
  if (sides.length) {
    specs.push([
      'sides',
      groupedBars(
        'Server against client computation per CM (scenarios 2 and 3)',
        sides.map((r) => ({ ...r, panel: `${r.format}, ${r.network}` })),
        { x: 'cmLabel', offset: 'side', facetRow: 'panel', facetColumn: 'countLabel' },
      ),
    ]);
  }
  const caching = cells
    .filter((c) => inFamily(c.cell, 'caching'))
    .map((c) => ({
      ...row(c),
      kind: scenarioOf(c.cell).cached ? 'cached, client computes' : 'second server request',
      cmLabel: `CM${c.cell.cm}`,
    }));
  if (caching.length) {
    specs.push([
      'caching',
      groupedBars('Caching against a second request per CM (scenarios 4 and 5)', caching, {
        x: 'cmLabel',
        offset: 'kind',
        facetRow: 'network',
        facetColumn: 'countLabel',
      }),
    ]);
  }
  const sizes = sizeTable(cells).flatMap((r) =>
    [['raw', r.raw_per_object], ...Object.entries(r.compressed).map(([key, v]) => [compressedName(key), v.per_object])]
      .filter(([, perObject]) => Number.isFinite(perObject))
      .map(([body, perObject]) => ({
        object: r.object,
        count: r.count,
        format: LABELS.format(r.format),
        body,
        perObject,
      })),
  );
  if (sizes.length) {
    specs.push([
      'sizes',
      {
        $schema: SCHEMA,
        title: 'Bytes per object on the wire, raw and compressed, per format and N',
        data: { values: sizes },
        facet: { row: { field: 'object', title: null }, column: { field: 'body', title: null } },
        spec: {
          width: 200,
          height: 140,
          mark: { type: 'line', point: true },
          encoding: {
            x: { field: 'count', type: 'ordinal', title: 'N' },
            y: { field: 'perObject', type: 'quantitative', title: 'bytes per object' },
            color: { field: 'format', type: 'nominal', scale: { domain: FORMATS.map(LABELS.format) } },
          },
        },
        resolve: { scale: { y: 'independent' } },
      },
    ]);
  }
  const ratios = comparisons
    .filter((c) => c.dimension === 'format' && inFamily(c.a, 'formats'))
    .map((c) => ({
      pair: `${formatLabel(c.a.format, c.a.decoder)} / ${formatLabel(c.b.format, c.b.decoder)}`,
      count: c.a.count,
      ratio: c.ratio,
      low: c.ci_low,
      high: c.ci_high,
      panel: `${c.a.object}, ${c.a.network}, ${compressionLabel(c.a.compression, c.a.level)}`,
    }));
  if (ratios.length) {
    specs.push([
      'ratios',
      {
        $schema: SCHEMA,
        title: 'How many times faster: ratio of medians (above 1: the second format is faster), 95% CI',
        data: { values: ratios },
        facet: { row: { field: 'panel', title: null } },
        spec: {
          width: 320,
          height: 130,
          layer: [
            {
              mark: { type: 'point', filled: true },
              encoding: {
                x: { field: 'count', type: 'ordinal' },
                y: { field: 'ratio', type: 'quantitative', scale: { type: 'log' } },
                color: { field: 'pair', type: 'nominal' },
              },
            },
            {
              mark: 'rule',
              encoding: {
                x: { field: 'count', type: 'ordinal' },
                y: { field: 'low', type: 'quantitative' },
                y2: { field: 'high' },
                color: { field: 'pair', type: 'nominal' },
              },
            },
            { mark: { type: 'rule', strokeDash: [4, 4], color: 'gray' }, encoding: { y: { datum: 1 } } },
          ],
        },
      },
    ]);
  }
  const breakEven = breakEvens(cells, comparisons, networks, judging);
  if (breakEven.length) specs.push(['break-even', breakEvenSpec(breakEven)]);
  return specs;
}

/** Renders one Vega-Lite spec to SVG text. */
export async function renderSvg(spec) {
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' });
  const svg = await view.toSVG();
  view.finalize();
  return svg;
}

// The charts' promises that hold without a browser: one colour per configuration everywhere,
// legends and colour scales of measured configurations only, titles in words, and every drawing
// as wide as the width it was laid out for. How they read in Chromium: client/tests/e2e/report-layout.spec.js.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { COMPRESSIONS, FORMATS, decodersOf, defaultLevel } from '#common/catalogue.js';
import { CHART_LAYOUTS, chartSpecs, renderCharts, wrapText, textWidth } from '../charts.js';
import { configurationColour, configurationOrder } from '../chart-colours.js';
import { analyse } from '../report.js';
import { readRuns } from '../read-runs.js';
import { syntheticRun } from './synthetic-run.js';

const loaded = readRuns([syntheticRun().path]);
const charts = chartSpecs(loaded.cells, analyse(loaded).comparisons, {}, loaded.judging);

/** Every object in a spec, depth first. */
function* walk(node) {
  if (node && typeof node === 'object') {
    yield node;
    for (const value of Object.values(node)) yield* walk(value);
  }
}

test('every configuration of the catalogue has a colour of its own, the same wherever it is drawn', () => {
  const configurations = FORMATS.flatMap((format) =>
    decodersOf(format).flatMap((decoder) =>
      COMPRESSIONS.map((compression) => ({ format, decoder, compression, level: defaultLevel(compression) })),
    ),
  );
  const colours = configurations.map(configurationColour);
  assert.equal(new Set(colours).size, configurations.length, 'no two configurations share a colour');
  for (const c of colours) assert.match(c, /^#[0-9a-f]{6}$/);
  // Fixed by the configuration alone: JSON without compression is the first format's hue.
  assert.equal(configurationColour({ format: 'json', decoder: 'json', compression: 'none', level: null }), '#1f77b4');
  // A level away from the default is another shade of the same compression.
  const gzip = (level) => configurationColour({ format: 'json', decoder: 'json', compression: 'gzip', level });
  assert.notEqual(gzip(1), gzip(9));
  assert.equal(configurationColour({ format: 'nonesuch', compression: 'none' }), '#6e7781');
  const sorted = [...configurations].reverse().sort(configurationOrder);
  assert.deepEqual(sorted, configurations, 'catalogue order');
});

test('colour scales hold the measured configurations only, each with its one colour in every chart', () => {
  const measured = new Set(loaded.cells.map((c) => `${c.cell.format}/${c.cell.compression}`));
  const seen = new Map();
  for (const chart of charts) {
    for (const { width } of CHART_LAYOUTS) {
      for (const node of walk(chart.spec(width))) {
        if (node.field !== 'configuration' || !node.scale?.domain) continue;
        node.scale.domain.forEach((label, i) => {
          const colour = node.scale.range[i];
          assert.equal(seen.get(label) ?? colour, colour, `${chart.name}: ${label} keeps its colour`);
          seen.set(label, colour);
        });
      }
    }
  }
  assert.ok(seen.size > 0);
  // The synthetic run measures JSON, Protobuf and XML, each without compression and with GZIP.
  assert.equal(measured.size, 6);
  assert.deepEqual([...seen.keys()].sort(), [
    'JSON uncompressed',
    'JSON with GZIP',
    'Protobuf uncompressed',
    'Protobuf with GZIP',
    'XML uncompressed',
    'XML with GZIP',
  ]);
});

test('each chart is drawn as wide as each layout, its titles in words', async () => {
  const drawn = await renderCharts(charts);
  assert.deepEqual(
    drawn.map((c) => c.name),
    ['formats', 'phases', 'bytes', 'sides', 'caching', 'sizes', 'ratios'],
  );
  // What the data calls its fields; none of them may stand alone as a title or legend.
  const fields = new Set(['configuration', 'panel', 'median_ms', 'ci_low_ms', 'ci_high_ms', 'kb', 'ms', 'phase']);
  for (const fieldName of ['perObject', 'count', 'kind', 'row', 'ratio', 'low', 'high', 'what', 'mbps', 'cmLabel']) {
    fields.add(fieldName);
  }
  for (const chart of drawn) {
    assert.equal(chart.svg, chart.variants[0].svg, 'the widest drawing is the one written to charts/');
    for (const variant of chart.variants) {
      const width = Number(/^<svg[^>]* width="([\d.]+)"/.exec(variant.svg)[1]);
      assert.ok(Math.abs(width - variant.width) <= 3, `${chart.name} at ${variant.width} px is ${width} px wide`);
      const texts = [...variant.svg.matchAll(/<text[^>]*>([^<]*)</g)].map((m) => m[1]);
      for (const text of texts) {
        assert.ok(!text.split(', ').every((part) => fields.has(part)), `${chart.name}: "${text}" is a field's name`);
        assert.ok(!text.includes('…'), `${chart.name}: "${text}" is cut`);
      }
    }
  }
});

test('labels wrap between words within the width they are given', () => {
  const lines = wrapText('CM3: 1 sort per property × 10', textWidth('CM3: 1 sort per', 12), 12);
  assert.deepEqual(lines, ['CM3: 1 sort per', 'property × 10']);
  assert.deepEqual(wrapText('Protobuf', 1), ['Protobuf'], 'a word longer than the width stays whole');
});

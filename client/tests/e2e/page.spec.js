// The client page as a person uses it, and window.lab as a script uses it, in real Chromium
// against the real server (a 2,000-object dataset of the default seed).
import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeReport } from '../../../analysis/report.js';
import { syntheticRun } from '../../../analysis/tests/synthetic-run.js';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'server', 'target', 'client-fixtures');
import { COMPRESSIONS, COMPRESSION_ENTRIES, FORMATS, decodersOf } from '#common/catalogue.js';
const SCENARIOS = [
  [1, 0],
  [2, 2],
  [3, 2],
  [4, 1],
  [5, 3],
];

test.beforeEach(async ({ page }) => {
  const problems = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto('/');
  await expect(page.locator('#isolation')).toHaveText(/^cross-origin isolated/);
  await page.evaluate(() => window.labReady);
  expect(problems).toEqual([]);
});

test('a person runs one small cell of each scenario for each format and downloads the results', async ({ page }) => {
  const rows = page.locator('#summary tbody tr');
  const expectedIds = [];
  let turn = 0;
  for (const format of FORMATS) {
    for (const [scenario, cm] of SCENARIOS) {
      // Every compression in turn, at its default level (the page fills it in).
      const compression = COMPRESSIONS[turn++ % COMPRESSIONS.length];
      await page.selectOption('#cell-form select[name=object]', 'books');
      await page.fill('#cell-form input[name=count]', '40');
      await page.selectOption('#cell-form select[name=format]', format);
      await page.selectOption('#cell-form select[name=compression]', compression);
      await page.selectOption('#cell-form select[name=scenario]', String(scenario));
      await page.selectOption('#cell-form select[name=cm]', String(cm));
      await page.fill('#cell-form input[name=warmup]', '1');
      await page.fill('#cell-form input[name=reps]', '3');
      await page.click('#run');
      const id = `books/40/${format}/${compression}/scenario${scenario}/cm${cm}`;
      expectedIds.push(id);
      await expect(page.locator('#progress')).toHaveText(new RegExp(`^Done: ${id.replace(/\//g, '\\/')}`));
      await expect(rows).toHaveCount(expectedIds.length);
      await expect(rows.last().locator('td').first()).toHaveText(id);
      await expect(page.locator('#error')).toBeHidden();
    }
  }

  const downloaded = async (button) => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.click(button)]);
    return readFileSync(await download.path(), 'utf8');
  };
  const json = JSON.parse(await downloaded('#download-json'));
  expect(json.context.cross_origin_isolated).toBe(true);
  expect(json.cells.map((c) => c.case_id)).toEqual(expectedIds);
  for (const cell of json.cells) {
    expect(cell.samples).toHaveLength(3);
    expect(cell.verification.passed).toBe(true);
    for (const sample of cell.samples) {
      expect(sample.total_ms).toBeGreaterThan(0);
      expect(sample.decoded_body_size).toBeGreaterThan(0);
      expect(sample.content_encoding).toBe(COMPRESSION_ENTRIES[cell.cell.compression].encoding ?? 'identity');
      expect(sample.encoded_body_size).toBeGreaterThan(0);
      expect(sample.server_serialize_ms).toBeGreaterThanOrEqual(0);
    }
  }
  const csv = (await downloaded('#download-csv')).trim().split('\n');
  const header = csv[0].split(',');
  expect(header.slice(0, 12)).toEqual([
    'case_id',
    'object',
    'format',
    'decoder',
    'compression',
    'level',
    'count',
    'scenario',
    'cm',
    'network',
    'protocol',
    'rep',
  ]);
  // A cell run by hand runs over the page's own protocol: cleartext HTTP/1.1 here.
  for (const row of csv.slice(1)) expect(row.split(',')[header.indexOf('protocol')]).toBe('http1.1');
  expect(csv).toHaveLength(1 + expectedIds.length * 3);
  const summary = (await downloaded('#download-summary')).trim().split('\n');
  expect(summary).toHaveLength(1 + expectedIds.length);
});

test('the page says what went wrong when the server refuses a request', async ({ page }) => {
  await page.fill('#cell-form input[name=count]', '5000');
  await page.fill('#cell-form input[name=warmup]', '0');
  await page.click('#run');
  await expect(page.locator('#error')).toBeVisible();
  await expect(page.locator('#error')).toContainText('The server answered 400');
  await expect(page.locator('#error')).toContainText('count must be an integer between 1 and 2000, got "5000"');
  await expect(page.locator('#progress')).toHaveText('Failed.');
  await expect(page.locator('#run')).toBeEnabled();
});

test('stop ends a long run and records nothing', async ({ page }) => {
  await page.fill('#cell-form input[name=count]', '10');
  await page.fill('#cell-form input[name=warmup]', '0');
  await page.fill('#cell-form input[name=reps]', '100000');
  await page.click('#run');
  await expect(page.locator('#progress')).toHaveText(/^Measuring: iteration \d+ of 100000/);
  await page.click('#stop');
  await expect(page.locator('#progress')).toHaveText(/^Stopped/);
  await expect(page.locator('#summary tbody tr')).toHaveCount(0);
});

test('window.lab decodes every format, decoder and compression to the objects the server generated', async ({
  page,
}) => {
  const generated = JSON.parse(readFileSync(join(FIXTURES, 'books.expected.json'), 'utf8')).slice(0, 25);
  for (const format of FORMATS) {
    for (const decoder of decodersOf(format)) {
      for (const compression of COMPRESSIONS) {
        const objects = await page.evaluate((request) => window.lab.fetchObjects(request), {
          object: 'books',
          format,
          decoder,
          compression,
          count: 25,
        });
        expect(objects, `${format} ${decoder} ${compression}`).toEqual(generated);
      }
    }
  }
  // Each compression's lowest and highest level too, on the whole dataset (2,000 Books): the
  // same objects as the uncompressed body.
  const uncompressed = await page.evaluate(() =>
    window.lab.fetchObjects({ object: 'books', format: 'json', compression: 'none', count: 2000 }),
  );
  expect(uncompressed).toHaveLength(2000);
  for (const compression of COMPRESSIONS.filter((c) => COMPRESSION_ENTRIES[c].levels)) {
    for (const level of [COMPRESSION_ENTRIES[compression].levels.min, COMPRESSION_ENTRIES[compression].levels.max]) {
      const objects = await page.evaluate((request) => window.lab.fetchObjects(request), {
        object: 'books',
        format: 'json',
        compression,
        level,
        count: 2000,
      });
      expect(objects, `${compression} ${level}`).toEqual(uncompressed);
    }
  }
  // One at a time: the server admits one computation and queues two (more get a 503).
  const sorted = await page.evaluate(
    async (formats) => {
      const lists = [];
      for (const format of formats)
        lists.push(await window.lab.fetchObjects({ object: 'videos', format, count: 300, cm: 2 }));
      return lists;
    },
    [...FORMATS],
  );
  for (const [i, format] of FORMATS.entries()) expect(sorted[i], format).toEqual(sorted[0]);
});

test("window.lab runs a cell by script and matches the browser's own Resource Timing", async ({ page }) => {
  const result = await page.evaluate(() =>
    window.lab.runCell(
      { object: 'videos', count: 500, format: 'protobuf', compression: 'gzip', scenario: 1, cm: 0 },
      { warmup: 2, reps: 10 },
    ),
  );
  expect(result.case_id).toBe('videos/500/protobuf/gzip/scenario1/cm0');
  expect(result.samples).toHaveLength(10);
  expect(result.context.cross_origin_isolated).toBe(true);
  for (const s of result.samples) {
    expect(s.content_encoding).toBe('gzip');
    expect(s.encoded_body_size).toBeLessThan(s.decoded_body_size);
    // The timed request spans the browser's own fetch (start to response end) plus the decode.
    expect(s.request_ms).toBeGreaterThanOrEqual(s.rt_duration_ms - 0.1);
    expect(s.total_ms).toBeGreaterThanOrEqual(s.request_ms);
  }
  expect(result.summary.median).toBeGreaterThan(0);
});

test("a person loads a study run's report, reads it and asks which configuration wins", async ({ page }) => {
  const { path } = syntheticRun();
  await makeReport([path]);
  await page.setInputFiles('#report-file', join(path, 'report-data.json'));
  await expect(page.locator('#report')).toContainText('RQ1: How does the interchange format affect the response time?');
  await expect(page.locator('#report')).toContainText("The source study's conclusions");
  await expect(page.locator('#report figure svg')).toHaveCount(8);
  // The weighted index: JSON without compression is the baseline (1); all weight on size puts
  // a compressed configuration first, all weight on encode time an uncompressed one.
  const first = () =>
    page.locator('.weighted-index table').first().locator('tbody tr').first().locator('td').nth(1).textContent();
  const weights = async (values) => {
    for (const [name, value] of Object.entries(values)) await page.fill(`.weights input[name=${name}]`, String(value));
  };
  await weights({ encode_ms: 0, transfer_ms: 0, bytes: 1, decode_ms: 0 });
  expect(await first()).toMatch(/GZIP$/);
  await weights({ encode_ms: 1, transfer_ms: 0, bytes: 0, decode_ms: 0 });
  expect(await first()).toMatch(/no compression|none$/);
  // By construction: 10 Mbit/s, 1000 Books, no computation — Protobuf with GZIP 30 ms, then 55 ms.
  await page.selectOption('form.decision select[name=object]', 'books');
  await page.selectOption('form.decision select[name=count]', '1000');
  await page.selectOption('form.decision select[name=network]', '10mbit');
  await page.selectOption('form.decision select[name=cm]', '0');
  await expect(page.locator('.decision-answer')).toHaveText(
    /^Recommended: Protobuf, GZIP, 1\.8\d× faster than (JSON, GZIP|Protobuf, no compression) \(95% CI [\d.]+–[\d.]+\)\. Fastest: Protobuf, GZIP \(median (29|30)\.\d\d ms\)\. Then: (JSON, GZIP|Protobuf, no compression) 1\.8\d× slower/,
  );
  // Unthrottled, 10 Books: every configuration within δ of the fastest, judged as the run's stop rule judged.
  await page.selectOption('form.decision select[name=count]', '10');
  await page.selectOption('form.decision select[name=network]', 'unthrottled');
  await expect(page.locator('.decision-answer')).toHaveText(
    /^No clear winner among .*Protobuf, no compression.* \(none of them clearly slower than the fastest: the CI of its ratio to the fastest not wholly above 1\.05 at 3 looks in a row\)\. Fastest: /,
  );
  await page.setInputFiles('#report-file', {
    name: 'other.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{"kind":"x"}'),
  });
  await expect(page.locator('#error')).toContainText('Could not show other.json: This is not a report-data.json');
});

test('a person compares configurations the way the study does and sees every comparison as it resolves', async ({
  page,
}) => {
  const form = page.locator('#compare-form');
  await form.locator('select[name=object]').selectOption('books');
  await form.locator('input[name=count]').fill('200');
  await form.locator('select[name=cm]').selectOption('0');
  await form.locator('input[name=formats][value=xml]').check();
  await form.locator('input[name=maxRounds]').fill('8');
  await page.click('#compare-run');
  await expect(page.locator('#compare-progress')).toHaveText(
    /^Done after 8 rounds \((resolved|round budget)\): \d of 3 comparisons clear/,
    { timeout: 120_000 },
  );
  const rows = page.locator('#comparisons tbody tr');
  await expect(rows).toHaveCount(3);
  const pairs = await rows.evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((td) => td.textContent)));
  expect(pairs.map(([a, b]) => `${a} | ${b}`).sort()).toEqual([
    'JSON, none | Protobuf, none',
    'JSON, none | XML, none',
    'Protobuf, none | XML, none',
  ]);
  for (const [, , ratio, ci, rounds, verdict] of pairs) {
    expect(Number(ratio)).toBeGreaterThan(0);
    expect(ci).toMatch(/^[\d.]+ – [\d.]+$/);
    expect(Number(rounds)).toBe(8);
    expect(['a faster', 'b faster', 'equivalent', 'unresolved']).toContain(verdict);
  }
  // XML's 200 Books are far slower to decode than JSON's: that one is clear.
  expect(pairs.find(([a, b]) => a === 'JSON, none' && b === 'XML, none')[5]).toBe('a faster');

  await form.locator('input[name=formats][value=xml]').uncheck();
  await form.locator('input[name=formats][value=protobuf]').uncheck();
  await page.click('#compare-run');
  await expect(page.locator('#compare-error')).toHaveText(/Choose at least two configurations/);
});

// A synthetic run whose answers are known by construction, for the report's tests and the
// client page's end-to-end test.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { caseId } from '../../client/schema.js';
import { seededRandom, summarize } from '../../client/stats.js';
import { RunDirectory } from '../../experiments/results.js';

/** Median milliseconds of each synthetic cell: the answers follow from these. */
function designedMedian(c) {
  const perObject = { json: 1.0, protobuf: 0.5, xml: 2.0 }[c.format] * (c.network === '10mbit' ? 10 : 1);
  const gzip = c.compression === 'gzip' ? (c.network === '10mbit' ? 0.5 : 1.5) : 1;
  const compute = c.cm === 0 ? 0 : 0.02 * 10 ** c.cm * (c.scenario === 3 || c.scenario === 5 ? 3 : 1);
  const base = 5 + c.count * perObject * gzip / 100;
  return { 1: base, 2: base + compute, 3: base + compute, 4: 2 * (base + compute), 5: base + 2 * compute }[c.scenario];
}

export function syntheticRun() {
  const run = new RunDirectory(join(mkdtempSync(join(tmpdir(), 'rtl-report-')), 'run'));
  run.writeContext({ plan: { name: 'synthetic' }, git: { commit: 'f'.repeat(40), dirty: false }, versions: { browser: 'test' }, shaping: 'cdp' });
  const random = seededRandom(9);
  const cells = [];
  for (const network of ['unthrottled', '10mbit']) {
    for (const format of ['json', 'protobuf', 'xml']) {
      for (const compression of ['none', 'gzip']) {
        for (const count of [10, 1000]) cells.push({ object: 'books', format, compression, count, scenario: 1, cm: 0, network });
      }
    }
    for (const scenario of [2, 3, 4, 5]) {
      for (const cm of [1, 3, 5]) cells.push({ object: 'books', format: 'json', compression: 'none', count: 100, scenario, cm, network });
    }
  }
  for (const cell of cells) {
    const writer = run.startCell(caseId(cell), cell);
    const totals = [];
    for (let rep = 1; rep <= 40; rep++) {
      const total_ms = designedMedian(cell) * (0.97 + 0.06 * random());
      totals.push(total_ms);
      writer.sample({ rep, total_ms, rt_waiting_ms: 1, rt_transfer_ms: total_ms / 2, decode_ms: 0.5,
        transfer_size: cell.count * 100 * (cell.compression === 'gzip' ? 0.3 : 1), decoded_body_size: cell.count * 100 });
    }
    writer.complete({ n: 40, summary: summarize(totals), verification: { passed: true }, protocol: { warmup: 0, reps: 40 } });
  }
  return { path: run.path, cells };
}

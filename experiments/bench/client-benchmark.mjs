// Prints the browser client's figures (not a test) and writes them, raw, to
// results/bench/client-<UTC time>.json: npm run bench:client [overhead|decode|memory]
//   1. what the study's whole path adds to what it times: runGroup with the study's recording
//      against a bare fetch → read → decode loop in the same page, alternating in blocks, with
//      the round bootstrap's CI;
//   2. protobuf decode of 10,000 Books: the client's route (protobuf.js reflection from the
//      .proto) against protobuf.js's static code (pbjs -t static) in the same page;
//   3. the tab's JS heap while a 100,000-object cell runs 200 iterations.
// It starts its own server (100,000 objects per kind) on port 18120, or uses BASE_URL.

import * as playwright from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchOptions } from '../network/netns-launch.js';
import { engineOf } from '#common/browsers/engines.js';
import { startStudyServer } from '../server-process.js';
import { RunDirectory } from '#common/run-directory.js';
import { writeBenchmark } from './bench-output.js';
import { roundRatio } from '#common/comparison.js';
import { apiPath } from '#common/schema.js';
import { caseId } from '#common/cell.js';
import { defaultDecoder } from '#common/catalogue.js';
import { median } from '#common/stats.js';
import { temporaryDirectory } from '#common/temporary-directory.js';
import { guardRun } from '../run-guard/guard.js';

// What the benchmark starts goes when it ends, however it ends (experiments/run-guard/).
await guardRun('npm run bench:client');

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const PORT = 18120;
const BASE_URL = process.env.BASE_URL ?? `http://127.0.0.1:${PORT}`;
const fixed = (value, digits = 3) => value.toFixed(digits).padStart(10);

/**
 * What the study's whole path adds to what it times: window.lab.runGroup with the study's round
 * recording (a binding the page awaits between rounds, writing a real run directory) against a
 * bare loop in the same page — fetch → read → decode between two clock reads — on the same
 * request over the real server, and a second copy of the bare loop as an A/A control (what the
 * method tells apart between two identical arms: its resolution). The arms take turns in short
 * blocks of one study visit (three iterations, as a round of the study visits a cell), in an
 * order that rotates by block, so drift over seconds — ±30 % on this machine — falls on all alike
 * and pairs closely; each figure is a ratio of medians with the round bootstrap's CI over the
 * blocks, the estimator the study itself uses. Each study block is a whole round: runGroup's
 * set-up, its iterations, the round handed to Node and written to a run directory. Precision:
 * single requests on loopback vary by 20–30 % here; 3,000 blocks of 3 (about 9,000 iterations
 * per arm) give CIs of about ±0.5 % — blocks of 40 leave ±1.3 % with more iterations, because
 * drift within a long block no longer pairs. About 3 minutes per cell.
 * BENCH_BLOCKS and BENCH_PER_BLOCK change them.
 */
const BLOCKS = Number(process.env.BENCH_BLOCKS ?? 3000);
const PER_BLOCK = Number(process.env.BENCH_PER_BLOCK ?? 3);
async function overhead(page, figures) {
  console.log(
    "== 1. What the study path adds to what it times (runner + recording + the study's page, against a bare loop)",
  );
  console.log(`${'cell'.padEnd(52)} study path    bare loop   overhead (95% CI)            A/A control (95% CI)`);
  // The recording goes to a scratch run directory, as the study's goes to its own; removed at exit.
  const runDirectory = new RunDirectory(join(temporaryDirectory('rtl-bench-run-'), 'run'));
  runDirectory.writeContext({ plan: { name: 'bench' }, seed: 1 });
  const cells = [
    { object: 'books', count: 10, format: 'json', compression: 'none', scenario: 1, cm: 0, network: 'unthrottled' },
    { object: 'books', count: 1000, format: 'json', compression: 'none', scenario: 1, cm: 0, network: 'unthrottled' },
    {
      object: 'videos',
      count: 100,
      format: 'protobuf',
      compression: 'gzip',
      scenario: 1,
      cm: 0,
      network: 'unthrottled',
    },
  ];
  for (const cell of cells) {
    const id = caseId(cell);
    const writer = runDirectory.startGroup(id, [{ case_id: id, ...cell }]);
    await page.exposeFunction(`rtlBenchRecord${cells.indexOf(cell)}`, (round) => writer.round(round));
    const result = await page.evaluate(
      async ({ cell, index, blocks, perBlock, url, decoder }) => {
        const record = window[`rtlBenchRecord${index}`];
        const codec = window.lab.codecs[cell.format][decoder];
        // Two closures of the same bare loop: the second is the A/A control, what the method
        // itself tells apart between two identical arms.
        const bareLoop = () => async () => {
          const totals = [];
          for (let i = 0; i < perBlock; i++) {
            const t0 = performance.now();
            const response = await fetch(url, { cache: 'no-store' });
            codec.decode(await codec.read(response), cell.object);
            totals.push(performance.now() - t0);
            await new Promise((resolve) => setTimeout(resolve, 0));
            // Untimed, as the study path does between iterations: the Resource Timing buffer is
            // emptied, so the browser records every request alike in both arms (a full buffer
            // would spare the bare loop the browser's recording of its requests).
            performance.clearResourceTimings();
          }
          return totals;
        };
        const arms = { bare: bareLoop(), bare_again: bareLoop() };
        arms.study = async (round) => {
          const taken = [];
          await window.lab.runGroup(
            { id: 'bench', cells: [cell] },
            {
              warmup: { iterations: 0 },
              rounds: { iterationsPerVisit: perBlock, visitMaxMs: 1e9, minRounds: round, maxRounds: round },
              stop: null,
            },
            {
              startRound: round,
              onRound: async (r) => {
                taken.push(...r.samples.map((s) => s.total_ms));
                await record(r);
              },
            },
          );
          return taken;
        };
        const names = ['study', 'bare', 'bare_again'];
        for (const name of names) await arms[name](1);
        const samples = { study: [], bare: [], bare_again: [] };
        for (let block = 1; block <= blocks; block++) {
          // Each arm goes first, second and third equally often: the order rotates by block, and
          // every other block it runs backwards.
          const rotated = names.map((_, i) => names[(i + block) % names.length]);
          for (const which of block % 2 ? rotated : rotated.reverse()) {
            const totals = await arms[which](block + 1);
            samples[which].push(...totals.map((value) => ({ round: block, value })));
          }
        }
        return samples;
      },
      {
        cell,
        index: cells.indexOf(cell),
        blocks: BLOCKS,
        perBlock: PER_BLOCK,
        url: apiPath(cell, 0),
        decoder: defaultDecoder(cell.format),
      },
    );
    const ratio = roundRatio(result.study, result.bare);
    const control = roundRatio(result.bare_again, result.bare);
    const study = median(result.study.map((s) => s.value));
    const bare = median(result.bare.map((s) => s.value));
    const pct = (r) => `${((r - 1) * 100).toFixed(2)} %`;
    const withCi = (r) => `${pct(r.ratio).padStart(8)} (${pct(r.ci_low)} to ${pct(r.ci_high)})`;
    console.log(`${id.padEnd(52)} ${fixed(study)} ms ${fixed(bare)} ms   ${withCi(ratio)}   A/A ${withCi(control)}`);
    figures.overhead.push({
      case_id: id,
      blocks: BLOCKS,
      per_block: PER_BLOCK,
      study_median_ms: study,
      bare_median_ms: bare,
      ratio: ratio.ratio,
      ci_low: ratio.ci_low,
      ci_high: ratio.ci_high,
      method: ratio.method,
      a_a: { ratio: control.ratio, ci_low: control.ci_low, ci_high: control.ci_high },
      samples: { study: result.study, bare: result.bare, bare_again: result.bare_again },
    });
  }
  console.log(
    '   (target: overhead ≤ 1 %; all arms read the same answers from the server, in rotating order within each block;',
  );
  console.log(
    "    A/A: the bare loop against a second copy of itself — differences of that size are the method's resolution)\n",
  );
}

async function protobufDecode(page, figures) {
  console.log("== 2. Protobuf decode of 10,000 Books: the client's route against protobuf.js static code");
  const staticFile = join(temporaryDirectory('rtl-pbjs-'), 'lab-static.js');
  execFileSync(join(ROOT, 'node_modules', '.bin', 'pbjs'), [
    '-t',
    'static',
    '-w',
    'closure',
    join(ROOT, 'proto', 'lab.proto'),
    '-o',
    staticFile,
  ]);
  await page.addScriptTag({ content: `(function ($protobuf) {\n${readFileSync(staticFile, 'utf8')}\n})(protobuf);` });
  const result = await page.evaluate(async () => {
    const buffer = await (await fetch('/api/books?count=10000&format=protobuf')).arrayBuffer();
    const ours = () => window.lab.codecs.protobuf.reflection.decode(buffer, 'books');
    const staticCode = () =>
      window.protobuf.roots.default.responsetimelab.BookList.decode(new Uint8Array(buffer)).books;
    if (ours().length !== 10000 || staticCode().length !== 10000) throw new Error('decoded the wrong count');
    const time = (decode, n) => {
      const t0 = performance.now();
      for (let i = 0; i < n; i++) decode();
      return (performance.now() - t0) / n;
    };
    time(ours, 30);
    time(staticCode, 30);
    const rounds = { ours: [], staticCode: [] };
    for (let round = 0; round < 15; round++) {
      rounds.ours.push(time(ours, 10));
      rounds.staticCode.push(time(staticCode, 10));
    }
    return { ...rounds, bytes: buffer.byteLength };
  });
  const ours = median(result.ours);
  const staticMedian = median(result.staticCode);
  console.log(
    `body ${(result.bytes / 1e6).toFixed(2)} MB: client route ${ours.toFixed(3)} ms, ` +
      `static code ${staticMedian.toFixed(3)} ms, ` +
      `ratio ${(ours / staticMedian).toFixed(3)} (target ≤ 1.1)\n`,
  );
  figures.protobuf_decode = {
    bytes: result.bytes,
    client_route_ms: result.ours,
    static_code_ms: result.staticCode,
    ratio_of_medians: ours / staticMedian,
  };
}

async function memory(page, figures) {
  console.log('== 3. Tab memory: a 100,000-Book JSON cell, 200 iterations');
  const cdp = await page.context().newCDPSession(page);
  const heapMb = async (collect) => {
    if (collect) await cdp.send('HeapProfiler.collectGarbage');
    return (await cdp.send('Runtime.getHeapUsage')).usedSize / 1e6;
  };
  const before = await heapMb(true);
  let peak = before;
  const readings = [];
  const running = page.evaluate(() =>
    window.lab.runCell(
      { object: 'books', count: 100000, format: 'json', compression: 'none', scenario: 1, cm: 0 },
      { warmup: 0, reps: 200 },
    ),
  );
  let done = false;
  running
    .finally(() => {
      done = true;
    })
    .catch(() => {});
  const started = Date.now();
  while (!done) {
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const used = await heapMb(false);
    peak = Math.max(peak, used);
    readings.push(`${Math.round((Date.now() - started) / 1000)}s ${used.toFixed(0)}MB`);
  }
  const result = await running;
  const after = await heapMb(true);
  console.log(
    `heap after GC: before ${before.toFixed(1)} MB, after 200 iterations ${after.toFixed(1)} MB; ` +
      `peak while running ${peak.toFixed(0)} MB`,
  );
  console.log(`readings: ${readings.join(', ')}`);
  console.log(
    `cell median ${result.summary.median.toFixed(1)} ms over ${result.samples.length} samples ` +
      '(target: the heap does not grow with iterations)\n',
  );
  figures.memory = {
    heap_before_mb: before,
    heap_after_mb: after,
    peak_mb: peak,
    readings,
    cell_median_ms: result.summary.median,
  };
}

const server = process.env.BASE_URL
  ? null
  : await startStudyServer({
      port: PORT,
      options: ['-Ddw.dataset.size=100000', '-Ddw.dataset.directory=server/target/bench-data'],
    });
const browser = await playwright[engineOf().name].launch(launchOptions);
try {
  const page = await browser.newPage();
  await page.goto(BASE_URL);
  await page.evaluate(() => window.labReady);
  const context = await page.evaluate(() => window.lab.context());
  console.log(
    `Response Time Lab client benchmark — ${context.user_agent.match(/Chrome\/[\d.]+/)?.[0] ?? context.user_agent}, ` +
      `crossOriginIsolated ${context.cross_origin_isolated}, protobuf.js ${context.protobufjs}, ${BASE_URL}\n`,
  );
  const sections = process.argv.slice(2);
  const figures = { overhead: [] };
  if (sections.length === 0 || sections.includes('overhead')) await overhead(page, figures);
  if (sections.length === 0 || sections.includes('decode')) await protobufDecode(page, figures);
  if (sections.length === 0 || sections.includes('memory')) await memory(page, figures);
  const written = writeBenchmark(
    'client',
    { base_url: BASE_URL, browser: `${engineOf().name} ${browser.version()}`, page: context, sections },
    figures,
  );
  console.log(`Figures: ${written}`);
} finally {
  await browser.close();
  server?.stop();
}

// Prints the browser client's figures (not a test): npm run bench:client
//   1. what the client adds to what it times: scenario 1 through the runner against a bare
//      inline fetch → read → decode loop, both served the server's real bodies from memory so
//      that network noise cannot hide the difference, set against the cell's real median;
//   2. protobuf decode of 10,000 Books: the client's route (protobuf.js reflection from the
//      .proto) against protobuf.js's static code (pbjs -t static) in the same page;
//   3. the tab's JS heap while a 100,000-object cell runs 200 iterations.
// It starts its own server (100,000 objects per kind) on port 18090, or uses BASE_URL.

import { chromium } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchOptions } from '../../experiments/chromium.js';
import { startStudyServer } from '../../experiments/server-process.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const PORT = 18090;
const BASE_URL = process.env.BASE_URL ?? `http://127.0.0.1:${PORT}`;
const median = (values) => { const s = [...values].sort((a, b) => a - b); return s[Math.floor((s.length - 1) / 2)]; };
const fixed = (value, digits = 3) => value.toFixed(digits).padStart(10);

/**
 * The client's own cost inside the timed region, without network noise: the runner and a bare
 * inline loop (fetch → read → decode, two clock reads) both get their bodies from an in-page
 * fetch stub holding the server's real answers, so the only difference is the client's code.
 * That difference is then set against the same cell's real median over the network.
 */
async function overhead(page) {
  console.log('== 1. What the client adds to what it times (scenario 1, books)');
  console.log('format      count   real median   client code   bare loop     added      added/real');
  for (const format of ['json', 'xml', 'protobuf']) {
    for (const count of [100, 1000, 10000]) {
      const result = await page.evaluate(async ({ format, count }) => {
        const cell = { object: 'books', count, format, compression: 'none', scenario: 1, cm: 0 };
        const real = await window.lab.runCell(cell, { warmup: 10, reps: 30 });
        const bodies = {};
        for (const f of ['json', 'xml', 'protobuf']) {
          bodies[f] = await (await fetch(`/api/books?count=${count}&format=${f}&compression=none&cm=0`)).arrayBuffer();
        }
        const realFetch = globalThis.fetch;
        const stub = async (url, options) => {
          const parsed = new URL(url, location.href);
          if (!parsed.pathname.startsWith('/api/')) return realFetch(url, options);
          return new Response(bodies[parsed.searchParams.get('format')], { status: 200 });
        };
        globalThis.fetch = stub;
        try {
          const { createLab } = await import('/lab.js');
          const stubbed = await createLab();
          const codec = stubbed.codecs[format];
          const url = `/api/books?count=${count}&format=${format}&compression=none&cm=0`;
          const bare = async (n) => {
            const totals = [];
            for (let i = 0; i < n; i++) {
              const t0 = performance.now();
              const response = await fetch(url, { cache: 'no-store' });
              codec.decode(await codec.read(response), 'books');
              totals.push(performance.now() - t0);
              await new Promise((resolve) => setTimeout(resolve, 0));
            }
            return totals;
          };
          const client = [];
          const plain = [];
          await stubbed.runCell(cell, { warmup: 20, reps: 1 });
          await bare(20);
          for (let round = 0; round < 10; round++) {
            client.push(...(await stubbed.runCell(cell, { warmup: 0, reps: 20 })).samples.map((s) => s.total_ms));
            plain.push(...await bare(20));
          }
          return { real: real.summary.median, client, plain };
        } finally {
          globalThis.fetch = realFetch;
        }
      }, { format, count });
      const client = median(result.client);
      const bare = median(result.plain);
      const added = client - bare;
      console.log(`${format.padEnd(9)} ${String(count).padStart(7)} ${fixed(result.real)} ms ${fixed(client)} ms `
        + `${fixed(bare)} ms ${fixed(added * 1000, 1)} µs ${fixed((100 * added) / result.real, 3)} %`);
    }
  }
  console.log('   (target: added/real ≤ 1 %; "client code" and "bare loop" read the same bodies from memory)\n');
}

async function protobufDecode(page) {
  console.log('== 2. Protobuf decode of 10,000 Books: the client\'s route against protobuf.js static code');
  const directory = mkdtempSync(join(tmpdir(), 'rtl-pbjs-'));
  const staticFile = join(directory, 'lab-static.js');
  execFileSync(join(ROOT, 'node_modules', '.bin', 'pbjs'), ['-t', 'static', '-w', 'closure', join(ROOT, 'proto', 'lab.proto'), '-o', staticFile]);
  await page.addScriptTag({ content: `(function ($protobuf) {\n${readFileSync(staticFile, 'utf8')}\n})(protobuf);` });
  const result = await page.evaluate(async () => {
    const buffer = await (await fetch('/api/books?count=10000&format=protobuf')).arrayBuffer();
    const ours = () => window.lab.codecs.protobuf.decode(buffer, 'books');
    const staticCode = () => protobuf.roots.default.responsetimelab.BookList.decode(new Uint8Array(buffer)).books;
    if (ours().length !== 10000 || staticCode().length !== 10000) throw new Error('decoded the wrong count');
    const time = (decode, n) => { const t0 = performance.now(); for (let i = 0; i < n; i++) decode(); return (performance.now() - t0) / n; };
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
  console.log(`body ${(result.bytes / 1e6).toFixed(2)} MB: client route ${ours.toFixed(3)} ms, static code ${staticMedian.toFixed(3)} ms, `
    + `ratio ${(ours / staticMedian).toFixed(3)} (target ≤ 1.1)\n`);
}

async function memory(page) {
  console.log('== 3. Tab memory: a 100,000-Book JSON cell, 200 iterations');
  const cdp = await page.context().newCDPSession(page);
  const heapMb = async (collect) => {
    if (collect) await cdp.send('HeapProfiler.collectGarbage');
    return (await cdp.send('Runtime.getHeapUsage')).usedSize / 1e6;
  };
  const before = await heapMb(true);
  let peak = before;
  const readings = [];
  const running = page.evaluate(() => window.lab.runCell(
    { object: 'books', count: 100000, format: 'json', compression: 'none', scenario: 1, cm: 0 }, { warmup: 0, reps: 200 }));
  let done = false;
  running.finally(() => { done = true; }).catch(() => {});
  const started = Date.now();
  while (!done) {
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const used = await heapMb(false);
    peak = Math.max(peak, used);
    readings.push(`${Math.round((Date.now() - started) / 1000)}s ${used.toFixed(0)}MB`);
  }
  const result = await running;
  const after = await heapMb(true);
  console.log(`heap after GC: before ${before.toFixed(1)} MB, after 200 iterations ${after.toFixed(1)} MB; peak while running ${peak.toFixed(0)} MB`);
  console.log(`readings: ${readings.join(', ')}`);
  console.log(`cell median ${result.summary.median.toFixed(1)} ms over ${result.samples.length} samples (target: the heap does not grow with iterations)\n`);
}

const server = process.env.BASE_URL ? null : await startStudyServer({ port: PORT,
  options: ['-Ddw.dataset.size=100000', '-Ddw.dataset.directory=server/target/bench-data'] });
const browser = await chromium.launch(launchOptions);
try {
  const page = await browser.newPage();
  await page.goto(BASE_URL);
  await page.evaluate(() => window.labReady);
  const context = await page.evaluate(() => window.lab.context());
  console.log(`Response Time Lab client benchmark — ${context.user_agent.match(/Chrome\/[\d.]+/)?.[0] ?? context.user_agent}, `
    + `crossOriginIsolated ${context.cross_origin_isolated}, protobuf.js ${context.protobufjs}, ${BASE_URL}\n`);
  const sections = process.argv.slice(2);
  if (sections.length === 0 || sections.includes('overhead')) await overhead(page);
  if (sections.length === 0 || sections.includes('decode')) await protobufDecode(page);
  if (sections.length === 0 || sections.includes('memory')) await memory(page);
} finally {
  await browser.close();
  server?.stop();
}

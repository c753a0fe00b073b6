// Checks that HTTP/3 holds in Chromium (not a timing benchmark): npm run bench:h3
// A page over the server's h3 connector fetches Books one after another, as a cell's reps do, and
// every answer must arrive whole, over h3. This is the loop that used to end with Chromium closing
// the QUIC connection ("Network blackhole detected") after some tens to hundreds of answers: a
// quiche bug dropped the end of an answer (docs/protocols.md#http3-in-a-study). Each run launches
// a fresh Chromium, forced to QUIC for the h3 origin only, as the study does.
// Settings: H3_LOOP_REQUESTS (per loop, default 10000), H3_LOOP_COUNTS (Books per answer,
// default 10,1000), H3_LOOP_RUNS (default 5), BENCH_PORT (the server's HTTP port, default 18096;
// TLS and h3 on ports the system picks), H3_LOOP_NETLOG (Books counts, e.g. 10: Chromium's net log of those loops,
// kept in results/bench/h3-loop-netlogs/ only for a loop with a failure; a 1,000 Books loop's is
// gigabytes). Writes
// results/bench/h3-loop-<UTC time>.json and exits non-zero when any request failed or went over
// another protocol.

import { chromium } from '@playwright/test';
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { plainLaunchOptions } from '#common/browsers/chromium.js';
import { startStudyServer } from '../server-process.js';
import { writeBenchmark } from './bench-output.js';

const PORT = Number(process.env.BENCH_PORT ?? 18096);
const REQUESTS = Number(process.env.H3_LOOP_REQUESTS ?? 10_000);
const COUNTS = (process.env.H3_LOOP_COUNTS ?? '10,1000').split(',').map(Number);
const RUNS = Number(process.env.H3_LOOP_RUNS ?? 5);
const NETLOG_COUNTS = (process.env.H3_LOOP_NETLOG ?? '').split(',').filter(Boolean).map(Number);
const NETLOG_DIR = NETLOG_COUNTS.length
  ? join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'results', 'bench', 'h3-loop-netlogs')
  : null;
/** Requests per page.evaluate: progress is printed between batches. */
const BATCH = 500;
/** A request with no answer by then counts as failed (the old stall left one waiting for ever). */
const REQUEST_TIMEOUT_MS = 60_000;

/** Runs `n` fetches in the page; returns {ok, failures: [{index, error}], hops: {protocol: n}}. */
function fetchLoop(page, path, n, first) {
  return page.evaluate(
    async ({ path, n, first, timeoutMs }) => {
      const result = { ok: 0, bytes: 0, failures: [], hops: {} };
      for (let i = 0; i < n; i++) {
        performance.clearResourceTimings();
        try {
          const response = await fetch(path, { cache: 'no-store', signal: AbortSignal.timeout(timeoutMs) });
          if (!response.ok) throw new Error(`status ${response.status}`);
          result.bytes += (await response.arrayBuffer()).byteLength;
          result.ok++;
        } catch (error) {
          result.failures.push({ index: first + i, error: String(error) });
        }
        const entry = performance.getEntriesByType('resource').at(-1);
        const hop = entry?.nextHopProtocol || 'none';
        result.hops[hop] = (result.hops[hop] ?? 0) + 1;
      }
      return result;
    },
    { path, n, first, timeoutMs: REQUEST_TIMEOUT_MS },
  );
}

async function loop(h3Port, count, run) {
  const path = `/api/books?count=${count}&format=json&compression=none`;
  const options = plainLaunchOptions({ quicOrigin: `localhost:${h3Port}` });
  const netlog = NETLOG_COUNTS.includes(count)
    ? join(NETLOG_DIR, `${new Date().toISOString()}-run${run}-${count}.json`)
    : null;
  if (netlog) {
    mkdirSync(NETLOG_DIR, { recursive: true });
    options.args.push(`--log-net-log=${netlog}`);
  }
  const browser = await chromium.launch(options);
  const started = Date.now();
  const total = { requests: REQUESTS, ok: 0, bytes: 0, failures: [], failed: 0, hops: {} };
  try {
    const page = await browser.newPage();
    await page.goto(`https://localhost:${h3Port}/`);
    for (let done = 0; done < REQUESTS; done += BATCH) {
      const part = await fetchLoop(page, path, Math.min(BATCH, REQUESTS - done), done);
      total.ok += part.ok;
      total.bytes += part.bytes;
      total.failed += part.failures.length;
      total.failures.push(...part.failures.slice(0, Math.max(0, 10 - total.failures.length)));
      for (const [hop, n] of Object.entries(part.hops)) total.hops[hop] = (total.hops[hop] ?? 0) + n;
      const reached = done + part.ok + part.failures.length;
      process.stdout.write(`\r  ${count} Books: ${reached}/${REQUESTS}, ${total.failed} failed`);
    }
  } finally {
    await browser.close();
  }
  process.stdout.write('\n');
  if (netlog && total.failed === 0) rmSync(netlog, { force: true });
  return { count, path, ...total, netlog: total.failed > 0 ? netlog : null, seconds: (Date.now() - started) / 1000 };
}

// The first start compiles and may generate the datasets: minutes on a busy machine.
const server = await startStudyServer({ port: PORT, timeoutMs: 900_000 });
let failed = false;
try {
  const info = await (await fetch(`${server.url}/api/info`)).json();
  const h3 = info.protocols.find((p) => p.name === 'h3');
  if (!h3) throw new Error(`the server offers no h3: ${info.protocols_note}`);
  const runs = [];
  const context = {
    requests_per_loop: REQUESTS,
    counts: COUNTS,
    runs: RUNS,
    versions: info.versions,
    quic_library: h3.quic_library ?? null,
    note: 'a check that every answer arrives over h3, not a timing measurement',
  };
  let file = null;
  for (let run = 1; run <= RUNS; run++) {
    console.log(`run ${run}/${RUNS}`);
    const loops = [];
    for (const count of COUNTS) loops.push(await loop(h3.port, count, run));
    runs.push({ run, loops });
    for (const l of loops) {
      const otherHops = Object.entries(l.hops).filter(([hop]) => hop !== 'h3');
      if (l.failed > 0 || otherHops.length > 0) failed = true;
      console.log(
        `  ${l.count} Books: ${l.ok}/${l.requests} answered whole, ${l.failed} failed, hops ${JSON.stringify(l.hops)}` +
          (l.failures.length ? `; first: ${l.failures[0].index}: ${l.failures[0].error}` : ''),
      );
    }
    // After every run, so that a run stopped early keeps what it checked.
    const next = writeBenchmark('h3-loop', context, {
      runs,
      runs_done: run,
      complete: run === RUNS,
      all_answered: !failed,
    });
    if (file) rmSync(file, { force: true });
    file = next;
  }
  console.log(`${failed ? 'FAILED' : 'every request answered over h3'}; figures in ${file}`);
} finally {
  server.stop();
}
process.exit(failed ? 1 : 0);

// Why the study server's JVM starts with its heap committed and touched (.mvn/jvm.config:
// -Xms2g -XX:+AlwaysPreTouch), and what that costs: npm run bench:heap
// Starts the study server again and again, alternating with and without -XX:+AlwaysPreTouch
// (MAVEN_OPTS overrides .mvn/jvm.config), warms it up as a study does (server-warmup.js: 20,000
// requests, mostly of 100 objects), then asks for 1,000 Videos as JSON and as Protobuf in turn
// and keeps the server's own encoding time of each answer (Server-Timing serialize, the first
// 64 KiB). Without pre-touch, a server now and then encodes several times slower for thousands
// of requests: its heap grows into memory never touched before, and every first touch of a page
// is a page fault inside the allocation the encoder is timed on. Which runs it hits differs from
// start to start, so it shows up as run-to-run differences between formats. Every figure goes to
// results/bench/server-heap-<UTC time>.json.
//
//   npm run bench:heap [-- <starts per variant, default 6>]

import http from 'node:http';
import { startStudyServer } from '../server-process.js';
import { WARMUP_REQUESTS, warmUpServer, warmupPaths } from '../server-warmup.js';
import { apiPath } from '#common/schema.js';
import { median } from '#common/stats.js';
import { writeBenchmark } from './bench-output.js';

const PORT = 18128;
const STARTS = Number(process.argv[2] ?? 6);
const REQUESTS = 3000;
const BLOCK = 500;
const VARIANTS = [
  { name: 'pre-touched', maven_opts: '' },
  { name: 'not pre-touched', maven_opts: '-XX:-AlwaysPreTouch' },
];
// The study's 1,000-Videos group (every format, with and without GZIP), warmed up as a study does.
const CELLS = ['json', 'protobuf', 'xml'].flatMap((format) =>
  ['none', 'gzip'].map((compression) => ({ object: 'videos', count: 1000, format, compression, cm: 0 })),
);
const MEASURED = Object.fromEntries(
  ['json', 'protobuf'].map((format) => [
    format,
    apiPath({ object: 'videos', count: 1000, format, compression: 'none' }, 0),
  ]),
);

function serializeMs(agent, base, path) {
  return new Promise((resolve, reject) => {
    http
      .get(new URL(path, base), { agent }, (response) => {
        response.on('data', () => {});
        response.on('end', () => {
          const match = /serialize;dur=([\d.]+)/.exec(response.headers['server-timing'] ?? '');
          return match ? resolve(Number(match[1])) : reject(new Error(`no serialize time for ${path}`));
        });
      })
      .on('error', reject);
  });
}

async function oneStart(variant) {
  process.env.MAVEN_OPTS = variant.maven_opts;
  const t0 = performance.now();
  const server = await startStudyServer({ port: PORT });
  const startSeconds = (performance.now() - t0) / 1000;
  try {
    const warmup = await warmUpServer(server.url, warmupPaths(CELLS), WARMUP_REQUESTS);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const times = { json: [], protobuf: [] };
    for (let i = 0; i < REQUESTS; i++) {
      for (const format of Object.keys(MEASURED))
        times[format].push(await serializeMs(agent, server.url, MEASURED[format]));
    }
    agent.destroy();
    const blocks = Object.fromEntries(
      Object.entries(times).map(([format, ms]) => [
        format,
        Array.from({ length: REQUESTS / BLOCK }, (_, b) => median(ms.slice(b * BLOCK, (b + 1) * BLOCK))),
      ]),
    );
    return {
      variant: variant.name,
      maven_opts: variant.maven_opts,
      start_seconds: startSeconds,
      warmup_seconds: warmup.seconds,
      block_medians_ms: blocks,
      serialize_ms: times,
    };
  } finally {
    server.stop();
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

const starts = [];
for (let start = 0; start < STARTS; start++) {
  for (const variant of start % 2 ? [...VARIANTS].reverse() : VARIANTS) {
    const result = await oneStart(variant);
    starts.push(result);
    const blockMedians = result.block_medians_ms.protobuf.map((ms) => ms.toFixed(2)).join(' ');
    console.log(
      `${variant.name.padEnd(16)} start ${result.start_seconds.toFixed(1)} s; ` +
        `Protobuf serialize medians per ${BLOCK} requests: ${blockMedians} ms`,
    );
  }
}
// A start is slowed where one of its blocks is over 1.5× the fastest block of any start, of either variant.
const fastest = Math.min(...starts.flatMap((r) => r.block_medians_ms.protobuf));
const summary = VARIANTS.map((variant) => {
  const mine = starts.filter((r) => r.variant === variant.name);
  const protobuf = mine.map((r) => median(r.serialize_ms.protobuf));
  return {
    variant: variant.name,
    starts: mine.length,
    protobuf_median_ms_per_start: protobuf,
    json_median_ms_per_start: mine.map((r) => median(r.serialize_ms.json)),
    fastest_block_ms: fastest,
    starts_with_a_block_over_1_5x_the_fastest: mine.filter(
      (r) => Math.max(...r.block_medians_ms.protobuf) > 1.5 * fastest,
    ).length,
    start_seconds_median: median(mine.map((r) => r.start_seconds)),
  };
});
for (const s of summary) {
  console.log(
    `${s.variant}: ${s.starts_with_a_block_over_1_5x_the_fastest} of ${s.starts} starts had a block of Protobuf` +
      ` encoding over 1.5× the fastest block (${fastest.toFixed(2)} ms);` +
      ` medians per start ${s.protobuf_median_ms_per_start.map((ms) => ms.toFixed(2)).join(', ')} ms;` +
      ` server start ${s.start_seconds_median.toFixed(1)} s`,
  );
}
console.log(
  `written to ${writeBenchmark(
    'server-heap',
    {
      port: PORT,
      requests: REQUESTS,
      block: BLOCK,
      warmup_requests: WARMUP_REQUESTS,
      measured: MEASURED,
      variants: VARIANTS,
    },
    { summary, starts },
  )}`,
);

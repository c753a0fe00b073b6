// Prints how exactly each shaping mechanism gives its rate (not a test): npm run bench:shaping
// At 10 Mbit/s, answers of about 1.4 and 3.6 MB are fetched several times; each fetch's time
// (Resource Timing: request start → last byte) is set against bytes on the wire × 8 / rate.
// Targets: within 5 % with SHAPING=netns (kernel), within 10 % with SHAPING=cdp (Chromium).
// netns needs root; without it that half is skipped with the reason.

import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '#common/browsers/chromium.js';
import { NETNS_LAUNCH_OPTIONS } from '../network/netns-launch.js';
import { NETWORKS, applyCdpShaping, calibrateCdp, measureNetwork } from '../network/profiles.js';
import { checkNetns, shapeNetns, startNetnsStudy, stopNetnsStudy } from '../network/netns.js';
import { startStudyServer } from '../server-process.js';
import { writeBenchmark } from './bench-output.js';
import { guardRun } from '../run-guard/guard.js';

// What the benchmark starts goes when it ends, however it ends (experiments/run-guard/).
await guardRun('npm run bench:shaping');

const PORT = 18122;
const BASE_URL = `http://localhost:${PORT}`;
const PROFILE = '10mbit';
const SERVER_OPTS = '-Ddw.dataset.size=12000 -Ddw.dataset.directory=server/target/shaping-data';
const PROBES = [
  ['books', 3200, 'json'],
  ['books', 10000, 'protobuf'],
];
const REPS = 5;

async function measure(page) {
  const rows = [];
  for (const [object, count, format] of PROBES) {
    const result = await page.evaluate(
      async ({ object, count, format, reps }) => {
        const url = `/api/${object}?count=${count}&format=${format}&compression=none&cm=0`;
        const runs = [];
        for (let i = 0; i < reps + 1; i++) {
          performance.clearResourceTimings();
          await (await fetch(url, { cache: 'no-store' })).arrayBuffer();
          await new Promise((resolve) => setTimeout(resolve, 0));
          const entry = performance.getEntriesByType('resource').at(-1);
          if (i > 0) runs.push({ seconds: (entry.responseEnd - entry.requestStart) / 1000, bytes: entry.transferSize });
        }
        return runs;
      },
      { object, count, format, reps: REPS },
    );
    const seconds = result.map((r) => r.seconds).sort((a, b) => a - b)[Math.floor(REPS / 2)];
    const bytes = result[0].bytes;
    const ideal = (bytes * 8) / NETWORKS[PROFILE].downBps;
    rows.push({ probe: `${count} ${object} ${format}`, bytes, seconds, ideal, error: (seconds - ideal) / ideal });
  }
  return rows;
}

/** Every figure printed, kept raw for results/bench/shaping-<UTC time>.json. */
const figures = { profile: PROFILE, reps: REPS, measurements: [], rtt_profiles: [] };

function print(mechanism, rows, target, how) {
  figures.measurements.push({ mechanism, how, target_percent: target, rows });
  console.log(`${mechanism}: ${how}`);
  for (const r of rows) {
    console.log(
      `${mechanism.padEnd(6)} ${r.probe.padEnd(22)} ${(r.bytes / 1e6).toFixed(2)} MB` +
        `  measured ${r.seconds.toFixed(3)} s` +
        `  ideal ${r.ideal.toFixed(3)} s  ${(100 * r.error).toFixed(1).padStart(5)} %  (target within ${target} %)`,
    );
  }
}

console.log(`Shaping accuracy at ${NETWORKS[PROFILE].title}: median of ${REPS} fetches, request start → last byte\n`);
// Chromium's emulation (cdp), against a server on this machine's loopback: as Chromium does it,
// then calibrated as a study run calibrates it.
const server = await startStudyServer({ port: PORT, options: SERVER_OPTS.split(' ') });
try {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const page = await browser.newPage({ baseURL: BASE_URL });
  await page.goto('/');
  await applyCdpShaping(page, PROFILE);
  print('cdp', await measure(page), 10, 'Chromium as told');
  const calibration = await calibrateCdp(page, PROFILE);
  await applyCdpShaping(page, PROFILE, calibration.factor);
  print(
    'cdp',
    await measure(page),
    10,
    `calibrated, factor ${calibration.factor.toFixed(3)} after ${calibration.rounds.length} rounds`,
  );
  await browser.close();
} finally {
  server.stop();
}
// The kernel (netns): server and Chromium in two namespaces, tc on the link between them; then
// the profiles with an RTT, through the kernel's netem or the delay line.
try {
  checkNetns();
  process.env.SERVER_OPTS = SERVER_OPTS;
  const link = await startNetnsStudy({ baseUrl: BASE_URL });
  try {
    const browser = await chromium.launch(NETNS_LAUNCH_OPTIONS);
    const page = await browser.newPage({ baseURL: BASE_URL });
    await page.goto('/');
    shapeNetns(PROFILE);
    print('netns', await measure(page), 5, 'payload rate on a veth pair');
    console.log(`\nnetns  profiles with an RTT (delay by ${link.delay}): measured as a study run measures them`);
    for (const name of ['cable', 'lte', 'fast-4g']) {
      shapeNetns(name);
      const measured = await measureNetwork(page, NETWORKS[name].downBps);
      const profile = NETWORKS[name];
      figures.rtt_profiles.push({ name, nominal: profile, measured });
      console.log(
        `netns  ${name.padEnd(8)} RTT ${measured.rtt_ms.toFixed(1).padStart(6)} ms (nominal ${profile.rttMs})` +
          `  throughput ${(measured.throughput_bps / 1e6).toFixed(2)} Mbit/s` +
          ` (nominal ${(profile.downBps / 1e6).toFixed(2)})`,
      );
    }
    await browser.close();
  } finally {
    await stopNetnsStudy();
  }
} catch (error) {
  figures.netns_skipped = error.message;
  console.log(`netns  skipped: ${error.message}`);
}
console.log(`\nFigures: ${writeBenchmark('shaping', { base_url: BASE_URL, server_opts: SERVER_OPTS }, figures)}`);

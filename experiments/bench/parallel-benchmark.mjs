// Does running two comparison groups at once on this machine change what they measure? (not a
// test): npm run bench:parallel
// One study server on its own ports (the first start generates the datasets: not timed); then a
// plan whose groups are each busy on one side — the server sorting while the browser waits
// (scenario 2), the browser decoding or sorting while the server has little to do (scenarios 1
// and 3) — run four times in the order one at a time, two at once, two at once, one at a time
// (so that drift over the benchmark falls on both ways alike). "Two at once" is the plan as two
// shards (Playwright's --shard=1/2 and 2/2, as on two machines) started together against the one
// server, then merged (npm run merge): each shard measures its groups while the other measures
// its own. Each run is compared with its neighbour of the other way (analysis/compare-runs.js),
// and the two runs of each way with each other, which is what one way's run-to-run noise is:
// per scenario, the median of (two at once ÷ one at a time) over the cells' medians, and the
// verdicts that differ; and per run, how long its server-side cells waited for a computation slot
// (two runs against one server share its slots). Writes results/bench/parallel-<UTC time>.json. PARALLEL_PORT (default
// 18134, the admin port one above) moves the server; PLAN runs another plan file the same way.

import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mergeRuns, readRun } from '#common/run-directory.js';
import { median } from '#common/stats.js';
import { compareRuns } from '../../analysis/compare-runs.js';
import { startStudyServer } from '../server-process.js';
import { writeBenchmark } from './bench-output.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const PORT = Number(process.env.PARALLEL_PORT ?? 18134);
const SEED = '20261128';

/** Groups busy on one side each; the thesis plan's protocol with a shorter budget. */
const PLAN = {
  name: 'parallel-check',
  description:
    'groups busy on one side each — the server sorting 10,000 Books (CM3) while the browser waits, ' +
    'the browser sorting or decoding them — for npm run bench:parallel',
  protocol: {
    warmup: { minMs: 200, minIterations: 3, window: 3, tolerance: 0.1, maxMs: 1000 },
    rounds: { iterationsPerVisit: 2, visitMaxMs: 1000, minRounds: 8, maxRounds: 200, maxMs: 20000, decisionMs: 5000 },
    stop: { delta: 0.05 },
  },
  groups: [
    {
      name: 'the server or the browser sorts 10,000 Books',
      scenarios: [2, 3],
      cms: [3],
      objects: ['books'],
      formats: ['json', 'protobuf'],
      compressions: ['none'],
      counts: [10000],
      networks: ['unthrottled'],
    },
    {
      name: 'the browser decodes 10,000 Books',
      scenarios: [1],
      cms: [0],
      objects: ['books'],
      formats: ['json', 'protobuf', 'xml'],
      compressions: ['none'],
      counts: [10000],
      networks: ['unthrottled'],
    },
    {
      name: 'the server or the browser sorts 1,000 Books 100 times',
      scenarios: [2, 3],
      cms: [4],
      objects: ['books'],
      formats: ['json', 'protobuf'],
      compressions: ['none'],
      counts: [1000],
      networks: ['unthrottled'],
    },
    {
      name: 'the browser decodes 10,000 Videos',
      scenarios: [1],
      cms: [0],
      objects: ['videos'],
      formats: ['json', 'protobuf', 'xml'],
      compressions: ['none'],
      counts: [10000],
      networks: ['unthrottled'],
    },
  ],
};

const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const directory = join(ROOT, 'results', 'bench', `parallel-runs-${stamp}`);
const planFile = process.env.PLAN ? resolve(process.env.PLAN) : join(directory, 'plan.json');

/**
 * One `npx playwright test` of the plan into `runDir` (with `args`), its output kept in
 * `<runDir>.log`; resolves to its exit code.
 */
function study(runDir, args = []) {
  const log = openSync(`${runDir}.log`, 'w');
  return new Promise((done, fail) => {
    const child = spawn('npx', ['playwright', 'test', ...args], {
      cwd: ROOT,
      stdio: ['ignore', log, log],
      env: { ...process.env, PLAN: planFile, RUN_DIR: runDir, SEED, BASE_URL: `http://localhost:${PORT}` },
    });
    child.on('error', fail);
    child.on('exit', (code) => {
      closeSync(log);
      done(code);
    });
  });
}

/**
 * How long the run's samples of cells that compute on the server waited for a computation slot
 * (the server's Server-Timing queue, in every sample): one run's cells never wait for each
 * other; two runs' against one server can.
 */
function serverQueue(runDir) {
  const waits = readRun(runDir)
    .samples.filter((s) => Number.isFinite(s.server_queue_ms))
    .map((s) => s.server_queue_ms);
  return {
    samples: waits.length,
    waited_over_1_ms: waits.filter((ms) => ms > 1).length,
    median_ms: waits.length ? median(waits) : null,
    max_ms: waits.length ? Math.max(...waits) : null,
  };
}

/** A run of one way: one at a time (one process), or two at once (two shards together, merged). */
async function run(way, index) {
  const runDir = join(directory, `${way}-${index}`);
  const started = Date.now();
  let codes;
  if (way === 'one-at-a-time') codes = [await study(runDir)];
  else {
    const shards = [1, 2].map((shard) => `${runDir}-shard-${shard}`);
    codes = await Promise.all(shards.map((dir, i) => study(dir, [`--shard=${i + 1}/2`])));
    if (codes.every((code) => code === 0)) mergeRuns(shards, runDir);
  }
  const wallMs = Date.now() - started;
  console.log(`${way} #${index}: ${(wallMs / 1000).toFixed(0)} s, exit ${codes.join(', ')}`);
  if (codes.some((code) => code !== 0)) throw new Error(`${way} #${index} failed: see ${runDir}*.log`);
  return { way, index, run_dir: runDir, wall_ms: wallMs, server_queue: serverQueue(runDir) };
}

/** Per scenario, the median over cells of B's median ÷ A's, and how many cells each covers. */
function byScenario(pathA, pathB) {
  const medians = (path) => new Map(readRun(path).cells.map((c) => [c.case_id, c]));
  const [a, b] = [medians(pathA), medians(pathB)];
  const ratios = {};
  for (const [id, cell] of a) {
    const other = b.get(id);
    if (!other) continue;
    (ratios[cell.cell.scenario] ??= []).push(other.summary.median / cell.summary.median);
  }
  return Object.fromEntries(
    Object.entries(ratios).map(([scenario, list]) => [
      `scenario ${scenario}`,
      { cells: list.length, median_ratio_b_to_a: median(list) },
    ]),
  );
}

/** What compare-runs says of B against A, in brief. */
function pair(a, b) {
  const result = compareRuns(a.run_dir, b.run_dir);
  return {
    a: `${a.way} #${a.index}`,
    b: `${b.way} #${b.index}`,
    median_ratio_b_to_a: result.cells.median_ratio_b_to_a,
    by_scenario: byScenario(a.run_dir, b.run_dir),
    medians_moved_over_10_percent: result.cells.medians_moved_over_10_percent,
    moved_slower_in_b: result.cells.moved_slower_in_b,
    cells: result.cells.in_both,
    resolved_in_both: result.comparisons.resolved_in_both,
    opposite_ways: result.comparisons.opposite_ways,
    cis_apart: result.comparisons.cis_apart,
    cis_apart_expected: result.comparisons.cis_apart_expected,
    run_to_run_tau: result.comparisons.run_to_run.tau,
    decisions_different: result.decisions.situations - result.decisions.same,
    summary: result.summary,
  };
}

if (!process.env.PLAN) {
  mkdirSync(directory, { recursive: true });
  writeFileSync(planFile, `${JSON.stringify(PLAN, null, 1)}\n`);
}
console.log(`Starting the study server on port ${PORT} (not timed)...`);
const server = await startStudyServer({ port: PORT, timeoutMs: 900_000 });
const loadAtStart = os.loadavg();
const runs = [];
try {
  for (const [index, way] of ['one-at-a-time', 'two-at-once', 'two-at-once', 'one-at-a-time'].entries()) {
    runs.push(await run(way, index + 1));
  }
} finally {
  server.stop();
}
const [one1, two1, two2, one2] = runs;
const figures = {
  plan: process.env.PLAN ?? PLAN,
  runs,
  // Two at once against its neighbour one at a time (B ÷ A: above 1, slower two at once).
  two_at_once_against_one_at_a_time: [pair(one1, two1), pair(one2, two2)],
  // Each way against itself: the noise any difference above is to be set against.
  one_at_a_time_run_to_run: pair(one1, one2),
  two_at_once_run_to_run: pair(two1, two2),
};
const path = writeBenchmark(
  'parallel',
  { port: PORT, seed: SEED, load_average_at_start: loadAtStart, load_average_at_end: os.loadavg() },
  figures,
);
const ratio = (p) => p.median_ratio_b_to_a.toFixed(3);
console.log(
  `Two groups at once ÷ one at a time, median over cells: ${figures.two_at_once_against_one_at_a_time
    .map(ratio)
    .join(' and ')}; one at a time run to run: ${ratio(figures.one_at_a_time_run_to_run)}. Written: ${path}`,
);

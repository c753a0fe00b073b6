// Estimates the wall time of the thesis plan under its fixed 100 + 100 protocol and under
// adaptive repetitions (plan thesis-adaptive), from a run already measured on this machine
// (default: the newest results/*-quick): npm run bench:thesis [-- <run dir>]
//
// Per thesis cell, one iteration's time is predicted from the run: the request (fetch + decode)
// as a + b·N fitted per object, format, compression and network; sorting as sorts × N·log2 N
// times the cost per unit measured in the browser (compute_ms) and on the server
// (server_sort_ms); plus the run's own per-iteration overhead. The number of adaptive
// repetitions is found by replaying the stopping rule (client/stats.js, as the runner does) on
// samples drawn from the measured spread of the most similar cell.

import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OBJECTS, caseId } from '../../client/schema.js';
import { median, relativeHalfWidth, seededRandom, summarize } from '../../client/stats.js';
import { expandPlan, loadPlan } from '../plan.js';
import { readRun } from '../results.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const REPETITIONS = [0, 1, 1, 10, 100, 1000];
const REPLAYS = 3;

function newestQuickRun() {
  const runs = readdirSync(join(ROOT, 'results')).filter((d) => d.endsWith('-quick')).sort();
  if (runs.length === 0) throw new Error('no results/*-quick run to estimate from: run "npm run study" first, or name a run directory');
  return join(ROOT, 'results', runs.at(-1));
}

/** Sorting work of CMk on N objects, as the server estimates it: sorts × N·log2 N. */
function work(object, cm, count) {
  const sorts = cm === 0 ? 0 : cm === 1 ? 1 : REPETITIONS[cm] * OBJECTS[object].sortSequence.length;
  return count < 2 ? 0 : sorts * count * Math.log2(count);
}

const key = (c) => `${c.object}/${c.format}/${c.compression}/${c.network}`;

function model(run) {
  const byCell = new Map();
  for (const sample of run.samples) {
    if (!byCell.has(sample.case_id)) byCell.set(sample.case_id, []);
    byCell.get(sample.case_id).push(sample);
  }
  // Request time (fetch + decode of the first request) per key: least squares on (N, median).
  const points = new Map();
  const clientRates = [];
  const serverRates = [];
  for (const cell of run.cells) {
    const samples = byCell.get(cell.case_id) ?? [];
    const c = cell.cell;
    if (!points.has(key(c))) points.set(key(c), []);
    points.get(key(c)).push([c.count, median(samples.map((s) => s.request_ms))]);
    const units = work(c.object, c.cm, c.count);
    if (units > 1e4) {
      for (const s of samples) {
        if (s.compute_ms) clientRates.push(s.compute_ms / units);
        if (s.server_sort_ms) serverRates.push(s.server_sort_ms / units);
      }
    }
  }
  const fits = new Map();
  for (const [k, pts] of points) {
    const n = pts.length;
    const mx = pts.reduce((a, [x]) => a + x, 0) / n;
    const my = pts.reduce((a, [, y]) => a + y, 0) / n;
    const sxx = pts.reduce((a, [x]) => a + (x - mx) ** 2, 0);
    const b = sxx > 0 ? Math.max(0, pts.reduce((a, [x, y]) => a + (x - mx) * (y - my), 0) / sxx) : 0;
    fits.set(k, { a: Math.max(0, my - b * mx), b });
  }
  // The run's own time per iteration beyond what is timed: cell wall time / iterations − median.
  const overheads = run.cells.map((cell) => {
    const iterations = (cell.protocol?.warmup ?? 0) + cell.n;
    return (Date.parse(cell.finished_at) - Date.parse(cell.started_at)) / iterations - cell.summary.median;
  }).filter((x) => Number.isFinite(x) && x > 0);
  return { fits, clientRate: median(clientRates), serverRate: median(serverRates),
    overheadMs: median(overheads), byCell, cells: run.cells };
}

function predictMedian(m, c) {
  const fit = m.fits.get(key(c));
  if (!fit) throw new Error(`the run has no cell for ${key(c)} to predict ${caseId(c)} from`);
  const request = fit.a + fit.b * c.count;
  const units = work(c.object, c.cm, c.count);
  switch (c.scenario) {
    case 1: return request;
    case 2: return request + m.serverRate * units;
    case 3: return request + m.clientRate * units;
    case 4: return 2 * (request + m.serverRate * units);
    default: return request + 2 * m.clientRate * units;
  }
}

/** The measured spread (each sample / its cell's median) of the most similar measured cell. */
function spreadFor(m, c) {
  const score = (cell) => (cell.cell.scenario === c.scenario ? 0 : 4) + (key(cell.cell) === key(c) ? 0 : 2)
    + Math.abs(Math.log10(cell.cell.count) - Math.log10(c.count));
  const nearest = [...m.cells].sort((x, y) => score(x) - score(y))[0];
  const totals = m.byCell.get(nearest.case_id).map((s) => s.total_ms);
  const mid = median(totals);
  return totals.map((t) => t / mid);
}

function adaptiveReps(spread, { minReps, maxReps, checkEvery, target }, random) {
  const samples = [];
  for (let rep = 1; rep <= maxReps; rep++) {
    samples.push(spread[Math.floor(random() * spread.length)]);
    if (rep >= minReps && rep % checkEvery === 0 && relativeHalfWidth(summarize(samples, { resamples: 500 })) <= target) {
      return rep;
    }
  }
  return maxReps;
}

const runPath = process.argv[2] ?? newestQuickRun();
const m = model(readRun(runPath));
const fixedPlan = loadPlan('thesis');
const adaptivePlan = loadPlan('thesis-adaptive');
const random = seededRandom(1);
let fixedMs = 0;
let adaptiveMs = 0;
let adaptiveSamples = 0;
const cells = expandPlan(fixedPlan);
for (const c of cells) {
  const iteration = predictMedian(m, c) + m.overheadMs;
  fixedMs += (fixedPlan.protocol.warmup + fixedPlan.protocol.reps) * iteration;
  const spread = spreadFor(m, c);
  let reps = 0;
  for (let i = 0; i < REPLAYS; i++) reps += adaptiveReps(spread, adaptivePlan.protocol.adaptive, random);
  reps /= REPLAYS;
  adaptiveSamples += reps;
  adaptiveMs += (adaptivePlan.protocol.warmup + reps) * iteration;
}
const hours = (ms) => `${(ms / 3.6e6).toFixed(2)} h`;
console.log(`Thesis wall-time estimate from ${runPath} (${m.cells.length} measured cells)`);
console.log(`model: request a + b·N per object/format/compression/network; sorting ${(m.clientRate * 1e6).toFixed(1)} ms per 10⁶ units`
  + ` in the browser, ${(m.serverRate * 1e6).toFixed(1)} ms on the server; ${m.overheadMs.toFixed(1)} ms per iteration outside the timing`);
console.log(`fixed 100 + 100 (thesis):          ${hours(fixedMs)} for ${cells.length} cells`);
console.log(`adaptive ≤ 2 % CI (thesis-adaptive): ${hours(adaptiveMs)} — 20 warm-up, on average ${(adaptiveSamples / cells.length).toFixed(1)} measured per cell`);
console.log(`ratio ${(adaptiveMs / fixedMs).toFixed(2)} (target < 0.5)`);

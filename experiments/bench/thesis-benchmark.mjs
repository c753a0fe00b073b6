// Times the thesis plan (not a test): npm run bench:thesis
// Starts the study server on its own ports (the first start generates the datasets: not timed),
// then runs `PLAN=thesis npx playwright test` against it into a fresh run directory and times it
// from start to end. Writes results/bench/thesis-<UTC time>.json: the wall time, each group's time
// (warm-up, rounds, decision, verification), rounds, why it stopped, what decided its comparisons
// and how many are open. THESIS_PORT (default 18132, the admin port one above) moves the server;
// PLAN runs another plan the same way.

import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FEW_ROUNDS_RULE, BOOTSTRAP_RULE } from '#common/comparison.js';
import { startStudyServer } from '../server-process.js';
import { writeBenchmark } from './bench-output.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const PORT = Number(process.env.THESIS_PORT ?? 18132);
const PLAN = process.env.PLAN ?? 'thesis';

/** The run's groups.jsonl, one record per completed group (none when the run failed before one). */
function groupsOf(runDir) {
  if (!existsSync(join(runDir, 'groups.jsonl'))) return [];
  return readFileSync(join(runDir, 'groups.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line));
}

function count(comparisons, test) {
  return comparisons.filter(test).length;
}

const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const runDir = join(ROOT, 'results', 'bench', `${PLAN}-run-${stamp}`);
console.log(`Starting the study server on port ${PORT} (not timed)...`);
const server = await startStudyServer({ port: PORT, timeoutMs: 900_000 });
let code;
const loadAtStart = os.loadavg();
const started = Date.now();
try {
  code = await new Promise((resolve, reject) => {
    const child = spawn('npx', ['playwright', 'test'], {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, PLAN, RUN_DIR: runDir, BASE_URL: `http://localhost:${PORT}` },
    });
    child.on('error', reject);
    child.on('exit', (exitCode) => resolve(exitCode));
  });
} finally {
  server.stop();
}
const wallMs = Date.now() - started;

const groups = groupsOf(runDir).map((g) => {
  const all = g.judgment.comparisons;
  return {
    group_id: g.group_id,
    rounds: g.rounds,
    stop: g.stop.reason,
    time: g.time ?? null,
    budget: g.budget ?? null,
    comparisons: all.length,
    by_bootstrap: count(all, (c) => c.decided_by === BOOTSTRAP_RULE),
    by_few_rounds: count(all, (c) => c.decided_by === FEW_ROUNDS_RULE),
    open: count(all, (c) => !c.settled),
  };
});
const sum = (key) => groups.reduce((total, g) => total + g[key], 0);
const figures = {
  plan: PLAN,
  exit_code: code,
  wall_ms: wallMs,
  run_dir: runDir,
  groups_completed: groups.length,
  // What the plan's groups were expected to cost before the first (experiments/budget/plan-cost.js).
  budget: existsSync(join(runDir, 'run.json'))
    ? (JSON.parse(readFileSync(join(runDir, 'run.json'), 'utf8')).budget ?? null)
    : null,
  comparisons: sum('comparisons'),
  by_bootstrap: sum('by_bootstrap'),
  by_few_rounds: sum('by_few_rounds'),
  open_comparisons: sum('open'),
  groups_with_open: groups.filter((g) => g.open > 0).length,
  // The lines: the share of comparisons open, and groups that settled none of theirs.
  open_share: sum('comparisons') ? sum('open') / sum('comparisons') : null,
  groups_all_open: groups.filter((g) => g.comparisons > 0 && g.open === g.comparisons).map((g) => g.group_id),
  groups,
};
const path = writeBenchmark(
  PLAN,
  { port: PORT, load_average_at_start: loadAtStart, load_average_at_end: os.loadavg() },
  figures,
);
console.log(
  `${PLAN}: ${(wallMs / 60000).toFixed(1)} min wall, ${groups.length} groups, ` +
    `${figures.open_comparisons} of ${figures.comparisons} comparisons open, ` +
    `${figures.groups_all_open.length} groups with all open ` +
    `(${figures.by_few_rounds} decided by the few-rounds test). Written: ${path}`,
);
process.exitCode = code;

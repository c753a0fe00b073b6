// What the tests that run a plan under kernel shaping (as root) share: whether they can run here,
// and one run — the plan written to a file, the study or the load testbed started from the
// repository root in network namespaces of the test's own, its server with a small dataset, and
// its exit checked. Each test picks its port and namespace names (test-resources.js).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { wrkVersion } from '../load-testbed/wrk.js';
import { vegetaVersion } from '../load-testbed/vegeta.js';
import { TEST_RUN } from './test-resources.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The server every run starts: 2,000 objects per kind, in the study's data directory. */
const SERVER_OPTS = '-Ddw.dataset.size=2000 -Ddw.dataset.directory=server/target/study-data';

/** Why a test that makes namespaces cannot run here (not root, or a load generator it needs missing), or false. */
export function netnsSkip({ wrk = false, vegeta = false } = {}) {
  if (process.getuid?.() !== 0) return 'needs root (network namespaces)';
  if (wrk && !wrkVersion()) return 'needs wrk (bash scripts/setup.sh as root installs it)';
  if (vegeta && !vegetaVersion()) return 'needs Vegeta (bash scripts/setup.sh builds it with Go)';
  return false;
}

/**
 * Runs `command` on `plan` from the repository root: the plan written to `<parent>/plan-<name>.json`,
 * the run to `<parent>/run-<name>`, the namespaces named from `namespace`, and `env` on top (the
 * command's port and settings). Asserts that it finished; returns the run directory and what it
 * printed.
 */
function runPlan(command, plan, { parent, name, namespace, timeoutMs, env }) {
  const planFile = join(parent, `plan-${name}.json`);
  writeFileSync(planFile, JSON.stringify(plan));
  const runDir = join(parent, `run-${name}`);
  const result = spawnSync(command[0], command.slice(1), {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: timeoutMs,
    env: { ...process.env, PLAN: planFile, RUN_DIR: runDir, RTL_NETNS: namespace, SERVER_OPTS, ...env },
  });
  assert.equal(result.status, 0, `${result.stdout}${result.stderr}`);
  return { runDir, stdout: result.stdout };
}

/** The load testbed (experiments/load-testbed/run.js) on `plan`, its server on `port` (runPlan has the rest). */
export function runLoadTestbed(plan, { port, ...options }) {
  return runPlan(['node', 'experiments/load-testbed/run.js'], plan, {
    ...options,
    env: { LOAD_PORT: String(port) },
  });
}

/**
 * The study (npx playwright test) on `plan` in `browser`, shaped by SHAPING=netns, its server on
 * `port`, with `env` on top.
 */
export function runStudy(plan, { browser, port, env = {}, ...options }) {
  return runPlan(['npx', 'playwright', 'test'], plan, {
    ...options,
    env: { ...TEST_RUN, SHAPING: 'netns', BROWSER: browser, BASE_URL: `http://localhost:${port}`, ...env },
  });
}

// What the test files that run studies against one server of their own share (netns-runs.js is
// its kernel-shaped sibling): the server, started before the file's first test and stopped after
// its last, with 2,000 objects per kind and a checked server's JVM options (what these tests check
// does not depend on the server's speed); its /api/info; and a study of a plan run against it from
// the repository root, read back as a separate program would.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { get } from 'node:http';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import { readRun } from '#common/run-directory.js';
import { temporaryDirectory } from '#common/temporary-directory.js';
import { startStudyServer } from '../server-process.js';
import { TEST_RUN } from './test-resources.js';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The study server of the calling test file on `port` (registered with its before and after
 * hooks): {baseUrl, serverInfo, runPlan}.
 */
export function serverForTests(port) {
  const baseUrl = `http://127.0.0.1:${port}`;
  let server;
  before(async () => {
    server = await startStudyServer({
      port,
      options: ['-Ddw.dataset.size=2000', '-Ddw.dataset.directory=server/target/study-data'],
      jvmOptions: TEST_RUN.MAVEN_OPTS.split(' '),
    });
  });
  after(() => server?.stop());

  /**
   * The server's /api/info over a connection of its own: fetch would reuse the connection it polled
   * the server with, which the server has closed when idle by the time a later test asks.
   */
  const serverInfo = () =>
    new Promise((resolve, reject) => {
      get(new URL('/api/info', baseUrl), { agent: false }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => (body += chunk));
        response.on('end', () => resolve(JSON.parse(body)));
      }).on('error', reject);
    });

  /**
   * Runs a study of `plan` (an object, written to a file) against the server, `env` on top and
   * `args` after `npx playwright test`: its records and its directory.
   */
  function runPlan(prefix, plan, env, args = []) {
    const directory = temporaryDirectory(prefix);
    const planFile = join(directory, 'plan.json');
    writeFileSync(planFile, JSON.stringify(plan));
    const runDir = join(directory, 'run');
    const result = spawnSync('npx', ['playwright', 'test', ...args], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 300_000,
      env: { ...process.env, ...TEST_RUN, PLAN: planFile, RUN_DIR: runDir, BASE_URL: baseUrl, ...env },
    });
    assert.equal(result.status, 0, `${result.stdout}${result.stderr}`);
    return { runDir, ...readRun(runDir) };
  }

  return { baseUrl, serverInfo, runPlan };
}

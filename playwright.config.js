// `npx playwright test`: runs the study plan named by PLAN (default quick) in Debian's Chromium (or Firefox),
// one test per comparison group, writing every sample to results/<UTC timestamp>-<plan>/ (or
// RUN_DIR). Every setting: docs/running-studies.md.
//
//   PLAN=<name>|<file.json>               which plan (experiments/plans/: quick, thesis, …)
//   NETWORK=<profile>                      run every cell on this network instead of the plan's
//   BROWSER=chromium|firefox               the engine (default chromium); Firefox shapes with netns only
//   SHAPING=cdp|netns                      how networks are shaped (default cdp)
//   BASE_URL=http://host:port              the study server (default http://localhost:8080); on
//                                          this machine it is started when none answers, elsewhere
//                                          never; one already answering is used only if it is this
//                                          checkout's at this commit, or BASE_URL names it
//   RUN_DIR=<dir>                          where results go; an existing run there is resumed
//   SERVER_WARMUP=<requests>               the server warm-up before the first cell (default 20000)
//   PAGE_SETTLE_MS=<ms>                    each cell's page rests this long before its first request (1000)
//   BROWSER_WARMUP=<pages>                 throwaway pages that warm the browser up before its first group (3)
//   npx playwright test --shard=1/2        this machine's share of the cells
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import { launchOptions } from './experiments/network/netns-launch.js';
import { engineOf } from './common/browsers/engines.js';
import { guardRun } from './experiments/run-guard/guard.js';
import { studySettings } from './experiments/study-settings.js';
import { runIsComplete, serverDecision, webServer } from './experiments/study-server.js';

const BASE_URL = process.env.BASE_URL ?? 'http://localhost:8080';
const ROOT = dirname(fileURLToPath(import.meta.url));

/**
 * In the runner (Playwright loads this file in each worker too): the run is guarded, so that what
 * it starts and makes goes when it ends, however it ends (experiments/run-guard/); and its server
 * decided, before Playwright's webServer would start one ahead of the global setup
 * (experiments/study-server.js). Settings it cannot read are left to the global setup to refuse.
 */
async function runnerSetup() {
  // When this session started: a plan's total time counts from here (experiments/budget/pool.js).
  process.env.RTL_SESSION_STARTED = String(Date.now());
  // Which groups -g and --grep-invert leave to this session (study-settings.js sessionGrep).
  process.env.RTL_SESSION_ARGV = JSON.stringify(process.argv.slice(2));
  await guardRun('npx playwright test');
  let settings;
  try {
    settings = studySettings();
  } catch {
    return undefined;
  }
  const complete = runIsComplete(process.env.RUN_DIR && resolve(process.env.RUN_DIR), settings);
  // The global setup and teardown read it: a complete run's report is remade, nothing else.
  process.env.RTL_RUN_COMPLETE = complete ? '1' : '';
  const decision = await serverDecision({
    baseUrl: BASE_URL,
    named: process.env.BASE_URL !== undefined,
    shaping: settings.shaping,
    complete,
    root: ROOT,
    runPid: process.pid,
  });
  return decision.start ? webServer(BASE_URL, process.pid) : undefined;
}

const server = process.env.TEST_WORKER_INDEX === undefined ? await runnerSetup() : undefined;

export default defineConfig({
  testDir: './experiments',
  testMatch: 'study.spec.js',
  globalSetup: './experiments/global-setup.js',
  globalTeardown: './experiments/global-teardown.js',
  timeout: 0, // a thesis cell can take many minutes at 10 Mbit/s
  workers: 1, // cells run one at a time, so that they never compete for the machine
  // Lets --shard split the cells themselves (one file holds them all); one worker keeps them sequential.
  fullyParallel: true,
  reporter: [['./experiments/progress-reporter.js']],
  outputDir: './test-results/study',
  use: { baseURL: BASE_URL, browserName: engineOf().name, launchOptions },
  webServer: server,
});

// `npx playwright test`: runs the study plan named by PLAN (default quick) in Debian's Chromium (or Firefox),
// one test per comparison group, writing every sample to results/<UTC timestamp>-<plan>/ (or
// RUN_DIR). Every setting: docs/running-studies.md.
//
//   PLAN=<name>|<file.json>               which plan (experiments/plans/: quick, thesis, …)
//   NETWORK=<profile>                      run every cell on this network instead of the plan's
//   BROWSER=chromium|firefox               the engine (default chromium); Firefox shapes with netns only
//   SHAPING=cdp|netns                      how networks are shaped (default cdp)
//   BASE_URL=http://host:port              the study server (default http://localhost:8080); on
//                                          this machine it is started when none answers, elsewhere never
//   RUN_DIR=<dir>                          where results go; an existing run there is resumed
//   SERVER_WARMUP=<requests>               the server warm-up before the first cell (default 20000)
//   PAGE_SETTLE_MS=<ms>                    each cell's page rests this long before its first request (1000)
//   npx playwright test --shard=1/2        this machine's share of the cells
import { defineConfig } from '@playwright/test';
import { launchOptions } from './experiments/network/netns-launch.js';
import { engineOf } from './common/browsers/engines.js';
import { STUDY_SERVER_OPTS } from './experiments/server-process.js';

const BASE_URL = process.env.BASE_URL ?? 'http://localhost:8080';
const base = new URL(BASE_URL);
const local = ['localhost', '127.0.0.1', '[::1]'].includes(base.hostname);
// With SHAPING=netns the global setup starts the server inside the namespace instead.
const startServer = local && process.env.SHAPING !== 'netns';
const port = base.port || '80';

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
  webServer: startServer
    ? {
        // Without the request log: logging every request to the console costs ~1 ms each on this
        // 2-core machine, inside the time the study measures.
        command:
          `mvn -B -q -ntp exec:java -Ddw.server.applicationConnectors[0].port=${port} ` +
          `${STUDY_SERVER_OPTS} ${process.env.SERVER_OPTS ?? ''}`,
        url: new URL('/api/books?count=1', BASE_URL).href,
        reuseExistingServer: true,
        timeout: 600_000, // the first start compiles and generates the datasets
        stdout: 'ignore',
        stderr: 'pipe',
        // SIGTERM, not Playwright's default SIGKILL: the JVM's shutdown hooks run, so Jetty stops and
        // the native libraries it unpacked into the temporary directory (brotli4j's) are removed.
        gracefulShutdown: { signal: 'SIGTERM', timeout: 20_000 },
      }
    : undefined,
});

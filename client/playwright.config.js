// End-to-end tests of the browser client in Debian's Chromium and Firefox (one Playwright project
// each; --project=firefox runs one) against the real study server, which webServer starts on its
// own ports with a small dataset. Run: npx playwright test -c client
import { defineConfig } from '@playwright/test';
import { ENGINES } from '#common/browsers/engines.js';
import { CHECKED_SERVER_JVM_OPTIONS, serverCommandLine } from '#common/server-launch.js';

const PORT = Number(process.env.E2E_PORT ?? process.env.TEST_PORT_BASE ?? 18080);
const ADMIN_PORT = PORT + 1;

export default defineConfig({
  testDir: './tests/e2e',
  outputDir: '../test-results/client-e2e',
  timeout: 120_000,
  // One at a time: the engines' tests share one server, and bring datasets of the same names to it.
  workers: 1,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    acceptDownloads: true,
  },
  projects: Object.values(ENGINES).map((engine) => ({
    name: engine.name,
    use: { browserName: engine.name, launchOptions: engine.launchOptions },
  })),
  webServer: {
    // As `mvn exec:java` would (common/server-launch.js), with a checked server's JVM options
    // (these tests time nothing they assert), in the runner only: the workers load this file
    // too, and start no server.
    command:
      process.env.TEST_WORKER_INDEX === undefined
        ? serverCommandLine({
            properties: [
              '-Ddw.dataset.size=2000',
              '-Ddw.dataset.directory=server/target/e2e-data',
              `-Ddw.server.applicationConnectors[0].port=${PORT}`,
              `-Ddw.server.adminConnectors[0].port=${ADMIN_PORT}`,
              // The TLS connectors on ports the system picks: 8443, 8444 and 8445 are a person's server's.
              '-Ddw.tls.http11Port=0',
              '-Ddw.tls.h2Port=0',
              '-Ddw.tls.h3Port=0',
            ],
            jvmOptions: CHECKED_SERVER_JVM_OPTIONS,
          })
        : '',
    cwd: '..',
    url: `http://127.0.0.1:${PORT}/api/videos?count=1`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'ignore',
    stderr: 'pipe',
    // SIGTERM, not Playwright's default SIGKILL: the JVM's shutdown hooks run, so Jetty stops and
    // the native libraries it unpacked into the temporary directory (brotli4j's) are removed.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 20_000 },
  },
});

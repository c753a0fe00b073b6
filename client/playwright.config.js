// End-to-end tests of the browser client in Debian's Chromium and Firefox (one Playwright project
// each, side by side; --project=firefox runs one) against the real study server, which webServer
// starts for each engine on ports of its own with a small dataset. Run: npx playwright test -c client
import { defineConfig } from '@playwright/test';
import { ENGINES } from '#common/browsers/engines.js';
import { CHECKED_SERVER_JVM_OPTIONS, serverCommandLine } from '#common/server-launch.js';

const PORT = Number(process.env.E2E_PORT ?? process.env.TEST_PORT_BASE ?? 18080);
const engines = Object.values(ENGINES);
/** Each engine's server: its own HTTP port from PORT on, two apart (the next one is its admin port). */
const portOf = (index) => PORT + 2 * index;

/**
 * The server `mvn exec:java` would start (common/server-launch.js) for `engine`'s tests on `port`, with a checked
 * server's JVM options (these tests time nothing they assert); in the runner only: the workers
 * load this file too, and start no server.
 */
function server(engine, port) {
  return {
    command:
      process.env.TEST_WORKER_INDEX === undefined
        ? serverCommandLine({
            properties: [
              '-Ddw.dataset.size=2000',
              `-Ddw.dataset.directory=server/target/e2e-data-${engine.name}`,
              `-Ddw.server.applicationConnectors[0].port=${port}`,
              `-Ddw.server.adminConnectors[0].port=${port + 1}`,
              // The TLS connectors on ports the system picks: 8443, 8444 and 8445 are a person's server's.
              '-Ddw.tls.http11Port=0',
              '-Ddw.tls.h2Port=0',
              '-Ddw.tls.h3Port=0',
            ],
            jvmOptions: CHECKED_SERVER_JVM_OPTIONS,
          })
        : '',
    cwd: '..',
    url: `http://127.0.0.1:${port}/api/videos?count=1`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'ignore',
    stderr: 'pipe',
    // SIGTERM, not Playwright's default SIGKILL: the JVM's shutdown hooks run, so Jetty stops and
    // the native libraries it unpacked into the temporary directory (brotli4j's) are removed.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 20_000 },
  };
}

export default defineConfig({
  testDir: './tests/e2e',
  outputDir: '../test-results/client-e2e',
  timeout: 120_000,
  // The engines side by side, each against a server of its own: what one engine's tests bring
  // to a server (datasets of fixed names) or take from it (its computation slots) never meets
  // the other's.
  workers: engines.length,
  reporter: [['list']],
  use: { acceptDownloads: true },
  // Playwright hands the workers test files in the projects' order, and Firefox's page tests
  // take longest: its project first, so that the other worker runs the rest meanwhile.
  projects: engines
    .map((engine, index) => ({
      name: engine.name,
      use: {
        browserName: engine.name,
        launchOptions: engine.launchOptions,
        baseURL: `http://127.0.0.1:${portOf(index)}`,
      },
    }))
    .sort((a, b) => (b.name === 'firefox') - (a.name === 'firefox')),
  webServer: engines.map((engine, index) => server(engine, portOf(index))),
});

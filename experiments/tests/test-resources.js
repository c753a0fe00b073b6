// Ports and namespace names for the tests that start a server or make network namespaces: each
// test's fixed default, or — where several checkouts run their tests on one machine at once —
// RTL_TEST_PORT_BASE plus the test's offset, and RTL_TEST_NETNS_PREFIX plus its suffix.
// (The browser suite's port is E2E_PORT, client/playwright.config.js.) And what the tests' study
// runs share: their settings (TEST_RUN) and the plan group that checks HTTP/3 is shaped too.

import { join } from 'node:path';
import { CHECKED_SERVER_JVM_OPTIONS } from '#common/server-launch.js';
import { temporaryDirectory } from '#common/temporary-directory.js';

/** The test's port: RTL_TEST_PORT_BASE + offset when set, else its default. Its admin port is the next one. */
export function testPort(defaultPort, offset) {
  const base = process.env.RTL_TEST_PORT_BASE;
  if (base === undefined) return defaultPort;
  const port = Number(base) + offset;
  if (!Number.isInteger(port) || port < 1024 || port > 65534)
    throw new Error(`RTL_TEST_PORT_BASE=${base}: a port from 1024 on, please`);
  return port;
}

/** The test's namespace name: RTL_TEST_NETNS_PREFIX + suffix when set, else its default. */
export function testNamespace(defaultName, suffix) {
  const prefix = process.env.RTL_TEST_NETNS_PREFIX;
  return prefix === undefined ? defaultName : `${prefix}${suffix}`;
}

/**
 * What the tests' study runs are given, where what they check does not depend on it: a small
 * server warm-up, no throwaway browser pages, a short rest for each new page, the JVM options
 * of a checked server (CHECKED_SERVER_JVM_OPTIONS: its heap not touched ahead, which would
 * otherwise touch 2 GB for each run, and the C1 compiler only), and a machine memory of their own
 * (experiments/machine-memory.js), so that what such runs measure never becomes a real run's
 * starting point. A study's defaults are for measuring; these are for checking that it runs.
 */
export const TEST_RUN = Object.freeze({
  RTL_CACHE_DIR: join(temporaryDirectory('rtl-test-memory-'), 'cache'),
  SERVER_WARMUP: '100',
  BROWSER_WARMUP: '0',
  PAGE_SETTLE_MS: '100',
  MAVEN_OPTS: CHECKED_SERVER_JVM_OPTIONS.join(' '),
});

/**
 * The plan group the tests over HTTP/3 add (study.protocols, study.netns): 1,000 Books at 10 Mbit/s
 * over h3, where each shaping mechanism must throttle QUIC as it does TCP.
 */
export const H3_AT_10MBIT = Object.freeze({
  name: 'HTTP/3 at 10 Mbit/s',
  scenarios: [1],
  cms: [0],
  objects: ['books'],
  formats: ['json', 'protobuf'],
  compressions: ['none'],
  counts: [1000],
  networks: ['10mbit'],
  protocols: ['h3'],
});

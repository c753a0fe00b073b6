// Starts a study server for a script or test on this machine (as `mvn exec:java` would, at the
// repository root: common/server-launch.js; on its own ports, with extra -Ddw options), waits until both
// datasets answer, and stops it again. The server stops by itself when the process that started
// it ends, however it ends (exitWith), and the one that answers must be the one started here. The
// study itself starts its server through Playwright's webServer instead (study-server.js).

import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverLaunch } from '#common/server-launch.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** What every study server runs with: no request log (~1 ms per request on 2 cores, inside the measured time). */
export const STUDY_SERVER_OPTS = '-Ddw.server.requestLog.appenders[0].threshold=OFF';

/**
 * The TLS connectors (docs/protocols.md) on ports the system picks, for the servers of tests and
 * benchmarks: the defaults (8443, 8444, and UDP 8445 for h3) are a person's server's, and two
 * servers on one machine would both want them. A study reads the real ports from /api/info.
 */
export const TLS_ANY_PORTS = '-Ddw.tls.http11Port=0 -Ddw.tls.h2Port=0 -Ddw.tls.h3Port=0';

async function answers(url) {
  try {
    return (await fetch(url)).status === 200;
  } catch {
    return false;
  }
}

/** The process id of the server answering at `url` (its /api/info), or null. */
async function serverPid(url) {
  try {
    return (await (await fetch(`${url}/api/info`)).json()).process?.pid ?? null;
  } catch {
    return null;
  }
}

/**
 * @param exitWith the process whose end stops the server: this one, unless a caller wants a server
 *     that outlives it (null)
 * @param jvmOptions for its JVM, after the project's own (.mvn/jvm.config): a checked server's
 *     (common/server-launch.js CHECKED_SERVER_JVM_OPTIONS) where nothing it answers is timed
 * @returns {{url: string, pid: number, stop: () => void}} once books and videos both answer
 */
export async function startStudyServer({
  port,
  options = [],
  jvmOptions = [],
  timeoutMs = 180_000,
  exitWith = process.pid,
}) {
  const url = `http://127.0.0.1:${port}`;
  const launch = serverLaunch({
    properties: [
      STUDY_SERVER_OPTS,
      ...TLS_ANY_PORTS.split(' '),
      ...options,
      `-Ddw.server.applicationConnectors[0].port=${port}`,
      `-Ddw.server.adminConnectors[0].port=${port + 1}`,
      ...(exitWith === null ? [] : [`-Ddw.exitWith=${exitWith}`]),
    ],
    jvmOptions,
  });
  const server = spawn(launch.command, launch.args, { cwd: ROOT, stdio: 'ignore', detached: true, env: launch.env });
  const stop = () => {
    try {
      process.kill(-server.pid);
    } catch {
      // already gone
    }
  };
  const deadline = Date.now() + timeoutMs;
  while (!((await answers(`${url}/api/books?count=1`)) && (await answers(`${url}/api/videos?count=1`)))) {
    if (Date.now() > deadline || server.exitCode !== null) {
      stop();
      throw new Error(`the study server did not start on port ${port}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  // java, or mvn, which execs the JVM: the server's process is the one spawned here, or another answers.
  const pid = await serverPid(url);
  if (pid !== server.pid) {
    stop();
    throw new Error(
      `another server (pid ${pid}) answers on port ${port}, not the one started here: stop it or choose another port`,
    );
  }
  return { url, pid, stop };
}

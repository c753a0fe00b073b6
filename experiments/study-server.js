// Which server a study uses, decided in playwright.config.js before Playwright starts one (its
// webServer starts before the global setup):
//  - none for a run that is already complete: its report is remade from its files;
//  - none started by the config under SHAPING=netns (the global setup starts it in its namespace),
//    nor for a BASE_URL on another machine;
//  - on this machine, a server of this run's own, started with the run's process id (exitWith) so
//    that it stops when the run does, however the run ends;
//  - a server already answering on the study's port only when it is this checkout's at this
//    commit and no other live run's, or when the user named it with BASE_URL; any other is refused,
//    saying whose it is, rather than measured in silence.

import { comparisonGroups } from './plan.js';
import { RunDirectory } from '#common/run-directory.js';
import { STUDY_SERVER_OPTS } from './server-process.js';
import { serverCommandLine } from '#common/server-launch.js';
import { gitState } from './git-state.js';
import { isRunning, startTimeOf } from './run-guard/processes.js';

/** How long a server answering for a run that has ended gets to stop by itself (its exitWith). */
const ENDING_SERVER_MS = 30_000;
/** How long the probe of the study's port waits for an answer. */
const PROBE_MS = 3_000;

/**
 * Whether the run in `runPath` is complete: it exists and every comparison group of its plan is
 * done. Nothing is left to measure, so no server is needed.
 */
export function runIsComplete(runPath, settings) {
  if (!runPath) return false;
  const run = new RunDirectory(runPath);
  if (!run.exists()) return false;
  const done = run.completedGroupIds();
  return comparisonGroups(settings.plan, { network: settings.network }).every((group) => done.has(group.id));
}

/** The server's /api/info at `baseUrl`, or null when nothing answers. */
async function infoAt(baseUrl) {
  try {
    const response = await fetch(new URL('/api/info', baseUrl), { signal: AbortSignal.timeout(PROBE_MS) });
    return response.ok ? await response.json() : { process: null, status: response.status };
  } catch {
    return null;
  }
}

/** Whether `pid` is a process running now (a process id only: a server's exit_with). */
function alive(pid) {
  return pid !== null && pid !== undefined && isRunning(pid, startTimeOf(pid));
}

/** Who a server is, in words, from its /api/info `process`. */
function whose(server) {
  if (!server) return 'a server that does not say whose it is (older than this checkout, or not the lab)';
  const commit = server.commit ? `commit ${server.commit.slice(0, 12)}` : 'no commit';
  return `pid ${server.pid}, started ${server.started_at} from ${server.working_directory} at ${commit}`;
}

/**
 * What the run does about its server. Resolves to {start: true} (start one of its own),
 * {start: false, note} (use the one answering, or none is needed), or throws, saying why, when a
 * server answers that the run must not use.
 *
 * @param baseUrl the study's BASE_URL; `named` whether the user set it
 * @param root this checkout; `runPid` the run's process (a server of its own stops with it)
 */
export async function serverDecision({ baseUrl, named, shaping, complete, root, runPid }) {
  if (complete) return { start: false, note: 'the run is complete: its report is remade, no server is needed' };
  const base = new URL(baseUrl);
  const local = ['localhost', '127.0.0.1', '[::1]'].includes(base.hostname);
  if (!local) return { start: false, note: `the server at ${baseUrl} is used as it is` };
  if (shaping === 'netns') return { start: false, note: 'the global setup starts the server in its namespace' };
  let info = await infoAt(baseUrl);
  if (info === null) return { start: true };
  const ending = info.process?.exit_with ?? null;
  if (ending !== null && ending !== runPid && !alive(ending)) {
    // A server of a run that has ended stops by itself: wait for it, then start this run's own.
    const deadline = Date.now() + ENDING_SERVER_MS;
    while (info !== null && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      info = await infoAt(baseUrl);
    }
    if (info === null) return { start: true };
  }
  if (named) return { start: false, note: `using the server at ${baseUrl} (BASE_URL)` };
  const server = info.process ?? null;
  const owner = server?.exit_with ?? null;
  const ours =
    server !== null &&
    server.working_directory === root &&
    server.commit !== null &&
    server.commit === gitState().commit &&
    (owner === null || owner === runPid);
  if (ours) return { start: false, note: `using the server already running at ${baseUrl} (${whose(server)})` };
  const why =
    owner !== null && alive(owner)
      ? `it belongs to another run, still going (process ${owner})`
      : `this checkout is ${root} at commit ${(gitState().commit ?? 'none').slice(0, 12)}`;
  throw new Error(
    `A server this run did not start answers at ${baseUrl} (${whose(server)}), and ${why}. ` +
      `Stop it${server ? ` (kill ${server.pid})` : ''}; or set BASE_URL=${base.origin} to measure it anyway, ` +
      `or BASE_URL=http://localhost:<another port> for a server of this run's own.`,
  );
}

/** Playwright's webServer for a server of the run's own, on `baseUrl`'s port (its admin port the next). */
export function webServer(baseUrl, runPid) {
  const port = Number(new URL(baseUrl).port || '80');
  return {
    // Without the request log: logging every request to the console costs ~1 ms each on this
    // 2-core machine, inside the time the study measures. exitWith: the server stops when the run's
    // process ends, kill -9 included (Playwright's own stop needs the run alive).
    command: serverCommandLine({
      properties: [
        `-Ddw.server.applicationConnectors[0].port=${port}`,
        `-Ddw.server.adminConnectors[0].port=${port + 1}`,
        `-Ddw.exitWith=${runPid}`,
        STUDY_SERVER_OPTS,
        ...(process.env.SERVER_OPTS ?? '').split(/\s+/).filter(Boolean),
      ],
    }),
    url: new URL('/api/books?count=1', baseUrl).href,
    // The decision above made sure nothing answers there: a server that appears meanwhile is refused.
    reuseExistingServer: false,
    timeout: 600_000, // the first start compiles and generates the datasets
    stdout: 'ignore',
    stderr: 'pipe',
    // SIGTERM, not Playwright's default SIGKILL: the JVM's shutdown hooks run, so Jetty stops and
    // the native libraries it unpacked into the temporary directory (brotli4j's) are removed.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 20_000 },
  };
}

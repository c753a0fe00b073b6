// Makes the calling process a guarded run (the study's Playwright runner, the load testbed): what
// it starts and makes is stopped and removed when it ends, however it ends, kill -9 of its whole
// process group included.
//
//  - Every process it starts carries its mark (RTL_RUN_ID in the environment), inherited onwards:
//    servers, browsers, workers, the delay line, load generators.
//  - What it makes outside processes (network namespaces, devices, files) is noted in its record
//    (record.js) before it is made.
//  - Its temporary files (TMPDIR: the browsers' profiles, Playwright's artifacts) go to a folder of
//    its own beside its record, removed when it ends: a browser killed with the run cannot remove
//    its profile itself.
//  - A watchdog in a session of its own (watchdog.js) waits for the run's process to end and
//    removes what is left; the server the run starts also stops by itself (its exitWith).
//  - Before all that, what earlier runs left when they died with their watchdog is removed, one
//    line each (clean-up.js).

import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanUpAfterDeadRuns } from './clean-up.js';
import { startTimeOf } from './processes.js';
import { RECORD_VARIABLE, RUN_MARK, readRecord, recordPath, writeRecord } from './record.js';

const WATCHDOG = join(dirname(fileURLToPath(import.meta.url)), 'watchdog.js');

/**
 * Guards this process as a run, described by `command` ("npx playwright test"). Once per process:
 * a second call returns the first's record. Resolves to {id, path}.
 */
export async function guardRun(command) {
  if (process.env[RECORD_VARIABLE] && process.env[RUN_MARK]?.startsWith(`${process.pid}-`)) {
    return { id: process.env[RUN_MARK], path: process.env[RECORD_VARIABLE] };
  }
  await cleanUpAfterDeadRuns();
  const id = `${process.pid}-${randomBytes(6).toString('hex')}`;
  const path = recordPath(id);
  const record = {
    id,
    pid: process.pid,
    pid_start: startTimeOf(process.pid),
    command,
    directory: process.cwd(),
    started_at: new Date().toISOString(),
    watchdog: null,
    made: { namespaces: [], links: [], files: [] },
    temporary: path.replace(/\.json$/, '-tmp'),
  };
  writeRecord(path, record);
  process.env[RUN_MARK] = id;
  process.env[RECORD_VARIABLE] = path;
  // Its own session (detached), standard input a pipe from this process and nothing else (the
  // run's later children do not inherit its end), standard error the run's. Without the run's
  // mark: it must outlive the processes it stops.
  const environment = { ...process.env };
  delete environment[RUN_MARK];
  delete environment[RECORD_VARIABLE];
  const watchdog = spawn(process.execPath, [WATCHDOG, path], {
    detached: true,
    stdio: ['pipe', 'ignore', 'inherit'],
    env: environment,
  });
  watchdog.unref();
  watchdog.stdin.unref?.();
  watchdog.stdin.on('error', () => {});
  writeRecord(path, { ...readRecord(path), watchdog: { pid: watchdog.pid, pid_start: startTimeOf(watchdog.pid) } });
  // From here on (the watchdog keeps the system's): what the run and its children start uses it.
  mkdirSync(record.temporary, { recursive: true });
  process.env.TMPDIR = record.temporary;
  return { id, path };
}

// The record of what a run made that outlives it unless removed: one JSON file per run, in a
// fixed folder of the system's temporary directory (one per user), written before each thing is
// made. The run's watchdog reads it when the run's process has gone; the next run reads the
// records of runs that died with their watchdog and removes what they left (clean-up.js).
//
//   { id, pid, pid_start, command, directory, started_at,
//     watchdog: {pid, pid_start},
//     made: { namespaces: [{name, id}], links: [...], files: [...] } }
//
// A namespace is noted by name before it is made, then with its identity (the inode of its
// /run/netns file, the kernel's namespace object): clean-up.js removes a namespace of that name
// only if it is still the one this run made, never one another study made later under the name.
//
// Every process a run starts carries its mark in its environment (RTL_RUN_ID=<id>), inherited by
// their children in turn: that is how its processes are found again, whoever started them.

import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where the records are: one folder per user (RTL_RUN_RECORDS, to keep a test's apart). */
export const RECORDS = process.env.RTL_RUN_RECORDS ?? join(tmpdir(), `rtl-runs-${process.getuid?.() ?? 'user'}`);
/** The environment variable that marks every process of a run. */
export const RUN_MARK = 'RTL_RUN_ID';
/** The environment variable that names this run's record file (for the modules that make things). */
export const RECORD_VARIABLE = 'RTL_RUN_RECORD';

export const recordPath = (id) => join(RECORDS, `${id}.json`);

export function readRecord(path) {
  return JSON.parse(readFileSync(path, 'utf8'));
}

export function writeRecord(path, record) {
  mkdirSync(RECORDS, { recursive: true });
  writeFileSync(`${path}.tmp`, `${JSON.stringify(record, null, 2)}\n`);
  renameSync(`${path}.tmp`, path);
}

export function removeRecord(path) {
  rmSync(path, { force: true });
}

/** Every record there is: [{path, record}] (one that cannot be read is skipped). */
export function readRecords() {
  let names;
  try {
    names = readdirSync(RECORDS);
  } catch {
    return [];
  }
  return names
    .filter((name) => name.endsWith('.json'))
    .flatMap((name) => {
      const path = join(RECORDS, name);
      try {
        return [{ path, record: readRecord(path) }];
      } catch {
        return [];
      }
    });
}

/** Changes this run's record, if this process is a guarded run's (a test calling a module directly is not). */
function updateRecord(change) {
  const path = process.env[RECORD_VARIABLE];
  if (!path || !process.env[RUN_MARK]?.startsWith(`${process.pid}-`)) return;
  const record = readRecord(path);
  change(record.made);
  writeRecord(path, record);
}

/**
 * Notes, in this run's record, that it is about to make `names` of `kind`: 'links' (network
 * devices in this machine's own namespace) or 'files'.
 */
export function noteMade(kind, ...names) {
  if (!['links', 'files'].includes(kind)) throw new Error(`noteMade takes links or files, not ${kind}`);
  updateRecord((made) => {
    made[kind] = [...new Set([...(made[kind] ?? []), ...names])];
  });
}

/**
 * Notes the network namespace `name`: before it is made (`id` null), then once made, with its
 * identity (namespaceId).
 */
export function noteNamespace(name, id = null) {
  updateRecord((made) => {
    made.namespaces = [...(made.namespaces ?? []).filter((n) => n.name !== name), { name, id }];
  });
}

/** Forgets the namespace `name` (removed, or never made). */
export function forgetNamespace(name) {
  updateRecord((made) => {
    made.namespaces = (made.namespaces ?? []).filter((n) => n.name !== name);
  });
}

/** A network namespace's identity: the inode of /run/netns/<name>, or null when there is none. */
export function namespaceId(name) {
  try {
    return String(statSync(`/run/netns/${name}`).ino);
  } catch {
    return null;
  }
}

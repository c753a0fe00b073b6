// Removing what a run made and left behind (record.js): its processes, found by the mark in their
// environment; the processes inside its network namespaces (ip netns pids: a namespace whose name
// is deleted lives on while a process is in it), then the namespaces, with whatever they hold
// (veth pairs, TUN devices moved into them, nft tables, tc qdiscs); network devices it made in this
// machine's own namespace; its files. Each thing is removed only if it is still there, and the
// words returned name only what was.

import { execFileSync } from 'node:child_process';
import { existsSync, rmSync, statSync } from 'node:fs';
import { isRunning, processesMarked, processesNaming, stopProcesses } from './processes.js';
import { RUN_MARK, namespaceId, readRecords, removeRecord } from './record.js';

function ip(...args) {
  return execFileSync('ip', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * Whether the namespace a record lists is there and is the one the run made: the same identity,
 * or — noted but killed before its identity was — made after the run started.
 */
function stillTheRuns({ name, id }, record) {
  const now = namespaceId(name);
  if (now === null) return false;
  if (id !== null) return now === id;
  try {
    return statSync(`/run/netns/${name}`).mtimeMs >= Date.parse(record.started_at);
  } catch {
    return false;
  }
}

function linkExists(name) {
  try {
    ip('link', 'show', 'dev', name);
    return true;
  } catch {
    return false;
  }
}

/** "java, chromium ×9" for ['java', 'chromium', …]. */
function countedNames(names) {
  const counts = new Map();
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  return [...counts].map(([name, n]) => (n > 1 ? `${name} ×${n}` : name)).join(', ');
}

/**
 * Removes what the run of `record` left. Resolves to the phrases that name what was removed
 * (empty when nothing was left): ['stopped java, chromium ×9', 'removed namespaces a, b', …].
 */
export async function removeLeftovers(record, { graceMs } = {}) {
  const said = [];
  const made = record.made ?? {};
  const stopped = await stopProcesses(
    [
      ...new Set([
        ...processesMarked(RUN_MARK, record.id),
        ...(record.temporary ? processesNaming(record.temporary) : []),
      ]),
    ],
    graceMs,
  );
  const namespaces = (made.namespaces ?? []).filter((n) => stillTheRuns(n, record)).map((n) => n.name);
  for (const namespace of namespaces) {
    let inside = [];
    try {
      inside = ip('netns', 'pids', namespace).split('\n').filter(Boolean).map(Number);
    } catch {
      // none
    }
    stopped.push(...(await stopProcesses(inside, graceMs)));
    try {
      ip('netns', 'del', namespace);
    } catch {
      // gone meanwhile
    }
  }
  if (stopped.length) said.push(`stopped ${countedNames(stopped)}`);
  if (namespaces.length) said.push(`removed namespaces ${namespaces.join(', ')}`);
  const links = (made.links ?? []).filter(linkExists);
  for (const link of links) {
    try {
      ip('link', 'del', 'dev', link);
    } catch {
      // gone meanwhile (a TUN device goes with the process that held it)
    }
  }
  if (links.length) said.push(`removed network devices ${links.join(', ')}`);
  const files = (made.files ?? []).filter((file) => existsSync(file));
  for (const file of files) rmSync(file, { force: true, recursive: true });
  if (files.length) said.push(`removed ${files.join(', ')}`);
  // The run's temporary folder goes at every end, a clean one too: not worth a word. A process
  // that was ending as the others were stopped may still write there (a browser's last files):
  // the folder is removed again should it come back within a moment.
  if (record.temporary) await removeSettled(record.temporary);
  return said;
}

/** Removes `folder`, and again whenever it comes back, until it has stayed away for `quietMs`. */
async function removeSettled(folder, quietMs = 300, mostMs = 10_000) {
  const until = Date.now() + mostMs;
  let goneSince = null;
  while (Date.now() < until) {
    if (existsSync(folder)) {
      for (const pid of processesNaming(folder)) await stopProcesses([pid], 1000);
      try {
        rmSync(folder, { force: true, recursive: true });
      } catch {
        // written to while removed: the next pass
      }
      goneSince = null;
    } else {
      goneSince ??= Date.now();
      if (Date.now() - goneSince >= quietMs) return;
    }
    await new Promise((done) => setTimeout(done, 100));
  }
}

/** What a run was, in words: "npx playwright test (pid 1234, started 14:02:11)". */
export function describeRun(record) {
  const started = new Date(record.started_at).toISOString().slice(11, 19);
  return `${record.command} (pid ${record.pid}, started ${started} UTC)`;
}

/**
 * Cleans up after every run whose process has ended and whose watchdog is not at work (both
 * killed, or the watchdog never started): removes what each left and says so, one line each.
 * Records of runs still going are left alone. Resolves to the lines said.
 */
export async function cleanUpAfterDeadRuns(log = console.log) {
  const lines = [];
  for (const { path, record } of readRecords()) {
    if (isRunning(record.pid, record.pid_start)) continue;
    if (record.watchdog && isRunning(record.watchdog.pid, record.watchdog.pid_start)) continue;
    const said = await removeLeftovers(record);
    removeRecord(path);
    if (said.length === 0) continue;
    const line = `Cleaned up after a run that ended without doing so, ${describeRun(record)}: ${said.join('; ')}.`;
    log(line);
    lines.push(line);
  }
  return lines;
}

// Processes as Linux's /proc shows them: a process's start time (so that a process id the system
// hands on to a later process is not taken for the one recorded), the processes whose environment
// carries a run's mark, and stopping them, politely first.

import { readFileSync, readdirSync } from 'node:fs';

/** How long stopped processes get after SIGTERM (a JVM's graceful stop) before SIGKILL. */
export const STOP_GRACE_MS = 10_000;

/** When `pid` started (clock ticks since boot, /proc/<pid>/stat's 22nd field), or null when it is gone. */
export function startTimeOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command (field 2) may hold spaces and parentheses: the fields after it follow the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] === 'Z') return null; // a zombie has ended
    return Number(fields[19]);
  } catch {
    return null;
  }
}

/** Whether the process `pid` that started at `startTime` is still running. */
export function isRunning(pid, startTime) {
  return pid > 0 && startTimeOf(pid) === startTime;
}

/** A process's command name (/proc/<pid>/comm), or '?' once it has gone. */
export function commandOf(pid) {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '?';
  }
}

/** Every process but this one whose environment holds `name=value` (/proc/<pid>/environ). */
export function processesMarked(name, value) {
  const entry = Buffer.from(`${name}=${value}\0`);
  const inside = Buffer.from(`\0${name}=${value}\0`);
  const found = [];
  for (const directory of readdirSync('/proc')) {
    const pid = Number(directory);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      const environment = readFileSync(`/proc/${pid}/environ`);
      const marked = environment.includes(inside) || environment.subarray(0, entry.length).equals(entry);
      if (marked && startTimeOf(pid) !== null) found.push(pid);
    } catch {
      // gone, or not readable: not ours
    }
  }
  return found;
}

/**
 * Every process but this one whose command line names `path` (/proc/<pid>/cmdline): helpers a
 * marked process started with an environment of their own, such as Chromium's crash handler,
 * which is given its database in the browser's profile and outlives a browser killed at once.
 */
export function processesNaming(path) {
  const named = Buffer.from(path);
  const found = [];
  for (const directory of readdirSync('/proc')) {
    const pid = Number(directory);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      if (readFileSync(`/proc/${pid}/cmdline`).includes(named) && startTimeOf(pid) !== null) found.push(pid);
    } catch {
      // gone, or not readable
    }
  }
  return found;
}

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

/**
 * Stops `pids`: SIGTERM, then SIGKILL to those still there after `graceMs`. Resolves to the
 * command names of those that were running, in order.
 */
export async function stopProcesses(pids, graceMs = STOP_GRACE_MS) {
  const running = pids.map((pid) => ({ pid, start: startTimeOf(pid), command: commandOf(pid) }));
  const alive = () => running.filter((p) => p.start !== null && isRunning(p.pid, p.start));
  const signal = (processes, name) => {
    for (const p of processes) {
      try {
        process.kill(p.pid, name);
      } catch {
        // already gone
      }
    }
  };
  const stopped = alive();
  signal(stopped, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (alive().length > 0 && Date.now() < deadline) await sleep(100);
  signal(alive(), 'SIGKILL');
  while (alive().length > 0) await sleep(50);
  return stopped.map((p) => p.command);
}

// What runs on this machine remember for the next one (a starting point, never a measurement):
// small JSON files in $XDG_CACHE_HOME/response-time-lab (~/.cache/… by default; RTL_CACHE_DIR
// moves it). network/cdp-calibration-memory.js keeps Chromium's emulation factor there,
// budget/cell-time-memory.js each cell's time.

import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';

/** The file `name` in the machine's memory, from `env`. */
export function memoryPath(name, env = process.env) {
  const directory = env.RTL_CACHE_DIR ?? join(env.XDG_CACHE_HOME ?? join(os.homedir(), '.cache'), 'response-time-lab');
  return join(directory, name);
}

/** A memory file's entries ({key: entry}); {} when there is none or it cannot be read. */
export function readMemory(file) {
  try {
    const remembered = JSON.parse(readFileSync(file, 'utf8'));
    return remembered && typeof remembered === 'object' && !Array.isArray(remembered) ? remembered : {};
  } catch {
    return {};
  }
}

/** How long an entry is kept: one not renewed since (an older browser's, a cell no longer run) goes. */
export const KEPT_FOR_DAYS = 90;

/**
 * Adds `entries` ({key: entry}) to a memory file, and drops those whose `at` is more than
 * KEPT_FOR_DAYS old. Written whole to a file of its own, then renamed over the old one, so that
 * runs side by side never read half a file. A memory that cannot be written only costs the next
 * run its head start: false then.
 */
export function remember(file, entries, now = Date.now()) {
  try {
    mkdirSync(join(file, '..'), { recursive: true });
    const kept = Object.entries(readMemory(file)).filter(
      ([, entry]) => !(now - Date.parse(entry?.at) > KEPT_FOR_DAYS * 86_400_000),
    );
    const partial = `${file}.${process.pid}`;
    writeFileSync(partial, `${JSON.stringify({ ...Object.fromEntries(kept), ...entries }, null, 2)}\n`);
    renameSync(partial, file);
    return true;
  } catch {
    return false;
  }
}

// What the last calibration of Chromium's emulation found on this machine (profiles.js
// calibrateCdp), per browser version and profile: the factor the next run starts from. The
// factor depends on the machine and the engine, not on the run, so a run that starts from the
// last one's usually lands within tolerance at its first round (one throughput probe of a few
// seconds) instead of converging from 1 over two or three. Every run still measures its own
// factor and keeps each round in run.json; this only chooses where it starts. Kept in
// $XDG_CACHE_HOME/response-time-lab (~/.cache/… by default; RTL_CACHE_DIR moves it).

import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';

/** The file, from `env`. */
export function memoryFile(env = process.env) {
  const directory = env.RTL_CACHE_DIR ?? join(env.XDG_CACHE_HOME ?? join(os.homedir(), '.cache'), 'response-time-lab');
  return join(directory, 'cdp-calibration.json');
}

/** What a factor is remembered under: the browser's version and the profile with its rates. */
export function memoryKey(browserVersion, profileName, profile) {
  return `${browserVersion} ${profileName} ${profile.downBps}/${profile.upBps} bit/s ${profile.rttMs} ms`;
}

function read(file) {
  try {
    const remembered = JSON.parse(readFileSync(file, 'utf8'));
    return remembered && typeof remembered === 'object' && !Array.isArray(remembered) ? remembered : {};
  } catch {
    return {}; // none yet, or unreadable: every calibration then starts from 1
  }
}

/** The factor to start from under `key`: {factor, from} — the remembered one, or 1. */
export function startingFactor(key, env = process.env) {
  const file = memoryFile(env);
  const entry = read(file)[key];
  const factor = entry?.factor;
  return Number.isFinite(factor) && factor > 0
    ? { factor, from: `the last calibration on this machine (${entry.at}, ${file})` }
    : { factor: 1, from: 'none remembered: Chromium as it is' };
}

/**
 * Remembers `factor` under `key` (a calibration that ended within tolerance). Written whole to
 * a file of its own, then renamed over the old one, so that runs side by side never read half a
 * file. A cache that cannot be written only costs the next run its head start.
 */
export function rememberFactor(key, factor, env = process.env) {
  const file = memoryFile(env);
  try {
    mkdirSync(join(file, '..'), { recursive: true });
    const remembered = { ...read(file), [key]: { factor, at: new Date().toISOString() } };
    const partial = `${file}.${process.pid}`;
    writeFileSync(partial, `${JSON.stringify(remembered, null, 2)}\n`);
    renameSync(partial, file);
    return true;
  } catch {
    return false;
  }
}

// What the last calibration of Chromium's emulation found on this machine (profiles.js
// calibrateCdp), per browser version and profile: the factor the next run starts from. The
// factor depends on the machine and the engine, not on the run, so a run that starts from the
// last one's usually lands within tolerance at its first round (one throughput probe of a few
// seconds) instead of converging from 1 over two or three. Every run still measures its own
// factor and keeps each round in run.json; this only chooses where it starts. Kept in the
// machine's memory (../machine-memory.js).

import { memoryPath, readMemory, remember } from '../machine-memory.js';

/** The file, from `env`. */
export function memoryFile(env = process.env) {
  return memoryPath('cdp-calibration.json', env);
}

/** What a factor is remembered under: the browser's version and the profile with its rates. */
export function memoryKey(browserVersion, profileName, profile) {
  return `${browserVersion} ${profileName} ${profile.downBps}/${profile.upBps} bit/s ${profile.rttMs} ms`;
}

/** The factor to start from under `key`: {factor, from} — the remembered one, or 1. */
export function startingFactor(key, env = process.env) {
  const file = memoryFile(env);
  const entry = readMemory(file)[key];
  const factor = entry?.factor;
  return Number.isFinite(factor) && factor > 0
    ? { factor, from: `the last calibration on this machine (${entry.at}, ${file})` }
    : { factor: 1, from: 'none remembered: Chromium as it is' };
}

/** Remembers `factor` under `key` (a calibration that ended within tolerance); false if it cannot. */
export function rememberFactor(key, factor, env = process.env) {
  return remember(memoryFile(env), { [key]: { factor, at: new Date().toISOString() } });
}

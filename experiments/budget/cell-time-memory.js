// Each cell's time per iteration as the last run on this machine measured it (its median), per
// browser engine and version and shaping mechanism: what group-cost.js estimates a group from
// before it runs. Kept in the machine's memory (../machine-memory.js) as cell-times.json; a run
// only reads it to share out its time, never as a measurement.

import { memoryPath, readMemory, remember } from '../machine-memory.js';

/** The file, from `env`. */
export function cellTimeFile(env = process.env) {
  return memoryPath('cell-times.json', env);
}

/** What a cell's time is remembered under. */
export function cellTimeKey({ engine, version }, shaping, caseId) {
  return `${engine} ${version} ${shaping} ${caseId}`;
}

/** Every remembered time: {key: {ms, at}}. */
export function rememberedCellTimes(env = process.env) {
  return readMemory(cellTimeFile(env));
}

/** Remembers the medians of a completed group's cells ({case_id, summary: {median}}). */
export function rememberCellTimes(browser, shaping, cells, env = process.env) {
  const at = new Date().toISOString();
  const entries = {};
  for (const cell of cells) {
    if (cell.summary?.median > 0)
      entries[cellTimeKey(browser, shaping, cell.case_id)] = { ms: cell.summary.median, at };
  }
  return remember(cellTimeFile(env), entries);
}

// What a comparison group will cost before it runs: its warm-up, one round and the minimum rounds
// the stop rule asks for, from each cell's time per iteration — the last runs' median on this
// machine with this browser where one measured it (cell-time-memory.js), else a model of the
// cell from its network, its bytes on the wire and its computation. The model's constants are
// first guesses from this machine kind (2 cores, Debian's Chromium): they only share out the
// time of a run that has no memory yet, and every run's own times replace them.

import { SCENARIO_ENTRIES, REPETITIONS } from '#common/catalogue.js';
import { NETWORKS } from '#common/network-profiles.js';
import { roundCostOf } from '../../client/group-runner.js';

/** A request's time besides its bytes and decoding (page, loopback, server), in ms. */
export const REQUEST_MS = 5;
/** Decoding one object in the browser, by format, in µs (an unnamed format: the slowest but XML). */
export const DECODE_US = Object.freeze({ json: 10, protobuf: 13, cbor: 15, msgpack: 15, xml: 80 });
const DECODE_US_OTHER = 20;
/** Compressing on the server and decompressing in the browser, per object, in µs. */
export const COMPRESSION_US = 25;
/** One repetition of a sort per N·log₂N, in µs, by where it runs (catalogue scenario `computes`). */
export const SORT_US = Object.freeze({ client: 1, server: 0.3 });
/** A group's page: loading it and its rest before the first request (PAGE_SETTLE_MS), in ms. */
export const PAGE_MS = 1500;
/** Between two rounds: the samples handed over and the group judged (its bootstraps), in ms. */
export const BETWEEN_ROUNDS_MS = 100;

/**
 * A cell's modelled time per iteration (ms). `bytesPerObject(cell)` gives its bytes on the wire
 * per object (the server's, at that format and compression), or null when unknown.
 */
export function modelledCellMs(cell, bytesPerObject) {
  const scenario = SCENARIO_ENTRIES[cell.scenario];
  const profile = NETWORKS[cell.network];
  const n = cell.count;
  const bytes = (bytesPerObject(cell) ?? 0) * n;
  const wireMs = profile?.downBps ? (bytes * 8 * 1000) / profile.downBps + profile.rttMs : 0;
  const perObjectUs = (DECODE_US[cell.format] ?? DECODE_US_OTHER) + (cell.compression === 'none' ? 0 : COMPRESSION_US);
  const requestMs = REQUEST_MS + wireMs + (n * perObjectUs) / 1000;
  const sortMs =
    ((REPETITIONS[cell.cm] ?? 0) * n * Math.log2(Math.max(n, 2)) * (SORT_US[scenario.computes] ?? 0)) / 1000;
  return scenario.requests * requestMs + scenario.computations * sortMs;
}

/**
 * A warm-up's expected time for an iteration of `ms` under the protocol's rule
 * (client/group-runner.js warmUp): by count, or by stability — at least minMs and two windows,
 * at most maxMs, and one iteration when that alone reaches maxMs (it then stands as round 1).
 */
export function warmupMs(ms, warmup) {
  if ('iterations' in warmup) return warmup.iterations * ms;
  if (ms >= warmup.maxMs) return ms;
  return Math.min(warmup.maxMs + ms, Math.max(warmup.minMs, Math.max(warmup.minIterations, 2 * warmup.window) * ms));
}

/**
 * What a group will cost: {warmup_ms, round_ms, need_ms (its page, warm-up and the protocol's
 * minimum rounds), from: {memory, model}: how many cells' times came from each}.
 *
 * @param group {id, cells: [{case_id, …}]}
 * @param protocol client/group-runner.js groupProtocol's {warmup, rounds}
 * @param cellMs (cell) => {ms, from: 'memory'|'model'}
 */
export function estimateGroup(group, protocol, cellMs) {
  const each = new Map();
  const from = { memory: 0, model: 0 };
  let warmup = 0;
  for (const cell of group.cells) {
    const { ms, from: source } = cellMs(cell);
    each.set(cell.case_id, ms);
    from[source]++;
    warmup += warmupMs(ms, protocol.warmup);
  }
  const round =
    BETWEEN_ROUNDS_MS +
    roundCostOf(
      group.cells.map((c) => c.case_id),
      each,
      protocol.rounds,
    );
  return {
    warmup_ms: Math.round(warmup),
    round_ms: Math.round(round),
    need_ms: Math.round(PAGE_MS + warmup + protocol.rounds.minRounds * round),
    from,
  };
}

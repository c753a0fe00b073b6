// docs/method.md#scenarios's scenarios, each timed with performance.now() from the start of its first request
// until the data is in its desired state. Inside the timed region there is only what the
// scenario itself does: fetch, read, decode, compute, and a clock read between steps.

import { SCENARIO_ENTRIES } from '#common/catalogue.js';
import { compute } from './sort.js';

/** Thrown for an answer other than 200; carries the server's own message. */
export class ServerRefusal extends Error {
  constructor(status, message, url) {
    super(`The server answered ${status} for ${url}: ${message}`);
    this.name = 'ServerRefusal';
    this.status = status;
    this.serverMessage = message;
  }
}

/** The ServerRefusal for an answer other than 200, with the server's JSON message when it has one. */
export async function refusal(response) {
  let message = response.statusText;
  try {
    const body = await response.json();
    if (body && body.message) message = body.message;
  } catch {
    // not JSON: keep the status text
  }
  return new ServerRefusal(response.status, message, response.url);
}

/**
 * What a scenario does, in order (docs/method.md#scenarios), from the catalogue's entry: its requests (with the
 * cell's CM when the server computes, CM0 otherwise), then its computations in the browser.
 *   1. No computation, 2. computation on the server: request, decode.
 *   3. Computation on the client: request CM0, decode, run CMk.
 *   4. No caching, computation on the server: request CMk, decode, the same again.
 *   5. Caching, computation on the client: request CM0, decode, run CMk, run CMk again on the cached data.
 */
function stepsOf({ computes, requests, computations }) {
  return Object.freeze({
    requestCm: (cell) => (computes === 'client' ? 0 : cell.cm),
    requests,
    // The catalogue counts computations wherever they run; the browser runs the client's.
    computations: computes === 'client' ? computations : 0,
  });
}

/**
 * Runs a scenario's timed region: one flat async function, called straight from the loop that
 * repeats it, so that every await inside the region is one the bare fetch → read → decode loop
 * of npm run bench:client also has (nested async helpers around the fetch cost Chromium a few
 * tens of µs per iteration there). The clock is read at the start and after every step:
 * each request's headers, body read and decode, each computation; phases are derived from
 * these marks after the region ends (timesOf). Returns {url, marks, responses}.
 */
export async function timed(context, steps) {
  const { codec, cell, fetchOptions, now } = context;
  const url = context.url(steps.requestCm(cell));
  const marks = [];
  const responses = [];
  let objects = null;
  marks.push(now());
  for (let i = 0; i < steps.requests; i++) {
    const response = await context.fetch(url, fetchOptions);
    marks.push(now());
    if (response.status !== 200) throw await refusal(response);
    const body = await codec.read(response);
    marks.push(now());
    objects = codec.decode(body, cell.object);
    marks.push(now());
    responses.push(response);
  }
  const computed = [];
  for (let i = 0; i < steps.computations; i++) {
    computed.push(compute(cell.object, cell.cm, objects));
    marks.push(now());
  }
  context.keep(objects, ...computed);
  return { url, marks, responses };
}

/** The phases of one request from its four marks, prefixed ("" for the first, "second_" for scenario 4's second). */
function requestPhases(sample, [start, headers, read, decoded], prefix) {
  sample[`${prefix}request_ms`] = decoded - start;
  sample[`${prefix}headers_ms`] = headers - start;
  sample[`${prefix}body_ms`] = read - headers;
  sample[`${prefix}decode_ms`] = decoded - read;
}

const PREFIXES = ['', 'second_'];
const COMPUTE_FIELDS = ['compute_ms', 'second_compute_ms'];

/**
 * A timed region's times, computed after it: total_ms from its first mark to its last, and per
 * request and computation its phases.
 */
export function timesOf(steps, marks) {
  const times = { total_ms: marks[marks.length - 1] - marks[0] };
  for (let i = 0; i < steps.requests; i++) requestPhases(times, marks.slice(3 * i, 3 * i + 4), PREFIXES[i]);
  for (let i = 0; i < steps.computations; i++) {
    const at = 3 * steps.requests + i;
    times[COMPUTE_FIELDS[i]] = marks[at + 1] - marks[at];
  }
  return times;
}

/** Scenario number → its steps, for timed(). */
export const SCENARIO_STEPS = Object.freeze(
  Object.fromEntries(Object.entries(SCENARIO_ENTRIES).map(([number, entry]) => [number, stepsOf(entry)])),
);

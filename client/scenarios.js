// SPEC §5's scenarios, each timed with performance.now() from the start of its first request
// until the data is in its desired state. Inside the timed region there is only what the
// scenario itself does: fetch, read, decode, compute, and a clock read between steps.

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
 * One request: fetch, read the body, decode. `marks` are performance.now() readings at the
 * start, when the headers arrived, when the body was read, and when it was decoded.
 */
async function request(context, cm) {
  const url = context.url(cm);
  const start = context.now();
  const response = await context.fetch(url, context.fetchOptions);
  const headers = context.now();
  if (response.status !== 200) throw await refusal(response);
  const body = await context.codec.read(response);
  const read = context.now();
  const objects = context.codec.decode(body, context.cell.object);
  const decoded = context.now();
  return { objects, response, url, marks: [start, headers, read, decoded] };
}

/** The phases of one request, prefixed (e.g. "" for the first, "second_" for scenario 4's second). */
function requestPhases(r, prefix) {
  const [start, headers, read, decoded] = r.marks;
  return {
    [`${prefix}request_ms`]: decoded - start,
    [`${prefix}headers_ms`]: headers - start,
    [`${prefix}body_ms`]: read - headers,
    [`${prefix}decode_ms`]: decoded - read,
  };
}

/**
 * 1. No computation, and 2. computation on the server: request N objects with the cell's CM
 * (CM0 for scenario 1, as validation guarantees), decode.
 */
async function oneRequest(context) {
  const t0 = context.now();
  const r = await request(context, context.cell.cm);
  const t1 = context.now();
  return { total_ms: t1 - t0, requests: [r], ...requestPhases(r, '') };
}

/** 3. Computation on the client: request N objects, decode, run CMk in the browser. */
async function clientComputation(context) {
  const { object, cm } = context.cell;
  const t0 = context.now();
  const r = await request(context, 0);
  const c0 = context.now();
  const sorted = compute(object, cm, r.objects);
  const t1 = context.now();
  context.keep(sorted);
  return { total_ms: t1 - t0, requests: [r], ...requestPhases(r, ''), compute_ms: t1 - c0 };
}

/** 4. No caching, computation on the server: request with CMk, decode, request the same again, decode. */
async function serverTwice(context) {
  const t0 = context.now();
  const first = await request(context, context.cell.cm);
  const second = await request(context, context.cell.cm);
  const t1 = context.now();
  return {
    total_ms: t1 - t0, requests: [first, second],
    ...requestPhases(first, ''), ...requestPhases(second, 'second_'),
  };
}

/** 5. Caching, computation on the client: request, decode, run CMk, run CMk again on the cached data. */
async function clientTwiceCached(context) {
  const { object, cm } = context.cell;
  const t0 = context.now();
  const r = await request(context, 0);
  const c0 = context.now();
  const first = compute(object, cm, r.objects);
  const c1 = context.now();
  const second = compute(object, cm, r.objects);
  const t1 = context.now();
  context.keep(first, second);
  return {
    total_ms: t1 - t0, requests: [r], ...requestPhases(r, ''),
    compute_ms: c1 - c0, second_compute_ms: t1 - c1,
  };
}

export const SCENARIO_FUNCTIONS = Object.freeze({
  1: oneRequest, 2: oneRequest, 3: clientComputation, 4: serverTwice, 5: clientTwiceCached,
});

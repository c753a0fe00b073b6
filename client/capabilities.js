// What this browser gives the lab's measurements, checked once before a run (untimed): the step
// of performance.now() (coarser outside cross-origin isolation, and per engine), and which
// Resource Timing fields and Server-Timing entries a same-origin fetch of the API carries. A
// field the engine does not give is absent from its samples (client/timing.js keeps only what
// the entry has); this record says which, so the report can name them instead of a reader
// taking an absence for a zero.

import { apiPath } from '#common/schema.js';
import { takeResourceEntries } from './timing.js';

/** performance.now() reads taken to find its step; the step is the smallest rise seen. */
const TIMER_READS = 200_000;

/** Resource Timing fields the samples use, each counted as given when the entry has it. */
const RESOURCE_FIELDS = ['transferSize', 'encodedBodySize', 'decodedBodySize', 'requestStart', 'responseStart'];

/** The smallest positive step between two performance.now() reads, in ms. */
export function timerStep(now = () => performance.now(), reads = TIMER_READS) {
  let step = Infinity;
  let last = now();
  for (let i = 0; i < reads; i++) {
    const t = now();
    if (t > last) {
      step = Math.min(step, t - last);
      last = t;
    }
  }
  return Number.isFinite(step) ? step : null;
}

/**
 * Which of the Resource Timing fields a resource entry gives: a size that is 0 for a body that
 * crossed the network, or a phase mark of 0, is one the engine withholds.
 */
export function resourceFieldsGiven(entry) {
  const given = {};
  for (const field of RESOURCE_FIELDS) given[field] = typeof entry?.[field] === 'number' && entry[field] > 0;
  given.serverTiming = Array.isArray(entry?.serverTiming) && entry.serverTiming.length > 0;
  return given;
}

/** Checks this page's browser: {timer_step_ms, cross_origin_isolated, resource_timing: {field: bool}}. */
export async function probeCapabilities(env) {
  const url = new URL(
    apiPath({ object: 'books', count: 10, format: 'json', compression: 'gzip', level: null }, 0),
    env.baseUrl,
  ).href;
  env.performance.clearResourceTimings();
  const response = await env.fetch(url, { cache: 'no-store' });
  await response.arrayBuffer();
  // The entry is added when the response ends, a task after the body resolves at the latest.
  await env.yieldToBrowser();
  const [entry] = takeResourceEntries(env.performance, [url]);
  return {
    timer_step_ms: timerStep(env.now),
    cross_origin_isolated: globalThis.crossOriginIsolated === true,
    resource_timing: resourceFieldsGiven(entry),
  };
}

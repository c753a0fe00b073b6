// Runs one cell: warm-up iterations, then measured ones (a fixed number, or adaptively until
// the median's 95% CI is narrow enough), then an untimed check that the data was right.
// Works on an environment object so it runs in the browser and, with fakes, in Node tests.

import { apiPath, firstDifference, toPlain } from '#common/schema.js';
import { COMPRESSION_ENTRIES, defaultDecoder, defaultLevel } from '#common/catalogue.js';
import { caseId, validateCell } from '#common/cell.js';
import { protocolProblem } from '#common/protocols.js';
import { codecOf } from './codecs/index.js';
import { SCENARIO_STEPS, refusal, timed, timesOf } from './scenarios.js';
import { compute } from './sort.js';
import { relativeHalfWidth, summarize } from '#common/stats.js';
import { resourceFields, takeResourceEntries } from './timing.js';

const DEFAULT_WARMUP = 100;
const DEFAULT_REPS = 100;
/** Adaptive repetitions: stop when the median's CI half-width is ≤ target × median. */
const DEFAULT_ADAPTIVE = Object.freeze({ target: 0.02, minReps: 20, maxReps: 500, checkEvery: 10 });

export { validateCell };

function requestUrl(baseUrl, cell, cm, format = cell.format, compression = cell.compression) {
  const level = compression === cell.compression ? cell.level : defaultLevel(compression);
  return new URL(apiPath({ ...cell, format, compression, level }, cm), baseUrl).href;
}

export function scenarioContext(env, cell) {
  let sink = null;
  // Built here, before any timing: a scenario asks for CM0's URL or its own CM's.
  const urls = { 0: requestUrl(env.baseUrl, cell, 0), [cell.cm]: requestUrl(env.baseUrl, cell, cell.cm) };
  return {
    cell,
    codec: codecOf(env.codecs, cell.format, cell.decoder),
    now: env.now,
    fetch: env.fetch,
    fetchOptions: { cache: 'no-store' },
    url: (cm) => urls[cm],
    /** Holds a scenario's results until the next iteration, so that computing them is never skipped. */
    keep: (...values) => {
      sink = values;
    },
    /** What the last timed region kept (its objects, then each computation's result), until drop. */
    kept: () => sink,
    drop: () => {
      sink = null;
      return sink;
    },
  };
}

/** Runs one iteration (a scenario's steps) and returns its sample. */
export async function iterate(env, context, steps) {
  return sampleOf(env, context, steps, await timed(context, steps));
}

/**
 * The sample of a timed region, made after it: numbers and short strings only, nothing
 * retained. Drops the scenario's results, yields to the browser so that it files the requests'
 * Resource Timing entries, and adds what those say; throws when they say a request went over
 * another protocol than the cell's.
 */
export async function sampleOf(env, context, steps, { url, marks, responses }) {
  const sample = timesOf(steps, marks);
  const encodings = responses.map((response) => response.headers.get('content-encoding') ?? 'identity');
  context.drop();
  await env.yieldToBrowser();
  const entries = takeResourceEntries(
    env.performance,
    responses.map(() => url),
  );
  // A request that went over another protocol than the cell's fails the cell (each entry the
  // browser filed; with none, as in Node's fakes, there is nothing to judge).
  for (const entry of entries) {
    const problem = entry && protocolProblem(context.cell.protocol, url, entry.nextHopProtocol);
    if (problem) throw new Error(`${caseId(context.cell)}: ${problem}`);
  }
  sample.content_encoding = encodings[0];
  Object.assign(sample, resourceFields(entries[0], ''));
  if (entries.length > 1) {
    sample.second_content_encoding = encodings[1];
    Object.assign(sample, resourceFields(entries[1], 'second_'));
  }
  return sample;
}

/**
 * Runs a cell.
 *
 * @param env {fetch, now, performance, codecs, baseUrl, yieldToBrowser}
 * @param options {warmup, reps} or {warmup, adaptive: {target, minReps, maxReps, checkEvery}};
 *     onProgress({phase, iteration, of, elapsed_ms, remaining_ms}), onSample(sample), signal
 * @returns {cell, case_id, samples, summary, verification}
 */
export async function runCell(env, rawCell, options = {}) {
  const cell = validateCell(rawCell);
  const warmup = options.warmup ?? DEFAULT_WARMUP;
  const adaptive = options.adaptive ? { ...DEFAULT_ADAPTIVE, ...options.adaptive } : null;
  const reps = adaptive ? adaptive.maxReps : (options.reps ?? DEFAULT_REPS);
  const steps = SCENARIO_STEPS[cell.scenario];
  const context = scenarioContext(env, cell);
  const started = env.now();
  const progress = (phase, iteration, of, done, total) => {
    if (!options.onProgress) return;
    const elapsed = env.now() - started;
    options.onProgress({
      phase,
      iteration,
      of,
      elapsed_ms: elapsed,
      remaining_ms: done > 0 ? (elapsed / done) * (total - done) : null,
    });
  };

  const totalPlanned = warmup + reps;
  for (let i = 1; i <= warmup; i++) {
    checkAborted(options.signal);
    await iterate(env, context, steps);
    progress('warmup', i, warmup, i, totalPlanned);
  }

  const samples = [];
  let stoppedEarly = false;
  for (let rep = 1; rep <= reps; rep++) {
    checkAborted(options.signal);
    const sample = { rep, ...(await iterate(env, context, steps)) };
    samples.push(sample);
    options.onSample?.(sample);
    progress('measure', rep, reps, warmup + rep, totalPlanned);
    if (
      adaptive &&
      rep >= adaptive.minReps &&
      rep % adaptive.checkEvery === 0 &&
      relativeHalfWidth(
        summarize(
          samples.map((s) => s.total_ms),
          { resamples: 500 },
        ),
      ) <= adaptive.target
    ) {
      stoppedEarly = rep < reps;
      break;
    }
  }

  checkAborted(options.signal);
  progress('verify', 1, 1, totalPlanned, totalPlanned);
  const verification = await verify(env, cell);
  return {
    cell,
    case_id: caseId(cell),
    samples,
    summary: summarize(samples.map((s) => s.total_ms)),
    protocol: adaptive ? { warmup, adaptive, stopped_early: stoppedEarly } : { warmup, reps },
    verification,
  };
}

export function checkAborted(signal) {
  if (signal?.aborted) {
    const error = new Error('The run was stopped.');
    error.name = 'AbortError';
    throw error;
  }
}

/** Fetches and decodes outside any timing; the objects as the codec gives them. */
async function fetchDecoded(
  env,
  cell,
  cm,
  { format = cell.format, decoder = cell.decoder, compression = cell.compression } = {},
) {
  const url = requestUrl(env.baseUrl, cell, cm, format, compression);
  const response = await env.fetch(url, { cache: 'no-store' });
  if (response.status !== 200) throw await refusal(response);
  const expected = COMPRESSION_ENTRIES[compression]?.encoding ?? null;
  const received = response.headers.get('content-encoding');
  if (received !== expected) {
    throw new Error(`${url} came with Content-Encoding ${received ?? '(none)'}, expected ${expected ?? '(none)'}`);
  }
  const codec = codecOf(env.codecs, format, decoder);
  return codec.decode(await codec.read(response), cell.object);
}

/** A list of decoded objects as plain objects, comparable across formats (firstDifference). */
const plainObjects = (object, objects) => objects.map((o) => toPlain(object, o));

/** The first `count` objects as plain objects (any format decodes to the same ones). */
export async function fetchObjects(env, request) {
  const cell = validateCell({ scenario: request.cm ? 2 : 1, ...request });
  const objects = await fetchDecoded(env, cell, cell.cm);
  return plainObjects(cell.object, objects);
}

/** Runs `make` once per key within one memo (a Map), so that the cells of a group share a check. */
function once(memo, key, make) {
  if (!memo.has(key)) memo.set(key, make());
  return memo.get(key);
}

/**
 * What a verification establishes, as keys that do not depend on the network or the scenario:
 * the server's bytes for one object, count, format, decoder, compression and level decode to
 * the right objects; the client's CMk order of N objects equals the server's.
 */
export function verificationKeys(cell) {
  return {
    decode:
      `decode ${cell.object} ${cell.count} ${cell.format} ` +
      `${cell.decoder} ${cell.compression} ${cell.level ?? '-'}`,
    order: cell.cm > 0 ? `order ${cell.object} ${cell.count} CM${cell.cm}` : null,
  };
}

/**
 * Untimed: the client's CMk order of a cell's objects (`clientOrder`, the result of compute)
 * equals the server's. Throws on a difference; returns the check's description.
 */
export async function verifyOrder(env, cell, clientOrder) {
  const server = plainObjects(cell.object, await fetchDecoded(env, cell, cell.cm));
  const difference = firstDifference(cell.object, server, plainObjects(cell.object, clientOrder));
  if (difference)
    throw new Error(
      `Verification failed for ${caseId(cell)}: ` +
        `the client's CM${cell.cm} order differs from the server's: ${difference}`,
    );
  return `client and server CM${cell.cm} orders equal`;
}

/**
 * Untimed checks after a cell: the decoded count is right, the format decodes to the same
 * objects as JSON, and the client's own CMk order equals the server's. Throws on a mismatch.
 * Cells verified with the same `memo` share the JSON reference per object and count. A check
 * whose key (verificationKeys) is in `known` passed earlier — in the same group, or in an
 * earlier group of the same run, on the same server — and is not repeated: the bytes do not
 * depend on the network the page is shaped to (at 10 Mbit/s the checks of one 10,000-Book
 * comparison group took half a minute, and the order check of CM5 on 10,000 Books alone the
 * better part of a minute). The result lists the keys it stands for, checked now or earlier.
 * `orderChecked`, a description from verifyOrder, says the order was checked already for this
 * cell (on the client's own result of a warm-up iteration: group-runner.js).
 */
export async function verify(env, cell, memo = new Map(), known = new Set(), orderChecked = null) {
  const plain = (objects) => plainObjects(cell.object, objects);
  const keys = verificationKeys(cell);
  const checks = [];
  const compression =
    cell.compression === 'none' ? '' : `, Content-Encoding ${COMPRESSION_ENTRIES[cell.compression].encoding}`;
  const againstJson = cell.format !== 'json' || cell.decoder !== defaultDecoder('json') || cell.compression !== 'none';
  let decoded = null;
  if (known.has(keys.decode)) {
    checks.push(`count${compression}${againstJson ? ', same objects as json' : ''}: passed earlier in this run`);
  } else {
    decoded = await fetchDecoded(env, cell, 0);
    if (decoded.length !== cell.count) {
      throw new Error(
        `Verification failed for ${caseId(cell)}: decoded ${decoded.length} ${cell.object}, expected ${cell.count}`,
      );
    }
    checks.push(`count${compression}`);
    if (againstJson) {
      const reference = await once(memo, `json ${cell.object} ${cell.count}`, async () =>
        plain(
          await fetchDecoded(env, cell, 0, { format: 'json', decoder: defaultDecoder('json'), compression: 'none' }),
        ),
      );
      const difference = firstDifference(cell.object, reference, plain(decoded));
      if (difference)
        throw new Error(
          `Verification failed for ${caseId(cell)}: ` +
            `${cell.format} (${cell.decoder}) and uncompressed json decode differently: ${difference}`,
        );
      checks.push('same objects as json');
    }
  }
  if (keys.order && orderChecked) {
    checks.push(orderChecked);
  } else if (keys.order && known.has(keys.order)) {
    checks.push(`client and server CM${cell.cm} orders equal: passed earlier in this run`);
  } else if (keys.order) {
    // Any format's objects will do for the client's sort: they were shown to equal JSON's.
    checks.push(
      await verifyOrder(env, cell, compute(cell.object, cell.cm, decoded ?? (await fetchDecoded(env, cell, 0)))),
    );
  }
  return { passed: true, checks, keys: [keys.decode, ...(keys.order ? [keys.order] : [])] };
}

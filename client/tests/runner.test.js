import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCell, validateCell, fetchObjects } from '../runner.js';
import { compute } from '../sort.js';
import { codecs, fixture } from './fixtures.js';

const BOOKS = JSON.parse(fixture('books.expected.json'));

/**
 * A fake environment: a server answering JSON from the fixture objects (sorting them as the
 * real one does, or wrongly when told to), and a clock that advances 1 ms per reading.
 */
function fakeEnvironment({ sortsWrongly = false, refuseWith = null } = {}) {
  const requests = [];
  let clock = 0;
  return {
    requests,
    env: {
      baseUrl: 'http://lab.test',
      codecs,
      now: () => (clock += 1),
      performance: { getEntriesByType: () => [], clearResourceTimings: () => {} },
      yieldToBrowser: async () => {},
      async fetch(url) {
        requests.push(url);
        const query = new URL(url).searchParams;
        if (refuseWith) return Response.json({ code: refuseWith, message: 'too much work' }, { status: refuseWith });
        const first = BOOKS.slice(0, Number(query.get('count')));
        const cm = Number(query.get('cm'));
        const body = cm === 0 ? first : sortsWrongly ? first.slice().reverse() : compute('books', cm, first);
        return Response.json(body);
      },
    },
  };
}

const cell = (scenario, cm) => ({ object: 'books', count: 20, format: 'json', compression: 'none', scenario, cm });

test('a fixed protocol runs warm-up, then the measured repetitions, then verifies', async () => {
  const { env, requests } = fakeEnvironment();
  const phases = [];
  const result = await runCell(env, cell(2, 3), { warmup: 3, reps: 5, onProgress: (p) => phases.push(p.phase) });
  assert.equal(result.case_id, 'books/20/json/none/scenario2/cm3');
  assert.deepStrictEqual(
    result.samples.map((s) => s.rep),
    [1, 2, 3, 4, 5],
  );
  assert.equal(requests.length, 3 + 5 + 2, 'one request per iteration, two to verify');
  assert.deepStrictEqual(phases, [
    'warmup',
    'warmup',
    'warmup',
    'measure',
    'measure',
    'measure',
    'measure',
    'measure',
    'verify',
  ]);
  assert.equal(result.summary.n, 5);
  assert.deepStrictEqual(result.verification.checks, ['count', 'client and server CM3 orders equal']);
  // Scenario 2 reads the clock 4 times per iteration: start, headers, body read, decoded.
  assert.equal(result.samples[0].total_ms, 3);
  assert.equal(result.samples[0].request_ms, 3);
  assert.equal(result.samples[0].content_encoding, 'identity');
});

test('each scenario records its own phases', async () => {
  const { env } = fakeEnvironment();
  const run = async (scenario, cm) => (await runCell(env, cell(scenario, cm), { warmup: 0, reps: 1 })).samples[0];
  assert.ok('decode_ms' in (await run(1, 0)));
  const s3 = await run(3, 1);
  assert.ok('compute_ms' in s3 && !('second_compute_ms' in s3));
  const s4 = await run(4, 1);
  assert.ok('second_request_ms' in s4 && 'second_decode_ms' in s4);
  const s5 = await run(5, 2);
  assert.ok('compute_ms' in s5 && 'second_compute_ms' in s5);
  // The fake clock advances 1 ms per reading: each phase is one step, the total covers them all.
  assert.deepStrictEqual([s4.headers_ms, s4.body_ms, s4.decode_ms, s4.second_request_ms, s4.total_ms], [1, 1, 1, 3, 6]);
  assert.deepStrictEqual([s5.request_ms, s5.compute_ms, s5.second_compute_ms, s5.total_ms], [3, 1, 1, 5]);
  assert.ok(!('requests' in s5), 'samples keep no objects');
});

test('adaptive repetitions stop once the median is known precisely enough', async () => {
  const { env } = fakeEnvironment();
  const result = await runCell(env, cell(1, 0), {
    warmup: 0,
    adaptive: { target: 0.02, minReps: 20, maxReps: 200, checkEvery: 10 },
  });
  assert.equal(result.samples.length, 20, 'constant timings: the CI is zero-width at the first check');
  assert.equal(result.protocol.stopped_early, true);
});

test('stop aborts the cell and records nothing', async () => {
  const { env } = fakeEnvironment();
  const controller = new AbortController();
  await assert.rejects(
    runCell(env, cell(1, 0), {
      warmup: 0,
      reps: 50,
      signal: controller.signal,
      onSample: (s) => {
        if (s.rep === 2) controller.abort();
      },
    }),
    { name: 'AbortError' },
  );
});

test("a server order that differs from the client's fails the cell", async () => {
  const { env } = fakeEnvironment({ sortsWrongly: true });
  await assert.rejects(
    runCell(env, cell(3, 2), { warmup: 0, reps: 2 }),
    /Verification failed for books\/20\/json\/none\/scenario3\/cm2: the client's CM2 order differs from the server's: books\[\d+\]\.\w+: expected/,
  );
});

test("a refusal carries the server's message", async () => {
  const { env } = fakeEnvironment({ refuseWith: 422 });
  await assert.rejects(
    runCell(env, cell(2, 5), { warmup: 0, reps: 1 }),
    (error) => error.name === 'ServerRefusal' && error.status === 422 && /too much work/.test(error.message),
  );
});

test('cells are checked before anything runs', () => {
  assert.throws(
    () => validateCell({ object: 'authors', count: 0, scenario: 1, cm: 2, format: 'yaml' }),
    /object must be one of books, videos; format must be one of json, protobuf, xml, xml-attributes, cbor, msgpack; count must be a whole number ≥ 1; scenario 1 has no computation: cm must be 0/,
  );
  assert.throws(
    () => validateCell({ object: 'books', count: 5, scenario: 3, cm: 0 }),
    /scenario 3 computes: cm must be one of 1, 2, 3, 4, 5/,
  );
  assert.throws(
    () => validateCell({ object: 'books', count: 5, format: 'xml', decoder: 'parse' }),
    /decoder of xml must be one of dom, sax/,
  );
  assert.deepStrictEqual(validateCell({ object: 'videos', count: 5 }), {
    object: 'videos',
    format: 'json',
    decoder: 'json',
    compression: 'none',
    level: null,
    count: 5,
    scenario: 1,
    cm: 0,
    protocol: 'http1.1',
  });
  assert.equal(validateCell({ object: 'videos', count: 5, format: 'cbor' }).decoder, 'cbor2');
  // A compression's level: its default unless asked; none takes none; out of range is refused saying what is allowed.
  assert.equal(validateCell({ object: 'books', count: 5, compression: 'br' }).level, 6);
  assert.equal(validateCell({ object: 'books', count: 5, compression: 'zstd', level: 19 }).level, 19);
  assert.throws(
    () => validateCell({ object: 'books', count: 5, compression: 'br', level: 12 }),
    /level of br must be a whole number from 0 to 11 \(default 6\), not 12/,
  );
  assert.throws(
    () => validateCell({ object: 'books', count: 5, compression: 'gzip', level: 0 }),
    /level of gzip must be a whole number from 1 to 9/,
  );
  assert.throws(
    () => validateCell({ object: 'books', count: 5, compression: 'none', level: 3 }),
    /compression none takes no level \(levels: gzip 1–9, deflate 1–9, br 0–11, zstd 1–19\)/,
  );
});

test('fetchObjects gives plain objects', async () => {
  const { env } = fakeEnvironment();
  assert.deepStrictEqual(await fetchObjects(env, { object: 'books', count: 3, format: 'json' }), BOOKS.slice(0, 3));
});

test('a request that went over another protocol than the cell asked for fails the cell', async () => {
  // Resource Timing as Chromium files it: an entry per request, with the protocol it used.
  const withProtocol = (nextHopProtocol) => {
    const { env, requests } = fakeEnvironment();
    const filed = [];
    env.performance = {
      getEntriesByType: () => requests.slice(filed.length).map((name) => ({ name, nextHopProtocol })),
      clearResourceTimings: () => filed.push(...requests.slice(filed.length)),
    };
    return env;
  };
  const books = { ...cell(1, 0), count: 5 };
  const asked = await runCell(withProtocol('http/1.1'), books, { warmup: 1, reps: 2 });
  assert.deepStrictEqual(
    asked.samples.map((s) => s.next_hop_protocol),
    ['http/1.1', 'http/1.1'],
    'every sample records the protocol used',
  );
  await assert.rejects(
    runCell(withProtocol('h2'), books, { warmup: 1, reps: 2 }),
    /books\/5\/json\/none\/scenario1\/cm0: asked for http1\.1 \(cleartext HTTP\/1\.1\), but http:\/\/lab\.test\/api\/books\?.* went over h2 over http/,
  );
  await assert.rejects(
    runCell(withProtocol('http/1.1'), { ...books, protocol: 'h2' }, { warmup: 1, reps: 2 }),
    /asked for h2 \(HTTP\/2 with TLS\), but http:\/\/lab\.test\/.* went over http1\.1$/,
  );
  await assert.rejects(
    runCell(withProtocol(''), books, { warmup: 1, reps: 2 }),
    /went over a protocol the browser did not report/,
  );
});

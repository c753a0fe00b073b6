// Warms the study server's JIT before the first cell, from Node over two keep-alive
// connections, on every object × format × compression (and sorting) path the plan measures.
// A study's server has usually just started, and its JIT takes many thousands of requests to
// settle: here, from a fresh start, a 10-Book JSON answer takes 1.45 ms (median, Node on
// loopback) after 1,000 requests, 0.55 after 5,000, and ~0.3 from 15,000 on — a millisecond that
// a browser cell of 10 objects (~5 ms) would carry if it ran first. So the warm-up is 20,000
// requests (SERVER_WARMUP=<requests> to change), mostly of up to 100 objects, every 20th of up
// to 1,000: about 20 s for the quick plan's paths, over a minute for the thesis plan's (its
// large XML answers and CM paths; run.json's server_warmup.seconds says how long it took).
// Untimed and unshaped; run.json keeps the median of its first and last thousand requests.
//
//   node experiments/server-warmup.js <base url> <paths as JSON> <requests>
// (prints the result as JSON) is the same warm-up from inside the server's network namespace
// (SHAPING=netns).

import http from 'node:http';
import { pathToFileURL } from 'node:url';
import { apiPath } from '#common/schema.js';
import { median } from '#common/stats.js';

export const WARMUP_REQUESTS = 20_000;
const CONNECTIONS = 2;
const LARGE_EVERY = 20;

/** The plan's request paths, as { small, large } lists, from its cells. */
export function warmupPaths(cells) {
  const small = new Set();
  const large = new Set();
  for (const c of cells) {
    const few = { ...c, count: Math.min(c.count, 100) };
    small.add(apiPath(few, 0));
    large.add(apiPath({ ...c, count: Math.min(c.count, 1000) }, 0));
    if (c.cm > 0) small.add(apiPath(few, c.cm));
  }
  return { small: [...small], large: [...large] };
}

/** How long the warm-up waits, in all, for a server whose computation slots another client holds. */
const BUSY_WAIT_MS = 300_000;
/** The longest single wait a 503's Retry-After is granted. */
const BUSY_RETRY_MAX_S = 5;

/** One GET: {ok: true}, or for a 503 {ok: false, retryAfterS} (its Retry-After; 1 when it names none). */
function get(agent, base, path) {
  return new Promise((resolve, reject) => {
    http
      .get(new URL(path, base), { agent }, (response) => {
        response.on('data', () => {});
        response.on('end', () => {
          if (response.statusCode === 200) resolve({ ok: true });
          else if (response.statusCode === 503) {
            const asked = Number(response.headers['retry-after'] ?? NaN);
            resolve({ ok: false, retryAfterS: Number.isFinite(asked) && asked >= 0 ? asked : 1 });
          } else reject(new Error(`the server warm-up got ${response.statusCode} for ${path}`));
        });
      })
      .on('error', reject);
  });
}

/** Sends the warm-up; returns what it did, for run.json. */
export async function warmUpServer(baseUrl, paths, requests) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const started = performance.now();
  const probeTimes = [];
  let next = 0;
  // A 503 (every computation slot and waiting place taken: another run's cells or warm-up on the
  // same server, as shards against one server have) is waited out as its Retry-After asks, and
  // counted; only a server busy for longer than BUSY_WAIT_MS in all ends the warm-up.
  let busy = 0;
  let busyMs = 0;
  const worker = async () => {
    while (next < requests) {
      const i = next++;
      const path =
        i % LARGE_EVERY === 0
          ? paths.large[(i / LARGE_EVERY) % paths.large.length]
          : paths.small[i % paths.small.length];
      for (;;) {
        const t0 = performance.now();
        const answer = await get(agent, baseUrl, path);
        if (answer.ok) {
          probeTimes.push({ i, path, ms: performance.now() - t0 });
          break;
        }
        busy++;
        const waitMs = Math.min(answer.retryAfterS, BUSY_RETRY_MAX_S) * 1000;
        busyMs += waitMs;
        if (busyMs > BUSY_WAIT_MS)
          throw new Error(
            `the server warm-up got 503 for ${path} for over ${BUSY_WAIT_MS / 1000} s: the server is busy`,
          );
        await new Promise((done) => setTimeout(done, waitMs));
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  } finally {
    agent.destroy();
  }
  // The first small path's latency at the start and at the end: how far the JIT came.
  const trackedMedian = (list) => {
    const latencies = list.filter((t) => t.path === paths.small[0]).map((t) => t.ms);
    return latencies.length ? median(latencies) : null;
  };
  probeTimes.sort((a, b) => a.i - b.i);
  return {
    requests,
    connections: CONNECTIONS,
    paths: paths.small.length + paths.large.length,
    seconds: (performance.now() - started) / 1000,
    tracked_path: paths.small[0],
    first_thousand_median_ms: trackedMedian(probeTimes.slice(0, 1000)),
    last_thousand_median_ms: trackedMedian(probeTimes.slice(-1000)),
    busy_answers: busy,
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [baseUrl, paths, requests] = process.argv.slice(2);
  console.log(JSON.stringify(await warmUpServer(baseUrl, JSON.parse(paths), Number(requests))));
}

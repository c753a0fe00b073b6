// npm run bench:load: the study server's requests/s for 10 JSON Books at 100 connections,
// unthrottled, beside nginx (Debian's) serving the very same bytes as a static file — the same
// load generator (wrk, closed loop) in the same run, the two servers alternating in rounds (A/B
// interleaved) after a warm-up of each. Prints the figures and writes them to
// results/bench/load-nginx-<UTC time>.json. Settings: BENCH_ROUNDS (default 3), BENCH_SECONDS
// (per measurement, default 10), BENCH_WARMUP_SECONDS (the longest warm-up per server, default
// 180), BENCH_CONNECTIONS (default 100). A server is warm once two successive 5-second runs
// agree within 5 %: the JVM's JIT keeps raising the study server's rate for a minute or more.
//
// Then at constant rates (Vegeta, when the setup built it): the same rates for both servers,
// BENCH_RATE_SHARES of the study server's closed-loop median (default 0.25,0.5,0.75), each a
// warm-up of 2 s and a window of BENCH_RATE_SECONDS (default 10), alternating between the servers
// in each round; per server and rate, the rate sent and answered and the latency percentiles
// from each request's due time over the window (analysis/open-loop.js), and whether the
// generator held the rate.

import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStudyServer } from '../server-process.js';
import { runWrk, wrkVersion } from '../load-testbed/wrk.js';
import { readResults, runVegeta, vegetaVersion } from '../load-testbed/vegeta.js';
import { windowFigures } from '../../analysis/open-loop.js';
import { median } from '#common/stats.js';
import { writeBenchmark } from './bench-output.js';
import { guardRun } from '../run-guard/guard.js';

// What the benchmark starts goes when it ends, however it ends (experiments/run-guard/).
await guardRun('npm run bench:load');

const LAB_PORT = Number(process.env.BENCH_LAB_PORT ?? 18124);
const NGINX_PORT = Number(process.env.BENCH_NGINX_PORT ?? 18126);
/** The constant-rate phase's warm-up before each window, in seconds. */
const RATE_WARMUP_S = 2;
const PATH = '/api/books?count=10&format=json';
const NGINX = '/usr/sbin/nginx';
const whole = (name, fallback) => {
  const value = process.env[name] === undefined ? fallback : Number(process.env[name]);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`${name}=${process.env[name]}: a whole number ≥ 1, please`);
  return value;
};

/** nginx's version line (it prints it on standard error), or null when it is not installed. */
function nginxVersion() {
  const result = spawnSync(NGINX, ['-v'], { encoding: 'utf8' });
  return result.error ? null : `${result.stderr}${result.stdout}`.trim() || null;
}

/** nginx in the foreground with its own prefix: one exact location answering the saved body as application/json. */
async function startNginx(directory, bodyFile) {
  const config = join(directory, 'nginx.conf');
  writeFileSync(
    config,
    `daemon off;
worker_processes auto;
pid ${directory}/nginx.pid;
error_log ${directory}/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  keepalive_timeout 75s;
  client_body_temp_path ${directory}/body;
  server {
    listen 127.0.0.1:${NGINX_PORT};
    location = /api/books { default_type application/json; alias ${bodyFile}; }
  }
}
`,
  );
  const server = spawn(NGINX, ['-p', directory, '-c', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let said = '';
  server.stderr.on('data', (d) => {
    said += d;
  });
  for (let i = 0; i < 100; i++) {
    try {
      const response = await fetch(`http://127.0.0.1:${NGINX_PORT}${PATH}`);
      if (response.status === 200) return server;
      said = `it answers ${response.status}`;
    } catch {
      // not yet
    }
    if (server.exitCode !== null) throw new Error(`nginx stopped: ${said.trim()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  server.kill();
  throw new Error(`nginx did not answer on port ${NGINX_PORT}: ${said.trim()}`);
}

/**
 * The constant-rate phase: each rate on both servers in every round (the order alternating), a
 * warm-up then the measured window, both Vegeta's. Null (and a note) without Vegeta.
 */
async function constantRatePhase(servers, labClosedLoopRate, rounds, directory) {
  if (!vegetaVersion()) {
    console.log('No constant-rate phase: Vegeta is not installed (bash scripts/setup.sh builds it with Go).');
    return null;
  }
  const shares = (process.env.BENCH_RATE_SHARES ?? '0.25,0.5,0.75').split(',').map(Number);
  if (!shares.every((share) => share > 0 && share <= 10))
    throw new Error(
      `BENCH_RATE_SHARES=${process.env.BENCH_RATE_SHARES}: shares of the closed-loop rate, like 0.25,0.5`,
    );
  const seconds = whole('BENCH_RATE_SECONDS', 10);
  const rates = shares.map((share) => Math.max(1, Math.round(share * labClosedLoopRate)));
  const runs = [];
  let index = 0;
  for (let round = 1; round <= rounds; round++) {
    for (const rate of rates) {
      for (const name of round % 2 ? ['lab', 'nginx'] : ['nginx', 'lab']) {
        index++;
        const attack = (phase, duration) => {
          const output = join(directory, `rate-${index}-${phase}.gob`);
          const run = runVegeta({
            url: servers[name],
            ratePerS: rate,
            seconds: duration,
            timeoutS: 30,
            name: `${name}-${phase}`,
            output,
          });
          return { output, done: run.done };
        };
        const warmup = attack('warmup', RATE_WARMUP_S);
        await new Promise((resolve) => setTimeout(resolve, RATE_WARMUP_S * 1000));
        const window = attack('window', seconds);
        const [, ran] = await Promise.all([warmup.done, window.done]);
        const figures = windowFigures(readResults([window.output]), { ratePerS: rate, windowS: seconds });
        delete figures.histogram;
        runs.push({ round, server: name, rate_per_s: rate, vegeta_cpu_s: ran.cpu_s, ...figures });
        console.log(
          `  round ${round} ${name.padEnd(5)} ${rate} req/s: sent ${figures.sent_per_s.toFixed(0)}/s, ` +
            `p50 ${figures.latency_ms.p50?.toFixed(1)} ms, p99 ${figures.latency_ms.p99?.toFixed(1)} ms ` +
            `from the due time, ${figures.errors} errors, ${figures.non_2xx} non-2xx`,
        );
      }
    }
  }
  const summary = rates.map((rate) => {
    const of = (name) => runs.filter((r) => r.server === name && r.rate_per_s === rate);
    const percentiles = (name) => ({
      p50: median(of(name).map((r) => r.latency_ms.p50)),
      p99: median(of(name).map((r) => r.latency_ms.p99)),
    });
    return {
      rate_per_s: rate,
      lab: percentiles('lab'),
      nginx: percentiles('nginx'),
      generator_held: runs.filter((r) => r.rate_per_s === rate).every((r) => r.generator_kept_up),
    };
  });
  return { shares, rates, seconds, warmup_s: RATE_WARMUP_S, runs, summary };
}

async function main() {
  const rounds = whole('BENCH_ROUNDS', 3);
  const seconds = whole('BENCH_SECONDS', 10);
  const connections = whole('BENCH_CONNECTIONS', 100);
  const warmupSeconds = whole('BENCH_WARMUP_SECONDS', 180);
  const tool = wrkVersion();
  const nginx = nginxVersion();
  if (!tool || !nginx) {
    const missing = [!tool && 'wrk', !nginx && 'nginx'].filter(Boolean).join(' and ');
    throw new Error(
      `this benchmark needs ${missing}: ` +
        "run `bash scripts/setup.sh` as root (it installs Debian's wrk and nginx-light)",
    );
  }
  const directory = mkdtempSync(join(tmpdir(), 'rtl-nginx-'));
  // nginx's workers run as nobody when started by root: they must be able to read the file.
  chmodSync(directory, 0o755);
  mkdirSync(join(directory, 'body'));
  const lab = await startStudyServer({
    port: LAB_PORT,
    options: ['-Ddw.dataset.size=1000', '-Ddw.dataset.directory=server/target/bench-load-data'],
  });
  let nginxProcess;
  try {
    const body = Buffer.from(await (await fetch(`${lab.url}${PATH}`)).arrayBuffer());
    const bodyFile = join(directory, 'books-10.json');
    writeFileSync(bodyFile, body, { mode: 0o644 });
    nginxProcess = await startNginx(directory, bodyFile);
    const served = Buffer.from(await (await fetch(`http://127.0.0.1:${NGINX_PORT}${PATH}`)).arrayBuffer());
    if (!served.equals(body)) throw new Error('nginx does not serve the same bytes as the study server');
    const servers = { lab: `http://127.0.0.1:${LAB_PORT}${PATH}`, nginx: `http://127.0.0.1:${NGINX_PORT}${PATH}` };
    const threads = 2;
    const measure = async (name, duration) =>
      await runWrk({ url: servers[name], connections, threads, seconds: duration, timeoutS: 10 }).done;
    const warmups = {};
    for (const name of Object.keys(servers)) {
      const rates = [];
      while (rates.length * 5 < warmupSeconds) {
        const { summary } = await measure(name, 5);
        rates.push(summary.requests / summary.duration_s);
        if (rates.length >= 2 && Math.abs(rates.at(-1) / rates.at(-2) - 1) <= 0.05) break;
      }
      warmups[name] = rates;
      console.log(`Warmed ${name} up: ${rates.map((r) => r.toFixed(0)).join(' → ')} req/s in 5-second runs`);
    }
    const runs = [];
    for (let round = 1; round <= rounds; round++) {
      const order = round % 2 ? ['lab', 'nginx'] : ['nginx', 'lab'];
      for (const name of order) {
        const result = await measure(name, seconds);
        const { summary } = result;
        const errors =
          summary.errors.connect +
          summary.errors.read +
          summary.errors.write +
          summary.errors.timeout +
          summary.errors.status;
        runs.push({
          round,
          server: name,
          requests_per_s: summary.requests / summary.duration_s,
          requests: summary.requests,
          errors,
          latency_ms: summary.latency_ms,
          wrk_cpu_cores: result.cpu_s === null ? null : result.cpu_s / summary.duration_s,
        });
        console.log(
          `  round ${round} ${name.padEnd(5)} ${(summary.requests / summary.duration_s).toFixed(0)} req/s, ` +
            `p99 ${summary.latency_ms.p99.toFixed(1)} ms, ${errors} errors`,
        );
      }
    }
    const medianRate = (name) => median(runs.filter((r) => r.server === name).map((r) => r.requests_per_s));
    const constantRate = await constantRatePhase(servers, medianRate('lab'), rounds, directory);
    const figures = {
      body_bytes: body.length,
      connections,
      threads,
      seconds,
      max_warmup_seconds: warmupSeconds,
      warmups,
      rounds,
      runs,
      median_requests_per_s: { lab: medianRate('lab'), nginx: medianRate('nginx') },
      lab_share_of_nginx: medianRate('lab') / medianRate('nginx'),
      constant_rate: constantRate,
    };
    const file = writeBenchmark(
      'load-nginx',
      {
        tool,
        constant_rate_tool: vegetaVersion(),
        nginx,
        path: PATH,
        note: 'unthrottled loopback, both servers on this machine, wrk alternating between them',
      },
      figures,
    );
    console.log(`10 JSON Books (${body.length} bytes), ${connections} connections, ${rounds} × ${seconds} s each:`);
    console.log(`  study server: ${medianRate('lab').toFixed(0)} req/s (median)`);
    console.log(`  nginx static: ${medianRate('nginx').toFixed(0)} req/s (median)`);
    console.log(`  the study server serves ${(figures.lab_share_of_nginx * 100).toFixed(0)} % of nginx's rate.`);
    for (const row of constantRate?.summary ?? []) {
      console.log(
        `  at ${row.rate_per_s} req/s: study server p50/p99 ${row.lab.p50.toFixed(1)}/${row.lab.p99.toFixed(1)} ms, ` +
          `nginx ${row.nginx.p50.toFixed(1)}/${row.nginx.p99.toFixed(1)} ms (medians over rounds, from the due time)` +
          (row.generator_held ? '' : '; the generator did not always hold the rate'),
      );
    }
    console.log(`Figures: ${file}`);
  } finally {
    nginxProcess?.kill();
    lab.stop();
    rmSync(directory, { recursive: true, force: true });
  }
}

try {
  await main();
} catch (error) {
  console.error(`error: ${error.message}`);
  process.exit(1);
}

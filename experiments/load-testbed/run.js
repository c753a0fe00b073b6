#!/usr/bin/env node
// npm run load: the load testbed of the related study (docs/method.md). The study server runs in
// one network namespace and wrk in another, joined by the study's veth pair
// (experiments/network/netns.js); each direction of the link is a tc token bucket at the cell's
// bandwidth (burst 32 kbit, latency 50 ms, the rate counting every byte on the wire, as the
// testbed shaped it), at the direction's receiving
// end, so that what the bucket drops is lost on the link (netns.js shapeRates says why). Each
// cell keeps `connections` persistent connections busy — GET of N objects in a format, or POST
// of N objects to the ingest endpoint — for a warm-up, then a measured window (duration_s,
// longer where one request per connection takes longer than duration_s / waves at the link's
// rate).
//
// Over the window it reads, outside wrk: requests answered (the server's own response counters,
// 2xx and the rest), bytes on the wire both ways, sent and delivered (the kernel's counters), the
// CPU time of the server's JVM (/proc) and its memory. The server runs with the plan's maximum heap
// and idle timeout: on a slow, overloaded link TCP's retransmission backoff can leave an upload
// silent for longer than Jetty's default 30 s, and the testbed measures throughput, not how a
// server sheds slow clients. wrk adds its latency percentiles and errors over its
// whole run, and its own CPU time. One line per cell and round in cells.jsonl, context in
// run.json; a run killed at any point resumes with RUN_DIR=<its directory> from the next cell.
//
// A plan with "open_loop" then searches, in the same cell, for the highest constant rate the
// server sustains (Vegeta in the client's namespace; analysis/open-loop.js: latency from each
// request's due time, the search). Each probe is a warm-up and a measured window on the cell's
// link, with a responsiveness check of the server half-way and, after it, the server freed (its
// connections closed, its requests in progress ended); Vegeta's raw results of every probe stay
// in open-loop/ in the run directory. What the run starts and makes is stopped and removed when
// its process ends, however it ends (experiments/run-guard/).
//
// Settings (environment): PLAN (a name in experiments/load-testbed/plans, or a path; default testbed),
// RUN_DIR, SEED (default 1), LOAD_PORT (the server's port inside its namespace, default 8080),
// RTL_NETNS (the namespaces' name, default rtl-load), SERVER_OPTS (more -Ddw options).

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, statSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { appendSynced, defaultRunDirectory, readJsonLines, writeAtomically } from '#common/run-directory.js';
import { FORMAT_ENTRIES } from '#common/catalogue.js';
import { loadGroups, loadLoadPlan, visitOrder } from './load-plan.js';
import { CLOCK_TICKS, runWrk, wrkVersion } from './wrk.js';
import { readResults, runVegeta, vegetaReport, vegetaVersion } from './vegeta.js';
import { nextRate, probeVerdict, windowFigures } from '../../analysis/open-loop.js';
import { gitState } from '../git-state.js';
import { TLS_CERTIFICATE } from '#common/browsers/tls-certificate.js';
import { protocolLabel } from '#common/protocols.js';
import { guardRun } from '../run-guard/guard.js';

process.env.RTL_NETNS ??= 'rtl-load';
const netns = await import('../network/netns.js');

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** An HTTP request's headers and framing beside its body, for the window's first estimate only. */
const HEADER_ALLOWANCE_BYTES = 400;
const RESPONSE_METERS = ['1xx', '2xx', '3xx', '4xx', '5xx'];
/** A check request the loaded server does not answer within this is recorded as unanswered. */
const RESPONSIVE_WITHIN_S = 10;
/** The fewest requests a probe's window is asked for: the search goes no lower. */
const MIN_WINDOW_REQUESTS = 10;
/** How long after a probe the server's requests in progress may take to end. */
const FREE_WITHIN_S = 10;
/**
 * The server's limit of Jetty's HTTP/2 flood protection for the testbed's runs
 * (tls.h2MaxRateControlledEventsPerSecond, docs/protocols.md#flood-protection), above any rate of
 * counted frames a probe makes: Go's HTTP/2 client (Vegeta's) sends, per request, a WINDOW_UPDATE
 * frame for each 4 KiB or more of the answer it read, and those for a stream the server has
 * already closed count. That is at most one per request at the search's highest rate (max_per_s,
 * 20,000 by default), or one per 4 KiB at 1 Gbit/s (about 30,500 a second). Under Jetty's default
 * (128 a second per connection) an HTTP/2 probe's connection ends, from a few hundred requests a
 * second, with GOAWAY ENHANCE_YOUR_CALM: the rate found would be the guard's, not the server's.
 */
export const LOAD_H2_MAX_RATE_CONTROLLED_EVENTS_PER_S = 1_000_000;

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
const now = () => performance.now();
const formatDuration = (seconds) =>
  seconds >= 60
    ? `${Math.floor(seconds / 60)}m${String(Math.round(seconds % 60)).padStart(2, '0')}s`
    : `${Math.round(seconds)}s`;

function settingsFromEnvironment(env = process.env) {
  const seed = env.SEED === undefined ? 1 : Number(env.SEED);
  if (!Number.isSafeInteger(seed)) throw new Error(`SEED=${env.SEED}: a whole number, please`);
  const port = env.LOAD_PORT === undefined ? 8080 : Number(env.LOAD_PORT);
  if (!Number.isInteger(port) || port < 1024 || port > 65534)
    throw new Error(`LOAD_PORT=${env.LOAD_PORT}: a port from 1024 to 65534 (the admin port is the next one)`);
  const plan = loadLoadPlan(env.PLAN ?? 'testbed');
  const runDir = resolve(env.RUN_DIR ?? defaultRunDirectory(ROOT, plan.name));
  return { seed, port, plan, runDir };
}

/** The JVM's CPU seconds (user + system) and resident memory, from /proc. */
function processUsage(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return {
    cpu_s: (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS,
    rss_bytes: rss ? Number(rss[1]) * 1024 : null,
  };
}

/** The JVM behind the server's process id (ip netns exec and mvn exec into it; else its child). */
function jvmPid(pid) {
  const comm = (p) => readFileSync(`/proc/${p}/comm`, 'utf8').trim();
  if (comm(pid) === 'java') return pid;
  const children = execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map(Number);
  for (const child of children) if (comm(child) === 'java') return child;
  throw new Error(`no JVM found under the server's process ${pid}`);
}

/** Reads a URL from inside the server's namespace (its loopback: nothing crosses the shaped link). */
function serverGet(path, port, outFile) {
  const args = ['-sS', '--fail-with-body', '--max-time', '120', `http://127.0.0.1:${port}${path}`];
  if (outFile) args.push('-o', outFile);
  return netns.runInside('server', 'curl', ...args);
}

/** Runs a reading and stamps it with the middle of the time it took. */
function timed(read) {
  const start = now();
  const value = read();
  return { at: (start + now()) / 2, value };
}

/** One reading of everything the window is measured by, outside wrk; each source with its own time. */
function snapshot(adminPort, pid) {
  const link = timed(() => netns.linkCounters());
  const usage = timed(() => processUsage(pid));
  const metrics = timed(() => JSON.parse(serverGet('/metrics', adminPort)));
  const gauge = (name) => metrics.value.gauges[name]?.value ?? null;
  const responses = Object.fromEntries(
    RESPONSE_METERS.map((kind) => [
      kind,
      metrics.value.meters[`io.dropwizard.jetty.MutableServletContextHandler.${kind}-responses`]?.count ?? 0,
    ]),
  );
  return {
    link,
    usage,
    responses: { at: metrics.at, value: responses },
    heap_used_bytes: gauge('jvm.memory.heap.used'),
    heap_max_bytes: gauge('jvm.memory.heap.max'),
  };
}

/** Bodies for POST cells (and the size of every answer): the server's own GET answers, saved once per run. */
function prepareBody(runDir, cell, port) {
  const directory = join(runDir, 'bodies');
  mkdirSync(directory, { recursive: true });
  const file = join(directory, `${cell.object}-${cell.count}-${cell.format}-${cell.compression}.bin`);
  if (!existsSync(file)) {
    const query =
      `count=${cell.count}&format=${cell.format}` +
      (cell.compression === 'none' ? '' : `&compression=${cell.compression}`);
    serverGet(`/api/${cell.object}?${query}`, port, `${file}.tmp`);
    renameSync(`${file}.tmp`, file);
  }
  return { file, bytes: statSync(file).size };
}

/** The cell's request URL: on the server's address across the link, or at `origin`. */
function cellUrl(cell, port, origin = `http://${netns.LINK_ADDRESSES.server}:${port}`) {
  const base = `${origin}/api/${cell.object}`;
  if (cell.method === 'POST') return base;
  return (
    `${base}?count=${cell.count}&format=${cell.format}` +
    (cell.compression === 'none' ? '' : `&compression=${cell.compression}`)
  );
}

/**
 * The window: duration_s, or `waves` requests per connection at the link's rate when that is
 * longer; the warm-up: warmup_s, or one request per connection at the link's rate when longer.
 * wrk runs one second past the window; its timeout is twice its whole run, so that no answer,
 * however late, is left out of its latencies (wrk drops those above its timeout from its
 * histogram) and no request is counted as timed out — wrk checks its timeouts on a timer of its
 * own, which can fire a moment past the run's end, and one upload stalled by TCP's
 * retransmission backoff on a shared 1 Mbit/s link from the run's first second then counted as
 * an error. A request still unanswered when wrk stops is simply not counted.
 */
export function cellTiming(plan, bodyBytes, bandwidthMbit) {
  const perRequestS = (plan.connections * (bodyBytes + HEADER_ALLOWANCE_BYTES) * 8) / (bandwidthMbit * 1e6);
  const warmupS = Math.max(plan.warmup_s, Math.ceil(perRequestS));
  const windowS = Math.max(plan.duration_s, Math.ceil(plan.waves * perRequestS));
  const wrkS = warmupS + windowS + 1;
  return {
    per_request_s: perRequestS,
    warmup_s: warmupS,
    window_s: windowS,
    wrk_seconds: wrkS,
    timeout_s: 2 * wrkS,
  };
}

/** The cell's link: both directions at its bandwidth, every byte on the wire counted. */
const shapeCell = (cell) =>
  netns.shapeRates({ downBps: cell.bandwidth_mbit * 1e6, upBps: cell.bandwidth_mbit * 1e6, rate: 'wire' });

async function measureCell(context, cell, round, position) {
  const { plan, port, runDir, pid } = context;
  const body = prepareBody(runDir, cell, port);
  const shaping = shapeCell(cell);
  const timing = cellTiming(plan, body.bytes, cell.bandwidth_mbit);
  const totalS = timing.wrk_seconds;
  const format = FORMAT_ENTRIES[cell.format];
  const wrk = runWrk({
    prefix: ['ip', 'netns', 'exec', `${process.env.RTL_NETNS}-browser`],
    url: cellUrl(cell, port),
    connections: plan.connections,
    threads: plan.threads,
    seconds: totalS,
    timeoutS: timing.timeout_s,
    method: cell.method,
    bodyFile: body.file,
    contentType: format.media_type,
    encoding: cell.compression === 'none' ? 'identity' : cell.compression,
  });
  const started = now();
  const at = new Date().toISOString();
  await sleep(timing.warmup_s * 1000);
  const first = snapshot(port + 1, pid);
  await sleep(Math.max(0, started + (timing.warmup_s + timing.window_s) * 1000 - now()));
  const last = snapshot(port + 1, pid);
  const result = await wrk.done;
  // wrk has gone: unshaped, the link carries what is left of its connections' closes; whatever the
  // server still holds a second later lost its close on the link, and is closed here, between cells.
  netns.shapeRates({ downBps: null, upBps: null });
  await sleep(1000);
  const leftover = netns.closeServerConnections();

  // Each source's own window (they are read one after the other, some milliseconds apart).
  const seconds = (source) => (last[source].at - first[source].at) / 1000;
  const windowS = seconds('responses');
  const linkS = seconds('link');
  const responses = Object.fromEntries(
    RESPONSE_METERS.map((k) => [k, last.responses.value[k] - first.responses.value[k]]),
  );
  const delta = (side, way) => last.link.value[side][way] - first.link.value[side][way];
  const wire = {
    server_tx: delta('server', 'tx'),
    server_rx: delta('server', 'rx'),
    client_tx: delta('client', 'tx'),
    client_rx: delta('client', 'rx'),
  };
  // The direction the payload crosses — answers for GET, request bodies for POST — counted as
  // delivered through the link; what its sender put on the link beyond that, the link dropped.
  const payloadDirection = cell.method === 'GET' ? 'client_rx' : 'server_rx';
  const payloadSent = cell.method === 'GET' ? wire.server_tx : wire.client_tx;
  const linkBps = cell.method === 'GET' ? shaping.tc_down_bps : shaping.tc_up_bps;
  const requests = responses['2xx'];
  const wireBytesPerRequest = requests > 0 ? wire[payloadDirection] / requests : null;
  const serverCpuS = last.usage.value.cpu_s - first.usage.value.cpu_s;
  const cpus = os.cpus().length;
  const record = {
    cell_id: cell.id,
    group_id: context.groupId,
    round,
    position,
    session: context.session,
    at,
    cell: withoutId(cell),
    shaping,
    body_bytes: body.bytes,
    content_type: format.media_type,
    timing: { ...timing, measured_window_s: windowS },
    requests,
    requests_per_s: requests / windowS,
    responses,
    non_2xx: responses['1xx'] + responses['3xx'] + responses['4xx'] + responses['5xx'],
    wire,
    wire_window_s: linkS,
    wire_bytes_per_s: Object.fromEntries(Object.entries(wire).map(([k, v]) => [k, v / linkS])),
    payload_direction: payloadDirection,
    link_bps: linkBps,
    link_dropped_share: payloadSent > 0 ? Math.max(0, payloadSent - wire[payloadDirection]) / payloadSent : 0,
    link_utilization: (wire[payloadDirection] * 8) / linkS / linkBps,
    wire_bytes_per_request: wireBytesPerRequest,
    link_bound_requests_per_s: wireBytesPerRequest ? linkBps / 8 / wireBytesPerRequest : null,
    server_cpu: { seconds: serverCpuS, cores: serverCpuS / seconds('usage') },
    load_cpu: { seconds: result.cpu_s, cores: result.cpu_s === null ? null : result.cpu_s / result.summary.duration_s },
    machine_cpus: cpus,
    server_memory: {
      rss_bytes: Math.max(first.usage.value.rss_bytes, last.usage.value.rss_bytes),
      heap_used_bytes: last.heap_used_bytes,
      heap_max_bytes: last.heap_max_bytes,
    },
    wrk: result.summary,
    server_connections_left: leftover,
    errors: ['connect', 'read', 'write', 'timeout'].reduce((sum, k) => sum + result.summary.errors[k], 0),
  };
  if (plan.open_loop) {
    record.open_loop = await openLoopSearch({ ...context, round }, cell, body, record.requests_per_s, console.log);
  }
  return record;
}

/** The server's requests still being handled and Jetty's queued jobs (admin metrics). */
function serverLoad(adminPort) {
  const metrics = JSON.parse(serverGet('/metrics', adminPort));
  return {
    active_requests:
      metrics.counters['io.dropwizard.jetty.MutableServletContextHandler.active-requests']?.count ?? null,
    queued_jobs: metrics.gauges['org.eclipse.jetty.util.thread.QueuedThreadPool.dw.jobs']?.value ?? null,
    heap_used_bytes: metrics.gauges['jvm.memory.heap.used']?.value ?? null,
  };
}

/**
 * Whether the server answers while it is loaded: one small GET from inside its own namespace
 * (its loopback, so the shaped link is not in the way), timed by curl. {ms, status} or {error}.
 */
function responsiveness(port) {
  try {
    const said = netns.runInside(
      'server',
      'curl',
      '-sS',
      '-o',
      '/dev/null',
      '--max-time',
      String(RESPONSIVE_WITHIN_S),
      '-w',
      '%{http_code} %{time_total}',
      `http://127.0.0.1:${port}/api/books?count=1&format=json`,
    );
    const [status, seconds] = said.trim().split(' ');
    return { status: Number(status), ms: Number(seconds) * 1000 };
  } catch (error) {
    return { status: null, ms: null, error: error.message.trim().split('\n').at(-1) };
  }
}

/**
 * Frees what a probe or a measurement left: the link unshaped, a second for the closes to cross
 * it, the server's remaining connections to the client closed (ss -K), then up to FREE_WITHIN_S
 * for its requests in progress to end. Returns what was found.
 */
async function freeServer(port) {
  netns.shapeRates({ downBps: null, upBps: null });
  await sleep(1000);
  const connectionsClosed = netns.closeServerConnections();
  const deadline = now() + FREE_WITHIN_S * 1000;
  let load = serverLoad(port + 1);
  while (load.active_requests > 0 && now() < deadline) {
    await sleep(200);
    load = serverLoad(port + 1);
  }
  return { connections_closed: connectionsClosed, ...load, freed: load.active_requests === 0 };
}

/**
 * Where the constant-rate mode sends its requests over `protocol` (the plan's open_loop.protocol):
 * cleartext HTTP/1.1 to the server's address across the link; over TLS to
 * https://localhost:<the connector's port> (the name the certificate holds), connected to the
 * server's address (Vegeta's -connect-to), trusting only the set-up's certificate, with HTTP/2
 * by ALPN for h2. `served` is the server's /api/info `protocols`.
 */
export function openLoopTarget(protocol, port, served, note = null) {
  const server = netns.LINK_ADDRESSES.server;
  if (protocol === 'http1.1') return { protocol, origin: `http://${server}:${port}`, http2: null };
  const connector = served.find((p) => p.name === protocol);
  if (!connector)
    throw new Error(
      `open_loop.protocol is ${protocol}, which the server does not offer` +
        `${note ? ` (${note})` : ''}: scripts/tls-key.sh makes its key (the setup runs it)`,
    );
  return {
    protocol,
    origin: `https://localhost:${connector.port}`,
    http2: protocol === 'h2' ? 'h2' : null,
    rootCerts: TLS_CERTIFICATE,
    connectTo: `localhost:${connector.port}:${server}:${connector.port}`,
  };
}

/**
 * The HTTP version one request to `target` is answered in, from the client's namespace (curl,
 * trusting the same certificate): '1.1' or '2'. The run records it, and refuses a target that
 * does not speak its protocol.
 */
function negotiated(target) {
  const args = ['-sS', '-o', '/dev/null', '--max-time', '30', '-w', '%{http_version}'];
  if (target.protocol === 'h2') args.push('--http2');
  else args.push('--http1.1');
  if (target.rootCerts) args.push('--cacert', target.rootCerts);
  if (target.connectTo) args.push('--connect-to', target.connectTo);
  const version = netns.runInside('client', 'curl', ...args, `${target.origin}/api/books?count=1&format=json`).trim();
  const wanted = target.protocol === 'h2' ? '2' : '1.1';
  if (version !== wanted)
    throw new Error(`open_loop.protocol is ${target.protocol}, but ${target.origin} answered over HTTP/${version}`);
  return version;
}

/**
 * One probe of the constant-rate search: `generators` Vegeta processes in the client's namespace
 * share the rate; a warm-up attack, then the measured window's own attack (its results alone
 * are the window's, so `vegeta report` of those files reads exactly what was measured). Over
 * the window, the server's counters and CPU, the link, and one responsiveness check half-way.
 */
async function openLoopProbe(context, cell, body, ratePerS, probeIndex) {
  const { plan, port, pid, runDir, round, target } = context;
  const settings = plan.open_loop;
  const format = FORMAT_ENTRIES[cell.format];
  const directory = join(runDir, 'open-loop', cell.id.replace(/\//g, '_'), `round-${round}`);
  mkdirSync(directory, { recursive: true });
  const timeoutS = openLoopTimeoutS(settings);
  const headers = cell.method === 'POST' ? { 'Content-Type': format.media_type } : {};
  if (cell.method === 'POST' && cell.compression !== 'none') headers['Content-Encoding'] = cell.compression;
  const attack = (phase, seconds) =>
    Array.from({ length: settings.generators }, (_, g) => {
      const output = join(directory, `probe-${probeIndex}-${phase}-g${g + 1}.gob`);
      return {
        output,
        run: runVegeta({
          prefix: ['ip', 'netns', 'exec', `${process.env.RTL_NETNS}-browser`],
          url: cellUrl(cell, port, target.origin),
          method: cell.method,
          bodyFile: body.file,
          headers,
          http2: target.http2,
          rootCerts: target.rootCerts,
          connectTo: target.connectTo,
          ratePerS: ratePerS / settings.generators,
          seconds,
          timeoutS,
          name: `g${g + 1}`,
          output,
        }),
      };
    });
  shapeCell(cell);
  const started = now();
  const warmup = settings.warmup_s > 0 ? attack('warmup', settings.warmup_s) : [];
  await sleep(Math.max(0, started + settings.warmup_s * 1000 - now()));
  const first = snapshot(port + 1, pid);
  const windowAttack = attack('window', settings.window_s);
  await sleep(Math.max(0, started + (settings.warmup_s + settings.window_s / 2) * 1000 - now()));
  const responsive = responsiveness(port);
  await sleep(Math.max(0, started + (settings.warmup_s + settings.window_s) * 1000 - now()));
  const last = snapshot(port + 1, pid);
  const ran = await Promise.all([...warmup, ...windowAttack].map((a) => a.run.done));
  const freed = await freeServer(port);

  const files = windowAttack.map((a) => a.output);
  const figures = windowFigures(readResults(files), {
    ratePerS,
    windowS: settings.window_s,
    maxSendLagMs: settings.max_send_lag_ms,
  });
  const own = vegetaReport(files);
  const seconds = (source) => (last[source].at - first[source].at) / 1000;
  const responses = Object.fromEntries(
    RESPONSE_METERS.map((k) => [k, last.responses.value[k] - first.responses.value[k]]),
  );
  const payload = cell.method === 'GET' ? 'client' : 'server';
  const delivered = last.link.value[payload].rx - first.link.value[payload].rx;
  const linkBps = cell.bandwidth_mbit * 1e6;
  const generatorCpuS = ran.reduce((sum, r) => sum + (r.cpu_s ?? 0), 0);
  return {
    rate_per_s: ratePerS,
    verdict: probeVerdict(figures, { p99TargetMs: settings.p99_target_ms, maxSendLagMs: settings.max_send_lag_ms }),
    figures,
    vegeta_report: {
      requests: own.requests,
      rate: own.rate,
      throughput: own.throughput,
      success: own.success,
      latency_ms: Object.fromEntries(['50th', '90th', '99th', 'max'].map((k) => [k, own.latencies[k] / 1e6])),
      status_codes: own.status_codes,
    },
    server: {
      responses,
      requests_per_s: responses['2xx'] / seconds('responses'),
      cpu_cores: (last.usage.value.cpu_s - first.usage.value.cpu_s) / seconds('usage'),
      rss_bytes: Math.max(first.usage.value.rss_bytes, last.usage.value.rss_bytes),
    },
    link_utilization: (delivered * 8) / seconds('link') / linkBps,
    generator_cpu: {
      seconds: generatorCpuS,
      cores: generatorCpuS / (settings.warmup_s + settings.window_s),
    },
    responsive,
    after: freed,
    timeout_s: timeoutS,
    files: files.map((f) => relative(runDir, f)),
  };
}

/** Vegeta's timeout: ten times the latency target, at least 10 s (a later answer is an error). */
export const openLoopTimeoutS = (settings) => Math.max(10, Math.ceil((10 * settings.p99_target_ms) / 1000));

/**
 * The search over rates for one cell (analysis/open-loop.js nextRate), from start_per_s or
 * start_share × the closed-loop requests/s just measured. Returns the probes and the result.
 */
async function openLoopSearch(context, cell, body, closedLoopRps, log) {
  const settings = context.plan.open_loop;
  // A window must hold some requests for its percentiles to mean anything.
  const minPerS = Math.max(settings.min_per_s, MIN_WINDOW_REQUESTS / settings.window_s);
  const search = {
    ...settings,
    min_per_s: minPerS,
    start_per_s: settings.start_per_s ?? Math.max(minPerS, settings.start_share * closedLoopRps),
  };
  const probes = [];
  for (;;) {
    const step = nextRate(probes, search);
    if (step.done) {
      return { settings: search, probes, result: step };
    }
    const probe = await openLoopProbe(context, cell, body, step.next, probes.length + 1);
    probes.push(probe);
    const f = probe.figures;
    log(
      `    ${step.next} req/s asked: ${f.sent_per_s.toFixed(1)} sent, ${f.ok_per_s.toFixed(1)} answered 2xx, ` +
        `p99 ${f.latency_ms.p99?.toFixed(0)} ms from the due time, ${f.errors} errors, ${f.non_2xx} non-2xx, ` +
        `send lag p99 ${f.send_lag_ms.p99?.toFixed(1)} ms, server answered a check in ` +
        `${probe.responsive.ms?.toFixed(0) ?? '–'} ms → ${probe.verdict}`,
    );
  }
}

/** The cell's dimensions, without its id (the record carries that as cell_id). */
function withoutId(cell) {
  const dimensions = { ...cell };
  delete dimensions.id;
  return dimensions;
}

/** The search's result in words, for the progress line. */
const openLoopSummary = (result) =>
  result.sustained_per_s === null
    ? `no rate sustained (${result.bounded_by})`
    : `${result.sustained_per_s} req/s sustained (bounded by ${result.bounded_by})`;

/** What a resumed run must share with the run it continues. */
const resumeKey = (context) => JSON.stringify({ plan: context.plan, seed: context.seed });

async function main() {
  const settings = settingsFromEnvironment();
  const { plan, seed, port, runDir } = settings;
  const version = wrkVersion();
  if (!version)
    throw new Error(
      'the load testbed needs wrk: ' +
        "run `bash scripts/setup.sh` (as root it installs Debian's wrk), or apt-get install wrk",
    );
  const openLoopTool = plan.open_loop ? vegetaVersion() : null;
  if (plan.open_loop && !openLoopTool)
    throw new Error(
      'this plan has "open_loop", which needs Vegeta: ' +
        'run `bash scripts/setup.sh` (it builds it with Go into tools/bin)',
    );
  netns.checkNetns();
  // What the run starts (the server, wrk, Vegeta) and makes (namespaces) goes when it ends, however
  // it ends (experiments/run-guard/); what a dead run left goes first.
  await guardRun('npm run load');

  const cellsFile = join(runDir, 'cells.jsonl');
  const runFile = join(runDir, 'run.json');
  const context = existsSync(runFile)
    ? JSON.parse(readFileSync(runFile, 'utf8'))
    : { kind: 'load-testbed', plan, seed, sessions: [] };
  if (resumeKey(context) !== resumeKey({ plan, seed })) {
    throw new Error(
      `${runDir} was run with another plan or seed: resume it with the same PLAN and SEED, or choose another RUN_DIR`,
    );
  }
  mkdirSync(runDir, { recursive: true });
  const done = new Set(readJsonLines(cellsFile).map((r) => `${r.cell_id}#${r.round}`));
  const groups = loadGroups(plan);
  const visits = [];
  for (let round = 1; round <= plan.rounds; round++) {
    for (const group of groups) {
      visitOrder(group, round, seed).forEach((cell, position) => visits.push({ group, cell, round, position }));
    }
  }
  const todo = visits.filter((v) => !done.has(`${v.cell.id}#${v.round}`));
  console.log(
    `Load testbed, plan ${plan.name}: ${visits.length} cell visits (${todo.length} to do), ` +
      `${plan.connections} connections, results in ${runDir}`,
  );
  if (todo.length === 0) return runDir;

  let link;
  try {
    link = await netns.createLink({ delays: false });
    console.log('Starting the server in its namespace…');
    const server = await netns.startServerInNamespace(
      port,
      [
        `-Ddw.server.applicationConnectors[0].idleTimeout=${plan.server_idle_timeout_s}s`,
        `-Ddw.tls.h2MaxRateControlledEventsPerSecond=${LOAD_H2_MAX_RATE_CONTROLLED_EVENTS_PER_S}`,
      ],
      [`-Xmx${plan.server_heap_mb}m`],
    );
    const pid = jvmPid(server.pid);
    const info = JSON.parse(serverGet('/api/info', port));
    const target = plan.open_loop
      ? openLoopTarget(plan.open_loop.protocol, port, info.protocols ?? [], info.protocols_note)
      : null;
    const http = target ? negotiated(target) : null;
    const session = context.sessions.length + 1;
    context.sessions.push({
      session,
      started: new Date().toISOString(),
      git: gitState(),
      link: {
        ...link,
        server_tcp: server.tcp,
        shaping:
          "tc tbf at each direction's receiving end (veth ingress redirected to an ifb device), " +
          'rate counting every byte on the wire (Ethernet frames), burst 32 kbit, latency 50 ms',
      },
      load_generator: {
        tool: version,
        threads: plan.threads,
        connections: plan.connections,
        namespace: `${process.env.RTL_NETNS}-browser`,
      },
      open_loop_generator: openLoopTool
        ? {
            tool: openLoopTool,
            generators: plan.open_loop.generators,
            protocol: plan.open_loop.protocol,
            protocol_label: protocolLabel(plan.open_loop.protocol),
            origin: target.origin,
            connect_to: target.connectTo ?? null,
            // What one request was answered in (curl), before the first cell.
            http_version: http,
            namespace: `${process.env.RTL_NETNS}-browser`,
          }
        : null,
      server: {
        versions: info.versions,
        settings: info.settings,
        // Each connector's protocol and port; HTTP/2's with the flood protection's limit it ran with.
        protocols: info.protocols ?? [],
        ingest: info.ingest ?? null,
        machine: info.machine,
        port,
        idle_timeout_s: plan.server_idle_timeout_s,
        max_heap_mb: plan.server_heap_mb,
        // The user's own -Ddw options, after the testbed's: where they set the same, they won.
        server_opts: (process.env.SERVER_OPTS ?? '').split(/\s+/).filter(Boolean),
      },
      machine: {
        cpus: os.cpus().length,
        cpu_model: os.cpus()[0]?.model ?? null,
        kernel: os.release(),
        memory_bytes: os.totalmem(),
      },
      node: process.version,
    });
    writeAtomically(runFile, `${JSON.stringify(context, null, 2)}\n`);

    const startedAt = now();
    for (const [index, visit] of todo.entries()) {
      const record = await measureCell(
        { plan, port, runDir, pid, session, target, groupId: visit.group.id },
        visit.cell,
        visit.round,
        visit.position,
      );
      appendSynced(cellsFile, [record]);
      const elapsed = (now() - startedAt) / 1000;
      const left = (elapsed / (index + 1)) * (todo.length - index - 1);
      const problems = record.errors + record.non_2xx ? `  ${record.errors} errors, ${record.non_2xx} non-2xx` : '';
      const openLoop = record.open_loop ? `, open loop: ${openLoopSummary(record.open_loop.result)}` : '';
      console.log(
        `[${String(index + 1).padStart(String(todo.length).length)}/${todo.length}] ` +
          `round ${visit.round} ${visit.cell.id}: ` +
          `${record.requests_per_s.toFixed(1)} req/s, ${(record.link_utilization * 100).toFixed(0)} % of the link, ` +
          `server ${record.server_cpu.cores.toFixed(2)} cores, wrk ${record.load_cpu.cores?.toFixed(2)} cores, ` +
          `p99 ${record.wrk.latency_ms.p99.toFixed(0)} ms${problems}${openLoop}` +
          `  ~${formatDuration(left)} left`,
      );
    }
  } finally {
    await netns.stopNetnsStudy();
  }
  return runDir;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    const runDir = await main();
    const { makeLoadReport } = await import('../../analysis/load-testbed-report.js');
    const made = await makeLoadReport(runDir);
    console.log(`Report: ${made.html} (and ${made.markdown}, ${made.csv})`);
  } catch (error) {
    console.error(`error: ${error.message}`);
    process.exit(1);
  }
}

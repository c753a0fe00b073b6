// Prints what the server's encoding costs over each protocol (not a test) and writes the raw
// figures to results/bench/protocols-<UTC time>.json: npm run bench:protocols
// One server, one encoder behind every connector (docs/protocols.md): the same requests go over
// cleartext HTTP/1.1, HTTP/1.1 with TLS and HTTP/2, taking turns in rounds (the order rotating),
// each on one kept-alive connection, and the server's own Server-Timing `serialize` (the format's
// encoding) is read from every answer; a round's value per protocol is the mean of a few.
// HTTP/2's figure is a ratio of medians to HTTP/1.1's with the round bootstrap's 95 % CI: the
// HTTP/2 path should cost no more (within δ = 5 %). HTTP/2 runs over TLS only, so its ratio to
// HTTP/1.1 with TLS is given too: it tells HTTP/2's own cost from TLS's.
// Settings: BENCH_ROUNDS (default 200), BENCH_PORT (default 18130). It starts its own server on
// that port (TLS on ports the system picks), with the set-up's TLS key (tls/, scripts/tls-key.sh).

import { readFileSync } from 'node:fs';
import http from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import { TLS_CERTIFICATE } from '#common/browsers/tls-certificate.js';
import { roundRatio } from '#common/comparison.js';
import { protocolOrigins } from '#common/protocols.js';
import { median } from '#common/stats.js';
import { startStudyServer } from '../server-process.js';
import { writeBenchmark } from './bench-output.js';

const PORT = Number(process.env.BENCH_PORT ?? 18130);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);
/** Rounds the figures do not count: the JIT's first passes over each connector's path. */
const WARMUP_ROUNDS = 50;
/**
 * Bytes of a body the bench's server holds back (the study server's: 64 KiB): enough for 10,000
 * Books as JSON, so that every body below is sent whole and its serialize covers all of it.
 */
const HEAD_BYTES = 8 * 1024 * 1024;
/**
 * What is encoded, each body whole: bodies of the study server's held-back head (about 64 KiB,
 * tens of microseconds of encoding), and the study's 1,000 and 10,000 Books. Which of them decide
 * whether HTTP/2's encoding costs more is docs/benchmarks.md's to say.
 */
const BODIES = [
  {
    size: 'head',
    study_size: false,
    paths: ['/api/books?count=140&format=json', '/api/books?count=160&format=protobuf'],
  },
  {
    size: '1000',
    study_size: true,
    paths: ['/api/books?count=1000&format=json', '/api/books?count=1000&format=protobuf'],
  },
  {
    size: '10000',
    study_size: true,
    paths: ['/api/books?count=10000&format=json', '/api/books?count=10000&format=protobuf'],
  },
];
const PATHS = BODIES.flatMap((b) => b.paths);
/**
 * Requests per protocol, path and round: a round's value is their mean, finer than the 1 µs
 * step of one reading, whose median would move a small body's ratio in steps of a few per cent.
 */
const PER_VISIT = 5;
const DELTA = 0.05;
/** The HTTP/2 client's stream window (the session's is twice it). */
const WINDOW_BYTES = 16 * 1024 * 1024;

/** Server-Timing's serialize duration, in ms, which must cover the whole body. */
function serializeMs(header) {
  const entry = String(header ?? '')
    .split(',')
    .find((e) => e.trim().startsWith('serialize'));
  const duration = /dur=([\d.]+)/.exec(entry ?? '');
  if (!duration) throw new Error(`no serialize entry in Server-Timing: ${header}`);
  if (!entry.includes('desc="whole body"')) throw new Error(`serialize covers only part of the body: ${header}`);
  return Number(duration[1]);
}

/** One GET over HTTP/1.1 (cleartext or TLS) on a kept-alive agent: its Server-Timing header. */
function getHttp1(module, agent, url) {
  return new Promise((resolve, reject) => {
    module
      .get(url, { agent }, (response) => {
        response.resume();
        response.on('end', () =>
          response.statusCode === 200
            ? resolve(response.headers['server-timing'])
            : reject(new Error(`${url}: ${response.statusCode}`)),
        );
      })
      .on('error', reject);
  });
}

/** One GET on an HTTP/2 session. */
function getHttp2(session, path) {
  return new Promise((resolve, reject) => {
    const stream = session.request({ ':path': path });
    let headers;
    stream.on('response', (h) => (headers = h));
    stream.resume();
    stream.on('end', () =>
      headers?.[':status'] === 200
        ? resolve(headers['server-timing'])
        : reject(new Error(`${path}: ${headers?.[':status']}`)),
    );
    stream.on('error', reject);
  });
}

const server = await startStudyServer({
  port: PORT,
  options: [
    '-Ddw.dataset.size=10000',
    '-Ddw.dataset.directory=server/target/bench-data-protocols',
    `-Ddw.response.headBytes=${HEAD_BYTES}`,
  ],
});
try {
  const info = await (await fetch(`http://127.0.0.1:${PORT}/api/info`)).json();
  const origins = protocolOrigins(`http://localhost:${PORT}`, info.protocols);
  if (!origins.h2 || !origins['http1.1-tls']) throw new Error(`the server offers no TLS: ${info.protocols_note}`);
  const ca = readFileSync(TLS_CERTIFICATE);
  const plain = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const tls = new https.Agent({ keepAlive: true, maxSockets: 1, ca });
  // Windows as large as a browser's: with Node's default 64 KiB, the client sends so many small
  // WINDOW_UPDATE frames that Jetty's flood protection ends the session (ENHANCE_YOUR_CALM).
  const session = http2.connect(origins.h2, { ca, settings: { initialWindowSize: WINDOW_BYTES } });
  await new Promise((resolve, reject) => session.once('connect', resolve).once('error', reject));
  session.setLocalWindowSize(2 * WINDOW_BYTES);
  const get = {
    'http1.1': (path) => getHttp1(http, plain, origins['http1.1'] + path),
    'http1.1-tls': (path) => getHttp1(https, tls, origins['http1.1-tls'] + path),
    h2: (path) => getHttp2(session, path),
  };
  const protocols = Object.keys(get);
  const samples = Object.fromEntries(PATHS.map((p) => [p, Object.fromEntries(protocols.map((x) => [x, []]))]));
  for (let round = 1 - WARMUP_ROUNDS; round <= ROUNDS; round++) {
    for (let i = 0; i < protocols.length; i++) {
      const protocol = protocols[(i + round + WARMUP_ROUNDS) % protocols.length];
      for (const path of PATHS) {
        let sum = 0;
        for (let k = 0; k < PER_VISIT; k++) sum += serializeMs(await get[protocol](path));
        if (round >= 1) samples[path][protocol].push({ round, value: sum / PER_VISIT });
      }
    }
  }
  session.close();
  plain.destroy();
  tls.destroy();

  const figures = [];
  for (const path of PATHS) {
    const of = samples[path];
    const body = BODIES.find((b) => b.paths.includes(path));
    const row = { path, size: body.size, study_size: body.study_size, medians_ms: {}, ratios_to_http11: {} };
    for (const protocol of protocols) row.medians_ms[protocol] = median(of[protocol].map((s) => s.value));
    for (const protocol of protocols.slice(1)) {
      const r = roundRatio(of[protocol], of['http1.1']);
      row.ratios_to_http11[protocol] = { ratio: r.ratio, ci_low: r.ci_low, ci_high: r.ci_high, rounds: r.rounds };
    }
    row.h2_within_http11 = row.ratios_to_http11.h2.ci_high <= 1 + DELTA;
    const overTls = roundRatio(of.h2, of['http1.1-tls']);
    row.h2_to_http11_tls = {
      ratio: overTls.ratio,
      ci_low: overTls.ci_low,
      ci_high: overTls.ci_high,
      rounds: overTls.rounds,
    };
    row.h2_within_http11_tls = overTls.ci_high <= 1 + DELTA;
    row.raw = of;
    figures.push(row);
    const show = (name, r) => `${name} ${r.ratio.toFixed(3)}× (95% CI ${r.ci_low.toFixed(3)}–${r.ci_high.toFixed(3)})`;
    console.log(
      `${path}: serialize median ${protocols.map((p) => `${p} ${row.medians_ms[p].toFixed(4)} ms`).join(', ')}; ` +
        `against cleartext HTTP/1.1: ${show('http1.1-tls', row.ratios_to_http11['http1.1-tls'])}, ` +
        `${show('h2', row.ratios_to_http11.h2)}; HTTP/2 within 1 + ${DELTA}: ${row.h2_within_http11 ? 'yes' : 'no'}; ` +
        `against HTTP/1.1 with TLS: ${show('h2', row.h2_to_http11_tls)}, ` +
        `within: ${row.h2_within_http11_tls ? 'yes' : 'no'}`,
    );
  }
  const atStudySizes = figures.filter((row) => row.study_size);
  const sizes = BODIES.filter((b) => b.study_size).map((b) => `${b.size} Books`);
  const within = (key) => `${atStudySizes.filter((row) => row[key]).length} of ${atStudySizes.length}`;
  console.log(
    `At the study's sizes (${sizes.join(', ')}), HTTP/2's serialize is within 1 + ${DELTA} of cleartext ` +
      `HTTP/1.1's for ${within('h2_within_http11')} requests, ` +
      `of HTTP/1.1 with TLS's for ${within('h2_within_http11_tls')}.`,
  );
  const file = writeBenchmark(
    'protocols',
    {
      rounds: ROUNDS,
      head_bytes: HEAD_BYTES,
      bodies: BODIES,
      warmup_rounds: WARMUP_ROUNDS,
      requests_per_visit: PER_VISIT,
      delta: DELTA,
      server: info.versions,
    },
    figures,
  );
  console.log(`Figures: ${file}`);
} finally {
  server.stop();
}

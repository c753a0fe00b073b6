// Shaping the network profiles (common/network-profiles.js) through Chromium's network emulation
// (SHAPING=cdp, the default; netns.js is the kernel's), its calibration, and the network probe.

import { NETWORKS } from '#common/network-profiles.js';

export { NETWORKS };

export const SHAPING_MECHANISMS = ['cdp', 'netns'];

const cdpSessions = new WeakMap();

/**
 * Chromium's network emulation of a profile on one page (CDP takes bytes per second). `factor`
 * scales both throughputs: the run's calibration (calibrateCdp).
 */
export async function applyCdpShaping(page, name, factor = 1) {
  const profile = NETWORKS[name];
  const conditions =
    profile.downBps === null
      ? { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 }
      : {
          offline: false,
          latency: profile.rttMs,
          downloadThroughput: (profile.downBps / 8) * factor,
          uploadThroughput: (profile.upBps / 8) * factor,
        };
  // One session per page: a second session's conditions would not replace the first's. The
  // emulation works without Network.enable, which would also send an event per request to
  // Playwright, on the same cores, while the page times it.
  let cdp = cdpSessions.get(page);
  if (!cdp) {
    cdp = await page.context().newCDPSession(page);
    cdpSessions.set(page, cdp);
  }
  await cdp.send('Network.emulateNetworkConditions', conditions);
}

/** How close to the profile's rate a calibration must bring the measured throughput. */
const CALIBRATION_TOLERANCE = 0.02;
const CALIBRATION_ROUNDS = 4;
/** Chromium falls short by 1–15 % here; needing more means the real path is slower than the profile. */
const MAX_CALIBRATION_FACTOR = 1.5;

/**
 * Chromium's emulation delivers less than it is told: it hands data out in 1,500-byte packets on
 * a timer and loses part of a tick between reads (5–9 % less at 10 Mbit/s on this machine, more
 * under load). So before the first cell, a run scales the profile's throughputs by a factor
 * measured on this machine until the probe's effective throughput is within 2 % of the
 * profile's rate (at most four rounds), and uses that factor on every page. It starts from
 * `start` ({factor, from}: the last calibration's on this machine, cdp-calibration-memory.js, or
 * 1). Every round is kept in run.json; if the rounds run out, or the factor would pass 1.5 (a
 * server across a path slower than the profile), the last factor is used and the run says so
 * (within_tolerance: false). CDP_CALIBRATE=0 turns it off (factor 1: Chromium's own behaviour).
 */
export async function calibrateCdp(page, name, env = process.env, start = { factor: 1, from: null }) {
  const profile = NETWORKS[name];
  const enabled = env.CDP_CALIBRATE !== '0' && profile.downBps !== null;
  const rounds = [];
  let factor = enabled ? start.factor : 1;
  for (;;) {
    await applyCdpShaping(page, name, factor);
    const measured = await measureNetwork(page, profile.downBps);
    if (profile.downBps !== null && measured.throughput_bps === null) {
      throw new Error(
        `${name}: the throughput probe ended within the RTT (${measured.probe_seconds.join(', ')} s against ` +
          `${measured.rtt_ms} ms); no rate to calibrate against`,
      );
    }
    rounds.push({ factor, throughput_bps: measured.throughput_bps });
    const ratio = profile.downBps === null ? 1 : profile.downBps / measured.throughput_bps;
    const within = Math.abs(ratio - 1) <= CALIBRATION_TOLERANCE;
    const next = factor * ratio;
    const pathTooSlow = next > MAX_CALIBRATION_FACTOR;
    if (!enabled || within || pathTooSlow || rounds.length === CALIBRATION_ROUNDS) {
      const result = {
        calibration: enabled ? 'on' : 'off',
        factor,
        within_tolerance: within,
        tolerance: CALIBRATION_TOLERANCE,
        ...(enabled && { started_from: start }),
        rounds,
        measured,
      };
      if (enabled && !within && pathTooSlow) {
        result.note =
          `stopped: the rate would need a factor above ${MAX_CALIBRATION_FACTOR}; ` +
          'the path itself is slower than the profile';
      }
      return result;
    }
    factor = next;
  }
}

/** The throughput probe: a JSON answer of Books (~441 bytes each) that takes about 1.5 s at the
 * profile's rate, 600–3,200 Books (0.26–1.4 MB; fewer if the dataset is smaller). */
const PROBE_SECONDS = 1.5;
const PROBE_BOOKS = { min: 600, max: 3200, bytesEach: 441 };
const PROBES = 3;

/** Books in the throughput probe for a rate in bit/s (null: unthrottled). */
function probeBooks(rateBps) {
  if (rateBps === null) return PROBE_BOOKS.max;
  const books = Math.round(((rateBps / 8) * PROBE_SECONDS) / PROBE_BOOKS.bytesEach);
  return Math.min(PROBE_BOOKS.max, Math.max(PROBE_BOOKS.min, books));
}

/**
 * Measures a page's effective network: RTT as the shortest time to the headers of five 1-object
 * requests (the path's round trip and the server's least time; small answers under kernel
 * shaping can wait on a delayed ACK, which puts the median at 52 ms where the shortest is 4, and
 * subtracting the median makes 10 Mbit/s read 10.8), and throughput as the median of three
 * probes, each the answer's bytes on the wire over its time from request start to last byte
 * (Resource Timing) less that RTT, so that the request's round trip and the server's own time do
 * not count. One probe goes first, untimed: the first large answer on a new page and server path
 * runs up to 10 % slow. (The transfer phase alone, responseStart → responseEnd, misses the first
 * bytes under kernel shaping: Chromium reports the headers late by about one 64 KiB head of the
 * answer.)
 *
 * An unshaped path has no link rate to measure: its largest probe (1.4 MB) is over in a few
 * milliseconds, mostly the server's and the browser's work, so less the RTT it says nothing
 * about a link. There `throughput_bps` is null and `at_least_bps` gives what the probes prove:
 * their bytes over their whole time.
 */
export async function measureNetwork(page, rateBps = null) {
  return page.evaluate(
    async ({ books, probes, shaped }) => {
      const info = await (await fetch('/api/info', { cache: 'no-store' })).json();
      const count = Math.min(books, info.dataset.size);
      const url = (n) => `/api/books?count=${n}&format=json&compression=none&cm=0`;
      const rtts = [];
      for (let i = 0; i < 5; i++) {
        const t0 = performance.now();
        const response = await fetch(url(1), { cache: 'no-store' });
        rtts.push(performance.now() - t0);
        await response.arrayBuffer();
      }
      const rtt = Math.min(...rtts);
      const runs = [];
      for (let i = 0; i <= probes; i++) {
        performance.clearResourceTimings();
        const sent = performance.now();
        const response = await fetch(url(count), { cache: 'no-store' });
        if (response.status !== 200) throw new Error(`the network probe got ${response.status} for ${url(count)}`);
        await response.arrayBuffer();
        // The probe's own entry: entries land asynchronously, so the timeline's last one can be a
        // 1-object request's, arriving late (an unthrottled probe would read "1,032 bytes").
        const name = new URL(url(count), location.href).href;
        let entry = null;
        for (let waited = 0; waited <= 2000 && !entry; waited += 10) {
          entry = performance.getEntriesByName(name, 'resource').find((e) => e.startTime >= sent) ?? null;
          if (!entry) await new Promise((resolve) => setTimeout(resolve, 10));
        }
        if (!entry) throw new Error(`the network probe's Resource Timing entry for ${name} never arrived`);
        const seconds = (entry.responseEnd - entry.requestStart) / 1000;
        const transferS = seconds - rtt / 1000;
        if (i > 0) {
          runs.push({
            seconds,
            throughput_bps: shaped && transferS > 0 ? (entry.transferSize * 8) / transferS : null,
            at_least_bps: (entry.transferSize * 8) / seconds,
            bytes: entry.transferSize,
          });
        }
      }
      const middle = (values) =>
        values.includes(null) ? null : values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
      return {
        rtt_ms: rtt,
        rtt_samples_ms: rtts,
        throughput_bps: middle(runs.map((r) => r.throughput_bps)),
        at_least_bps: middle(runs.map((r) => r.at_least_bps)),
        probe_transfer_size: runs[0].bytes,
        probe_seconds: runs.map((r) => r.seconds),
        probe_throughputs_bps: runs.map((r) => r.throughput_bps),
      };
    },
    { books: probeBooks(rateBps), probes: PROBES, shaped: rateBps !== null },
  );
}

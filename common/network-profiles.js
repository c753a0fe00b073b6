// The network profiles a cell can be measured on: the source study's two networks and the usual
// presets, with their published throughput and round-trip time. Throughputs are bits per second,
// as published. How each is shaped (Chromium's emulation or the kernel's) lives in
// experiments/network/.

const MBIT = 1_000_000;
const KBIT = 1_000;

export const NETWORKS = Object.freeze({
  unthrottled: { title: 'Unthrottled (loopback)', downBps: null, upBps: null, rttMs: 0, source: 'no shaping' },
  '10mbit': {
    title: '10 Mbit/s full duplex',
    downBps: 10 * MBIT,
    upBps: 10 * MBIT,
    rttMs: 0,
    source: 'the source study',
  },
  // Chrome DevTools presets (devtools-frontend core/sdk/NetworkManager.ts): nominal figures with
  // DevTools' own derating, 0.9 × throughput and a latency multiplier.
  'slow-4g': {
    title: 'DevTools Slow 4G',
    downBps: 1.6 * MBIT * 0.9,
    upBps: 750 * KBIT * 0.9,
    rttMs: 150 * 3.75,
    source: 'Chrome DevTools Slow4GConditions',
  },
  'fast-4g': {
    title: 'DevTools Fast 4G',
    downBps: 9 * MBIT * 0.9,
    upBps: 1.5 * MBIT * 0.9,
    rttMs: 60 * 2.75,
    source: 'Chrome DevTools Fast4GConditions',
  },
  // WebPageTest connectivity profiles.
  '3g': { title: 'WebPageTest 3G', downBps: 1.6 * MBIT, upBps: 768 * KBIT, rttMs: 300, source: 'WebPageTest 3G' },
  cable: { title: 'WebPageTest Cable', downBps: 5 * MBIT, upBps: 1 * MBIT, rttMs: 28, source: 'WebPageTest Cable' },
  lte: { title: 'WebPageTest LTE', downBps: 12 * MBIT, upBps: 12 * MBIT, rttMs: 70, source: 'WebPageTest LTE' },
});

/** The profiles' names, in order: the values of a cell's network. */
export const NETWORK_NAMES = Object.freeze(Object.keys(NETWORKS));

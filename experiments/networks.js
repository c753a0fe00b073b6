// Network profiles: the source study's two networks and the usual presets, with their published
// throughput and round-trip time. Applied per page through Chromium's network emulation
// (SHAPING=cdp, the default). Throughputs are bits per second, as published.

const MBIT = 1_000_000;
const KBIT = 1_000;

export const NETWORKS = Object.freeze({
  unthrottled: { title: 'Unthrottled (loopback)', downBps: null, upBps: null, rttMs: 0, source: 'no shaping' },
  '10mbit': { title: '10 Mbit/s full duplex', downBps: 10 * MBIT, upBps: 10 * MBIT, rttMs: 0,
    source: 'the source study (SPEC §6)' },
  // Chrome DevTools presets (devtools-frontend core/sdk/NetworkManager.ts): nominal figures with
  // DevTools' own derating, 0.9 × throughput and a latency multiplier.
  'slow-4g': { title: 'DevTools Slow 4G', downBps: 1.6 * MBIT * 0.9, upBps: 750 * KBIT * 0.9, rttMs: 150 * 3.75,
    source: 'Chrome DevTools Slow4GConditions' },
  'fast-4g': { title: 'DevTools Fast 4G', downBps: 9 * MBIT * 0.9, upBps: 1.5 * MBIT * 0.9, rttMs: 60 * 2.75,
    source: 'Chrome DevTools Fast4GConditions' },
  // WebPageTest connectivity profiles.
  '3g': { title: 'WebPageTest 3G', downBps: 1.6 * MBIT, upBps: 768 * KBIT, rttMs: 300, source: 'WebPageTest 3G' },
  cable: { title: 'WebPageTest Cable', downBps: 5 * MBIT, upBps: 1 * MBIT, rttMs: 28, source: 'WebPageTest Cable' },
  lte: { title: 'WebPageTest LTE', downBps: 12 * MBIT, upBps: 12 * MBIT, rttMs: 70, source: 'WebPageTest LTE' },
});

export const SHAPING_MECHANISMS = ['cdp', 'netns'];

/** Chromium's network emulation of a profile on one page (CDP takes bytes per second). */
export async function applyCdpShaping(page, name) {
  const profile = NETWORKS[name];
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', profile.downBps === null
    ? { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 }
    : { offline: false, latency: profile.rttMs, downloadThroughput: profile.downBps / 8, uploadThroughput: profile.upBps / 8 });
  return cdp;
}

/** Books in the throughput probe: about 1.4 MB of JSON (fewer if the dataset is smaller). */
const PROBE_BOOKS = 3200;

/**
 * Measures a page's effective network: RTT as the median time to the headers of five 1-object
 * requests, and throughput as the probe answer's bytes on the wire over its transfer phase
 * (Resource Timing responseStart → responseEnd), so that the server's own time does not count.
 */
export async function measureNetwork(page) {
  return page.evaluate(async (probeBooks) => {
    const info = await (await fetch('/api/info', { cache: 'no-store' })).json();
    const count = Math.min(probeBooks, info.dataset.size);
    const url = (n) => `/api/books?count=${n}&format=json&compression=none&cm=0`;
    const rtts = [];
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      const response = await fetch(url(1), { cache: 'no-store' });
      rtts.push(performance.now() - t0);
      await response.arrayBuffer();
    }
    performance.clearResourceTimings();
    const response = await fetch(url(count), { cache: 'no-store' });
    if (response.status !== 200) throw new Error(`the network probe got ${response.status} for ${url(count)}`);
    await response.arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, 0));
    const entry = performance.getEntriesByType('resource').at(-1);
    const transferSeconds = (entry.responseEnd - entry.responseStart) / 1000;
    rtts.sort((a, b) => a - b);
    return { rtt_ms: rtts[2], throughput_bps: (entry.transferSize * 8) / transferSeconds,
      probe_transfer_size: entry.transferSize, probe_transfer_seconds: transferSeconds,
      probe_total_seconds: (entry.responseEnd - entry.startTime) / 1000 };
  }, PROBE_BOOKS);
}

// Plans over protocols, end to end against a real server: each group opened at its protocol's
// connector (TLS, HTTP/2, HTTP/3) and every sample gone over it, with Chromium's emulation
// throttling HTTP/3 too; and Firefox's HTTP/3 cells over QUIC under a host name of their own.
// Nothing here checks a time against a bound that load could break (only answers no faster than
// the link), so npm test runs this file beside others (scripts/test.sh).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { serverForTests } from './server-runs.js';
import { H3_AT_10MBIT, testPort } from './test-resources.js';

const { baseUrl: BASE_URL, serverInfo, runPlan } = serverForTests(testPort(18110, 22));

test('a plan over protocols opens each group at its connector, and every sample went over its protocol', async () => {
  const info = await serverInfo();
  const h3 = info.protocols.some((p) => p.name === 'h3');
  // Only a missing QUIC library (scripts/quiche.sh) excuses a server without h3.
  if (!h3) assert.match(info.protocols_note, /^no h3 connector: the QUIC library .* is missing/);
  const plan = {
    name: 'protocols-smoke',
    protocol: { warmup: { iterations: 1 }, rounds: { iterationsPerVisit: 1, minRounds: 2, maxRounds: 2 }, stop: null },
    groups: [
      {
        name: 'each protocol',
        scenarios: [1],
        cms: [0],
        objects: ['books'],
        formats: ['json', 'protobuf'],
        compressions: ['none', 'zstd'],
        counts: [10],
        networks: ['unthrottled'],
        protocols: h3 ? 'all' : ['http1.1', 'http1.1-tls', 'h2'],
      },
      // Chromium's emulation throttles HTTP/3 too: no answer faster than 10 Mbit/s carries it.
      ...(h3 ? [H3_AT_10MBIT] : []),
    ],
  };
  const { context, samples, groups } = runPlan('rtl-protocols-', plan, {
    SHAPING: 'cdp',
    CDP_CALIBRATE: '0',
    SERVER_WARMUP: '100',
  });
  const protocols = h3 ? ['http1.1-tls', 'h2', 'h3'] : ['http1.1-tls', 'h2'];
  assert.deepStrictEqual(
    groups.map((g) => g.group_id).sort(),
    [
      'formats/books/10/unthrottled',
      ...protocols.map((p) => `formats/books/10/unthrottled/${p}`),
      ...(h3 ? ['formats/books/1000/10mbit/h3'] : []),
    ].sort(),
  );
  assert.equal(context.protocols.origins['http1.1'], new URL(BASE_URL).origin);
  for (const protocol of protocols) {
    assert.match(context.protocols.origins[protocol], /^https:\/\/127\.0\.0\.1:\d+$/, protocol);
    assert.equal(context.protocols.checked[protocol].cross_origin_isolated, true, protocol);
  }
  const hops = { 'http1.1': 'http/1.1', 'http1.1-tls': 'http/1.1', h2: 'h2', h3: 'h3' };
  const unthrottled = samples.filter((s) => s.network === 'unthrottled');
  assert.equal(unthrottled.length, 2 * 4 * (1 + protocols.length));
  for (const sample of samples) {
    assert.equal(sample.next_hop_protocol, hops[sample.protocol], sample.case_id);
    // zstd is advertised to secure origins: the TLS pages get it as the cleartext localhost one does.
    assert.equal(sample.content_encoding, sample.compression === 'zstd' ? 'zstd' : 'identity', sample.case_id);
  }
  const throttled = samples.filter((s) => s.network === '10mbit');
  assert.equal(throttled.length, h3 ? 2 * 2 : 0);
  for (const sample of throttled) {
    const wireMs = (sample.encoded_body_size * 8) / 10_000;
    assert.ok(sample.total_ms >= 0.9 * wireMs, `${sample.case_id}: ${sample.total_ms} ms < ${wireMs} ms`);
  }
});

test('Firefox runs HTTP/3 cells over QUIC under a host name of their own; its h2 cells stay on TCP', async () => {
  const info = await serverInfo();
  if (!info.protocols.some((p) => p.name === 'h3')) {
    assert.match(info.protocols_note, /^no h3 connector: the QUIC library .* is missing/);
    return;
  }
  const plan = {
    name: 'h3-in-firefox',
    protocol: { warmup: { iterations: 1 }, rounds: { iterationsPerVisit: 1, minRounds: 2, maxRounds: 2 }, stop: null },
    groups: [
      {
        name: 'HTTP/2 and HTTP/3',
        scenarios: [1],
        cms: [0],
        objects: ['books'],
        formats: ['json', 'protobuf'],
        compressions: ['none'],
        counts: [10, 1000],
        networks: ['unthrottled'],
        protocols: ['h2', 'h3'],
      },
    ],
  };
  const { context, samples, groups } = runPlan('rtl-h3-firefox-', plan, { BROWSER: 'firefox', SERVER_WARMUP: '100' });
  assert.equal(groups.length, 4, 'N × protocol');
  const h2Port = info.protocols.find((p) => p.name === 'h2').port;
  // BASE_URL names 127.0.0.1: Firefox's h3 pages are localhost's, at the h2 connector's port.
  assert.equal(context.protocols.origins.h2, `https://127.0.0.1:${h2Port}`);
  assert.equal(context.protocols.origins.h3, `https://localhost:${h2Port}`);
  assert.equal(context.protocols.checked.h3.next_hop_protocol, 'h3');
  assert.equal(context.protocols.checked.h3.cross_origin_isolated, true);
  assert.equal(samples.length, 2 * 2 * 2 * 2, 'format × N × protocol × round');
  for (const sample of samples) assert.equal(sample.next_hop_protocol, sample.protocol, sample.case_id);
});

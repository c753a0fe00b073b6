// The page over the server's TLS connectors (docs/protocols.md), in each engine as the lab launches
// it: the browser trusts the set-up's certificate (Chromium by its pinned key, Firefox by its
// launch profile's certificate store), so the page over HTTP/1.1 with TLS, over HTTP/2 and (in
// Chromium, launched for the h3 connector's origin) over HTTP/3 is a secure, cross-origin-isolated
// context, and a cell run there goes over the page's protocol.
import { chromium, expect, test } from '@playwright/test';
import { existsSync } from 'node:fs';
import { TLS_CERTIFICATE } from '#common/browsers/tls-certificate.js';
import { plainLaunchOptions } from '#common/browsers/chromium.js';

test.skip(!existsSync(TLS_CERTIFICATE), `no TLS certificate at ${TLS_CERTIFICATE}: run scripts/tls-key.sh`);

/** The page over `protocol` at `port` shows a secure, isolated context, and its cells go over `hop`. */
async function checkPage(page, protocol, hop, port) {
  // localhost: the name the certificate holds.
  await page.goto(`https://localhost:${port}/`);
  await page.evaluate(() => window.labReady);
  const context = await page.evaluate(() => ({
    secure: globalThis.isSecureContext,
    isolated: globalThis.crossOriginIsolated,
    lab: window.lab.context(),
  }));
  expect(context).toMatchObject({
    secure: true,
    isolated: true,
    lab: { protocol, next_hop_protocol: hop, cross_origin_isolated: true },
  });
  const result = await page.evaluate(() =>
    window.lab.runCell(
      { object: 'books', count: 10, format: 'json', compression: 'gzip', scenario: 1, cm: 0 },
      { warmup: 1, reps: 3 },
    ),
  );
  expect(result.samples).toHaveLength(3);
  for (const sample of result.samples) expect(sample.next_hop_protocol).toBe(hop);
  expect(result.case_id).toBe(`books/10/json/gzip/scenario1/cm0/${protocol}`);
}

for (const [protocol, hop] of [
  ['http1.1-tls', 'http/1.1'],
  ['h2', 'h2'],
]) {
  test(`over ${protocol} the page is secure and cross-origin isolated, and its cells go over ${hop}`, async ({
    page,
    request,
  }) => {
    const info = await (await request.get('/api/info')).json();
    const connector = info.protocols.find((p) => p.name === protocol);
    expect(connector, JSON.stringify(info.protocols)).toBeTruthy();
    await checkPage(page, protocol, hop, connector.port);
  });
}

test('over h3 the page is secure and cross-origin isolated, and its cells go over h3', async ({
  browserName,
  request,
}) => {
  test.skip(browserName !== 'chromium', 'the lab runs HTTP/3 in Chromium only (docs/engines.md)');
  const info = await (await request.get('/api/info')).json();
  const connector = info.protocols.find((p) => p.name === 'h3');
  // Only a missing QUIC library (scripts/quiche.sh) excuses a server without h3.
  if (!connector) expect(info.protocols_note).toMatch(/^no h3 connector: the QUIC library .* is missing/);
  test.skip(!connector, info.protocols_note);
  // QUIC to that origin only, as the study launches Chromium for a run with h3 cells.
  const browser = await chromium.launch(plainLaunchOptions({ quicOrigin: `localhost:${connector.port}` }));
  try {
    await checkPage(await browser.newPage(), 'h3', 'h3', connector.port);
  } finally {
    await browser.close();
  }
});

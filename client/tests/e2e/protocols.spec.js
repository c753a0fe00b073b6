// The page over the server's TLS connectors (docs/protocols.md), in each engine as the lab launches
// it: the browser trusts the set-up's certificate (Chromium by its pinned key, Firefox by its
// launch profile's certificate store), so the page over HTTP/1.1 with TLS and over HTTP/2 is a
// secure, cross-origin-isolated context, and a cell run there goes over the page's protocol.
import { expect, test } from '@playwright/test';
import { existsSync } from 'node:fs';
import { TLS_CERTIFICATE } from '#common/browsers/tls-certificate.js';

test.skip(!existsSync(TLS_CERTIFICATE), `no TLS certificate at ${TLS_CERTIFICATE}: run scripts/tls-key.sh`);

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
    // localhost: the name the certificate holds.
    await page.goto(`https://localhost:${connector.port}/`);
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
  });
}

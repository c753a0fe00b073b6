// The protocols of a study run (common/protocols.js, docs/protocols.md): where each is served
// (the server's /api/info lists its connectors), checked once in the browser before the first
// cell, recorded in run.json; and the page each comparison group opens, at its protocol's origin.

import { PROTOCOLS, protocolOrigins, protocolUsed } from '#common/protocols.js';
import { TLS_CERTIFICATE, spkiHash } from '#common/browsers/tls-certificate.js';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

/** How each engine is made to trust the server's certificate (common/browsers/), for run.json. */
export const TRUST = Object.freeze({
  chromium: "the certificate's public key, pinned at launch (--ignore-certificate-errors-spki-list)",
  firefox: "the certificate as a trust anchor in the launch profile's own NSS database (certutil)",
});

/** Why `engine` cannot trust the server's certificate here, or null when it can. */
export function trustProblem(engine, certificate = TLS_CERTIFICATE) {
  if (!existsSync(certificate))
    return `there is no TLS certificate at ${certificate}: run scripts/tls-key.sh (npm run study does)`;
  if (engine.name !== 'firefox') return null;
  try {
    execFileSync('sh', ['-c', 'command -v certutil'], { stdio: 'ignore' });
    return null;
  } catch {
    return (
      'Firefox is made to trust it with certutil, which is missing: apt-get install libnss3-tools ' +
      '(npm run study and npm test install it as root)'
    );
  }
}

/** The loopback names a page of the lab may use; both are in the certificate (scripts/tls-key.sh). */
const LOOPBACK_NAMES = ['localhost', '127.0.0.1'];

/**
 * The host name of `engine`'s h3 pages for the study at `baseUrl`: Chromium's is the base URL's,
 * its QUIC forced to the h3 port alone. Firefox sends every https origin of one host name over
 * QUIC (common/browsers/firefox.js), so its h3 pages use the other loopback name than the run's
 * other pages, at the h2 connector's port (Firefox's origin for them, reached over QUIC).
 */
export function http3Host(baseUrl, engine) {
  const host = new URL(baseUrl).hostname;
  if (engine.name !== 'firefox') return host;
  return host === '127.0.0.1' ? 'localhost' : '127.0.0.1';
}

/**
 * The origin (host:port) `engine` is to reach over QUIC, for a run with h3 cells, on the server
 * whose /api/info is `info`: its h3 pages' host name and the h3 connector's UDP port; null when
 * the server offers no h3 (the check at the start then says so).
 */
export function quicOrigin(baseUrl, info, engine = { name: 'chromium' }) {
  const h3 = (info?.protocols ?? []).find((p) => p.name === 'h3');
  return h3 ? `${http3Host(baseUrl, engine)}:${h3.port}` : null;
}

/** Why `engine` cannot run HTTP/3 cells here (the study at `baseUrl`, with `shaping`), or null when it can. */
export function http3Problem(engine, { baseUrl = 'http://localhost:8080', shaping = 'none' } = {}) {
  if (engine.name !== 'firefox') return null;
  if (shaping === 'netns') {
    return (
      'Firefox reaches HTTP/3 outside the network namespaces only: inside, the NAT that carries its ' +
      'localhost connections to the server is made for TCP, not for QUIC over UDP (docs/engines.md#http3)'
    );
  }
  if (!LOOPBACK_NAMES.includes(new URL(baseUrl).hostname)) {
    return (
      'Firefox reaches HTTP/3 under a second name of the server, which the lab has for localhost only ' +
      '(BASE_URL names localhost or 127.0.0.1; docs/engines.md#http3)'
    );
  }
  return null;
}

/**
 * The run's protocols, for run.json: each one's origin, what the server offers, how the browser
 * trusts its certificate, and, for each protocol the plan uses, what the browser negotiated on a
 * page at its origin. Throws, naming what is wrong, when the server does not offer one of them,
 * the browser cannot trust the certificate or negotiates another protocol, or the page is not a
 * secure, cross-origin-isolated context there.
 *
 * @param browser the run's browser
 * @param engine its engine (common/browsers/engines.js)
 * @param baseUrl the study's base URL (cleartext HTTP/1.1)
 * @param info the server's /api/info
 * @param cells the plan's cells
 * @param basePage a page of the lab already open and ready at `baseUrl`: the protocol served
 *   there is checked on it rather than on a page opened again
 */
export async function protocolContext(browser, engine, baseUrl, info, cells, basePage = null) {
  const origins = protocolOrigins(baseUrl, info.protocols ?? []);
  // Firefox's h3 pages: the h2 connector's origin under the name Firefox sends over QUIC.
  if (engine.name === 'firefox' && origins.h3 && origins.h2) {
    origins.h3 = `https://${http3Host(baseUrl, engine)}:${new URL(origins.h2).port}`;
  }
  const used = [...new Set(cells.map((c) => c.protocol))];
  const missing = used.filter((name) => !origins[name]);
  if (missing.length) {
    throw new Error(
      `The plan has cells over ${missing.join(', ')}, which the server at ${baseUrl} does not offer ` +
        `(${info.protocols_note ?? `it serves ${Object.keys(origins).join(', ')}`}). ` +
        '`npm run study` makes the TLS key (scripts/tls-key.sh) and builds the QUIC library ' +
        '(scripts/quiche.sh) before it starts the server.',
    );
  }
  const overTls = used.filter((name) => PROTOCOLS[name].scheme === 'https');
  const problem = overTls.length ? trustProblem(engine) : null;
  if (problem) throw new Error(`The plan has cells over ${overTls.join(', ')}, but ${problem}.`);
  const checked = {};
  for (const name of used) {
    const reuse = basePage !== null && new URL(origins[name]).origin === new URL(baseUrl).origin;
    const page = reuse ? basePage : await browser.newPage();
    try {
      if (!reuse) {
        await page.goto(new URL('/', origins[name]).href);
        await page.evaluate(() => window.labReady);
      }
      checked[name] = await page.evaluate(() => ({
        next_hop_protocol: performance.getEntriesByType('navigation')[0]?.nextHopProtocol ?? null,
        cross_origin_isolated: globalThis.crossOriginIsolated === true,
        secure_context: globalThis.isSecureContext === true,
      }));
    } catch (error) {
      throw new Error(`${engine.title} could not open the page over ${name} at ${origins[name]}: ${error.message}`, {
        cause: error,
      });
    } finally {
      if (!reuse) await page.close();
    }
    const got = protocolUsed(origins[name], checked[name].next_hop_protocol);
    if (got !== name) {
      throw new Error(`At ${origins[name]} ${engine.title} negotiated ${got}, not ${name} (${PROTOCOLS[name].label})`);
    }
    if (!checked[name].cross_origin_isolated || !checked[name].secure_context) {
      throw new Error(`The page over ${name} at ${origins[name]} is not a secure, cross-origin-isolated context`);
    }
  }
  return {
    origins,
    served: info.protocols ?? [],
    note: info.protocols_note ?? null,
    certificate_spki_sha256: existsSync(TLS_CERTIFICATE) ? spkiHash(readFileSync(TLS_CERTIFICATE, 'utf8')) : null,
    trust: TRUST[engine.name] ?? null,
    checked,
  };
}

/**
 * The page a comparison group opens: the client at its protocol's origin (run.json's), or at the
 * base URL for cleartext HTTP/1.1 in a run recorded before protocols were.
 */
export function protocolPage(context, protocol) {
  const origin = context.protocols?.origins?.[protocol];
  if (origin) return new URL('/', origin).href;
  if (protocol === 'http1.1') return '/';
  throw new Error(`This run's server offers no ${protocol} (run.json records no origin for it)`);
}

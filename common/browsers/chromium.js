// How every Playwright run here launches Chromium: Debian's package (Playwright cannot download
// browsers on this machine), with flags that keep it off a network the machine does not have,
// and that trust the study server's TLS certificate by its public key (docs/protocols.md).
// The study's runner adds its network-namespace variant (experiments/network/netns-launch.js).

import { existsSync, readFileSync } from 'node:fs';
import { TLS_CERTIFICATE, spkiHash } from './tls-certificate.js';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * The flag that makes Chromium accept the server's self-signed certificate — that one key only,
 * so the page stays a secure, cross-origin-isolated context — or none when the set-up has made
 * no certificate (then only cleartext cells can run).
 */
export function trustFlags(certificate = TLS_CERTIFICATE) {
  return existsSync(certificate)
    ? [`--ignore-certificate-errors-spki-list=${spkiHash(readFileSync(certificate, 'utf8'))}`]
    : [];
}

/** Every launch's flags, but QUIC's and the host resolver's (chromiumArgs). */
const BASE_ARGS = Object.freeze([
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
]);

/**
 * Where the study server listens when it is not in a namespace (its default interface,
 * 127.0.0.1). Chromium resolves localhost to ::1 first, and for a QUIC origin tries that one
 * address only (TCP falls back to the next), so with HTTP/3 localhost is mapped here.
 */
export const LOOPBACK_RESOLVER_RULE = 'MAP localhost 127.0.0.1';

/**
 * Chromium's flags. QUIC is off (--disable-quic) unless `quicOrigin` (host:port, the server's h3
 * connector) is given: then QUIC goes to that origin, forced (--origin-to-force-quic-on: the
 * server sends no Alt-Svc, and no TCP is tried there), and to no other, since no other origin
 * advertises it. The study sets RTL_QUIC_ORIGIN for a run with HTTP/3 cells
 * (experiments/global-setup.js). `resolverRule` maps names to addresses (netns: the server's
 * namespace); with QUIC and none given, localhost is mapped to the loopback's IPv4 address.
 */
export function chromiumArgs({ quicOrigin = process.env.RTL_QUIC_ORIGIN || null, resolverRule = null } = {}) {
  const rule = resolverRule ?? (quicOrigin ? LOOPBACK_RESOLVER_RULE : null);
  return [
    ...BASE_ARGS,
    ...(quicOrigin ? [`--origin-to-force-quic-on=${quicOrigin}`] : ['--disable-quic']),
    ...(rule ? [`--host-resolver-rules=${rule}`] : []),
    ...trustFlags(),
  ];
}

/** Chromium as it is launched outside the study's network namespaces (options: chromiumArgs). */
export function plainLaunchOptions(options = {}) {
  return { executablePath: CHROMIUM_PATH, args: chromiumArgs(options) };
}

/** The same, as this process's environment (RTL_QUIC_ORIGIN) has it when it loads this module. */
export const PLAIN_LAUNCH_OPTIONS = Object.freeze(plainLaunchOptions());

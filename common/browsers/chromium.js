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

export const CHROMIUM_ARGS = Object.freeze([
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
  ...trustFlags(),
]);

/** Chromium as it is launched outside the study's network namespaces. */
export const PLAIN_LAUNCH_OPTIONS = Object.freeze({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });

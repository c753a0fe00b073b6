// How every Playwright run here launches Chromium: Debian's package (Playwright cannot download
// browsers on this machine), with flags that keep it off a network the machine does not have,
// and that trust the study server's TLS certificate by its public key (docs/protocols.md).
// The study's runner adds its network-namespace variant (experiments/network/netns-launch.js).

import { createHash, X509Certificate } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The certificate scripts/tls-key.sh makes for the server's TLS connectors. */
export const TLS_CERTIFICATE = fileURLToPath(new URL('../../tls/localhost.pem', import.meta.url));

/**
 * The base64 SHA-256 of a PEM certificate's public key (its SubjectPublicKeyInfo): what
 * Chromium's --ignore-certificate-errors-spki-list pins.
 */
export function spkiHash(pem) {
  const spki = new X509Certificate(pem).publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(spki).digest('base64');
}

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

// The study server's TLS certificate as the browsers and other clients see it: the file the
// set-up makes (scripts/tls-key.sh, never committed) and the hash of its public key.
// (docs/protocols.md)

import { createHash, X509Certificate } from 'node:crypto';
import { fileURLToPath } from 'node:url';

/** The certificate scripts/tls-key.sh makes for the server's TLS connectors. */
export const TLS_CERTIFICATE = fileURLToPath(new URL('../../tls/localhost.pem', import.meta.url));

/**
 * The base64 SHA-256 of a PEM certificate's public key (its SubjectPublicKeyInfo): what
 * Chromium's --ignore-certificate-errors-spki-list pins, and what run.json records.
 */
export function spkiHash(pem) {
  const spki = new X509Certificate(pem).publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(spki).digest('base64');
}

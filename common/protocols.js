// The protocols a cell can reach the server over: cleartext HTTP/1.1 (the source study's),
// HTTP/1.1 over TLS, HTTP/2 over TLS and HTTP/3 over QUIC, so that a reader can tell the cost of
// TLS from the effect of HTTP/2 and of HTTP/3 (docs/protocols.md). The server offers each on its
// own connector and port (its /api/info lists them; h3's is a UDP port); a page opened at a
// protocol's origin speaks it, and Resource Timing's nextHopProtocol (the ALPN id the browser
// used) says which one a request actually went over.

export const PROTOCOLS = Object.freeze({
  'http1.1': { label: 'cleartext HTTP/1.1', scheme: 'http', alpn: 'http/1.1' },
  'http1.1-tls': { label: 'HTTP/1.1 with TLS', scheme: 'https', alpn: 'http/1.1' },
  h2: { label: 'HTTP/2 with TLS', scheme: 'https', alpn: 'h2' },
  h3: { label: 'HTTP/3 (QUIC)', scheme: 'https', alpn: 'h3' },
});

export const PROTOCOL_NAMES = Object.freeze(Object.keys(PROTOCOLS));

/** The source study's protocol, and that of every cell that names none. */
export const DEFAULT_PROTOCOL = 'http1.1';

/** A protocol in words, e.g. "HTTP/2 with TLS". */
export const protocolLabel = (name) => PROTOCOLS[name]?.label ?? name;

/** A protocol after a situation's words: "" for the default, " over HTTP/2 with TLS" otherwise. */
export const overProtocol = (name) => (name && name !== DEFAULT_PROTOCOL ? ` over ${protocolLabel(name)}` : '');

/**
 * The protocol a response came over, from its URL's scheme and its Resource Timing entry's
 * nextHopProtocol; null when the browser did not say (an entry with no nextHopProtocol).
 */
export function protocolUsed(url, nextHopProtocol) {
  if (!nextHopProtocol) return null;
  const scheme = new URL(url).protocol.replace(/:$/, '');
  const found = Object.entries(PROTOCOLS).find(([, p]) => p.scheme === scheme && p.alpn === nextHopProtocol);
  return found ? found[0] : `${nextHopProtocol} over ${scheme}`;
}

/**
 * Why a request to `url`, which the browser says went over `nextHopProtocol`, did not go over
 * `protocol`; null when it did.
 */
export function protocolProblem(protocol, url, nextHopProtocol) {
  const used = protocolUsed(url, nextHopProtocol);
  if (used === protocol) return null;
  return (
    `asked for ${protocol} (${protocolLabel(protocol)}), but ${url} went over ` +
    `${used === null ? 'a protocol the browser did not report (no nextHopProtocol)' : used}`
  );
}

/**
 * The origin of each protocol the server offers: the study's base URL for cleartext HTTP/1.1 (its
 * host name kept: "localhost", to which Chromium advertises br and zstd), and the same host at the
 * port of each TLS connector the server's /api/info lists ([{name, scheme, port}]).
 */
export function protocolOrigins(baseUrl, served = []) {
  const base = new URL(baseUrl);
  const origins = { 'http1.1': base.origin };
  for (const { name, scheme, port } of served) {
    if (name === 'http1.1' || !PROTOCOLS[name]) continue;
    origins[name] = new URL(`${scheme}://${base.hostname}:${port}`).origin;
  }
  return origins;
}

// How every Playwright run here launches Firefox: Debian's firefox-esr, driven over WebDriver
// BiDi (Playwright's moz-firefox channel; Playwright's own patched Firefox cannot be downloaded
// here). Playwright writes a profile that keeps Firefox off the network (no updates, telemetry
// or safe-browsing lists); Firefox starts through firefox-trusting.sh, which makes that profile
// trust the study server's TLS certificate (docs/protocols.md); for a run with HTTP/3 cells it is
// given the preferences that send one host name's pages over QUIC (firefoxHttp3Prefs). The
// study's runner adds its network-namespace variant (experiments/network/netns-launch.js).

import { fileURLToPath } from 'node:url';

export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

/** What Playwright starts: Firefox (FIREFOX_PATH) with the certificate in its launch profile. */
export const FIREFOX_LAUNCHER = fileURLToPath(new URL('./firefox-trusting.sh', import.meta.url));

/** Firefox as it is launched outside the study's network namespaces. */
export const PLAIN_LAUNCH_OPTIONS = Object.freeze({ channel: 'moz-firefox', executablePath: FIREFOX_LAUNCHER });

/**
 * Firefox's preferences for HTTP/3 to the server's h3 connector (docs/engines.md#http3), for
 * `quicOrigin` = host:port, the host name the run's h3 pages use and the connector's UDP port.
 * The server advertises no Alt-Svc, so Firefox's testing map gives every https origin of that host
 * the alternative `h3=:port` (a host name, not an origin: the run's other TLS pages use another
 * name, and stay on TCP). Firefox turns HTTP/3 off where a root it did not ship is trusted, which
 * the lab's certificate is in the launch profile: the last preference keeps it on.
 */
export function firefoxHttp3Prefs(quicOrigin) {
  const at = quicOrigin.lastIndexOf(':');
  return {
    'network.http.http3.enable': true,
    'network.http.http3.alt-svc-mapping-for-testing': `${quicOrigin.slice(0, at)};h3=:${quicOrigin.slice(at + 1)}`,
    'network.http.http3.disable_when_third_party_roots_found': false,
  };
}

/** Firefox outside the namespaces, with HTTP/3 to `quicOrigin` (host:port) when it is given. */
export function plainLaunchOptions({ quicOrigin = null } = {}) {
  return quicOrigin
    ? { ...PLAIN_LAUNCH_OPTIONS, firefoxUserPrefs: firefoxHttp3Prefs(quicOrigin) }
    : PLAIN_LAUNCH_OPTIONS;
}

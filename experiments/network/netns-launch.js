// How the study launches its browser (BROWSER, common/browsers/engines.js): as everywhere, or
// with SHAPING=netns inside the browser's network namespace.

import { fileURLToPath } from 'node:url';
import { chromiumArgs, plainLaunchOptions } from '#common/browsers/chromium.js';
import { engineOf } from '#common/browsers/engines.js';
import { plainLaunchOptions as firefoxLaunchOptions } from '#common/browsers/firefox.js';
import { BROWSER_RESOLVER_RULE } from './netns.js';

/**
 * With SHAPING=netns the study's browser runs inside the browser's namespace, through a wrapper,
 * and reaches the server's namespace for localhost (see netns.js): Chromium by its host-resolver
 * rule (for TCP and QUIC alike); Firefox, which always resolves localhost to its loopback, by the
 * namespace's NAT rule. Outside the namespaces both engines' QUIC follows RTL_QUIC_ORIGIN
 * (common/browsers/chromium.js, firefox.js); inside, Chromium's does, and Firefox runs no h3.
 */
export const NETNS_LAUNCH_OPTIONS = Object.freeze({
  chromium: (quicOrigin) => ({
    executablePath: fileURLToPath(new URL('./netns-chromium.sh', import.meta.url)),
    args: chromiumArgs({ quicOrigin, resolverRule: BROWSER_RESOLVER_RULE }),
  }),
  firefox: () => ({
    channel: 'moz-firefox',
    executablePath: fileURLToPath(new URL('./netns-firefox.js', import.meta.url)),
    // The NAT rule is IPv4's: without this, each new connection would try ::1 first.
    firefoxUserPrefs: { 'network.dns.disableIPv6': true },
  }),
});

/**
 * The launch options of `engine` under `shaping`, with its QUIC as `env` has it now
 * (RTL_QUIC_ORIGIN, which the study's global setup sets before it launches a browser).
 */
export function launchOptionsFor(engine, shaping, env = process.env) {
  const quicOrigin = env.RTL_QUIC_ORIGIN || null;
  if (shaping === 'netns') return NETNS_LAUNCH_OPTIONS[engine.name](quicOrigin);
  return engine.name === 'chromium' ? plainLaunchOptions({ quicOrigin }) : firefoxLaunchOptions({ quicOrigin });
}

export const launchOptions = launchOptionsFor(engineOf(), process.env.SHAPING);

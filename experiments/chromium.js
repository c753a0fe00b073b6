// How every Playwright run here launches Chromium: Debian's package (Playwright cannot download
// browsers on this machine), with flags that keep it off a network the machine does not have.

import { fileURLToPath } from 'node:url';
import { BROWSER_RESOLVER_RULE } from './network/netns.js';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];

/**
 * With SHAPING=netns the study's Chromium runs inside the browser's namespace, through a
 * wrapper, and reaches the server's namespace for localhost (see network/netns.js).
 */
export const NETNS_LAUNCH_OPTIONS = {
  executablePath: fileURLToPath(new URL('./network/netns-chromium.sh', import.meta.url)),
  args: [...CHROMIUM_ARGS, `--host-resolver-rules=${BROWSER_RESOLVER_RULE}`],
};

export const launchOptions = process.env.SHAPING === 'netns' ? NETNS_LAUNCH_OPTIONS
  : { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS };

// How the study launches Chromium: as everywhere (common/chromium.js), or with SHAPING=netns
// inside the browser's network namespace.

import { fileURLToPath } from 'node:url';
import { CHROMIUM_ARGS, CHROMIUM_PATH, PLAIN_LAUNCH_OPTIONS } from '#common/chromium.js';
import { BROWSER_RESOLVER_RULE } from './network/netns.js';

export { CHROMIUM_ARGS, CHROMIUM_PATH };

/**
 * With SHAPING=netns the study's Chromium runs inside the browser's namespace, through a
 * wrapper, and reaches the server's namespace for localhost (see network/netns.js).
 */
export const NETNS_LAUNCH_OPTIONS = {
  executablePath: fileURLToPath(new URL('./network/netns-chromium.sh', import.meta.url)),
  args: [...CHROMIUM_ARGS, `--host-resolver-rules=${BROWSER_RESOLVER_RULE}`],
};

export const launchOptions = process.env.SHAPING === 'netns' ? NETNS_LAUNCH_OPTIONS : PLAIN_LAUNCH_OPTIONS;

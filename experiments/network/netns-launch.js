// How the study launches Chromium: as everywhere (common/browsers/chromium.js), or with
// SHAPING=netns inside the browser's network namespace.

import { fileURLToPath } from 'node:url';
import { CHROMIUM_ARGS, PLAIN_LAUNCH_OPTIONS } from '#common/browsers/chromium.js';
import { BROWSER_RESOLVER_RULE } from './netns.js';

/**
 * With SHAPING=netns the study's Chromium runs inside the browser's namespace, through a
 * wrapper, and reaches the server's namespace for localhost (see netns.js).
 */
export const NETNS_LAUNCH_OPTIONS = {
  executablePath: fileURLToPath(new URL('./netns-chromium.sh', import.meta.url)),
  args: [...CHROMIUM_ARGS, `--host-resolver-rules=${BROWSER_RESOLVER_RULE}`],
};

export const launchOptions = process.env.SHAPING === 'netns' ? NETNS_LAUNCH_OPTIONS : PLAIN_LAUNCH_OPTIONS;

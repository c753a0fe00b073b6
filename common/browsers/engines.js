// The browser engines the lab runs in, chosen with BROWSER (default chromium): how Playwright
// launches each, which protocol drives it, and what only one of them offers.

import { CHROMIUM_PATH, PLAIN_LAUNCH_OPTIONS as CHROMIUM_LAUNCH } from './chromium.js';
import { FIREFOX_PATH, PLAIN_LAUNCH_OPTIONS as FIREFOX_LAUNCH } from './firefox.js';

export const ENGINES = Object.freeze({
  chromium: Object.freeze({
    name: 'chromium',
    title: 'Chromium',
    path: CHROMIUM_PATH,
    pathVariable: 'CHROMIUM_PATH',
    debianPackage: 'chromium',
    /** How Playwright talks to it: the Chrome DevTools Protocol, over a pipe. */
    protocol: 'cdp',
    /** Whether the browser can shape its own network (SHAPING=cdp). */
    emulatesNetwork: true,
    launchOptions: CHROMIUM_LAUNCH,
  }),
  firefox: Object.freeze({
    name: 'firefox',
    title: 'Firefox',
    path: FIREFOX_PATH,
    pathVariable: 'FIREFOX_PATH',
    debianPackage: 'firefox-esr',
    /** WebDriver BiDi, over a WebSocket on Firefox's loopback. */
    protocol: 'webdriver-bidi',
    emulatesNetwork: false,
    launchOptions: FIREFOX_LAUNCH,
  }),
});

export const ENGINE_NAMES = Object.freeze(Object.keys(ENGINES));

/** The engine BROWSER names (default chromium); a clear error for any other name. */
export function engineOf(env = process.env) {
  const name = env.BROWSER || 'chromium';
  const engine = ENGINES[name];
  if (!engine) throw new Error(`BROWSER=${name} is not an engine the lab runs in; use ${ENGINE_NAMES.join(' or ')}`);
  return engine;
}

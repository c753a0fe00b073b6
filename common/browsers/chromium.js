// How every Playwright run here launches Chromium: Debian's package (Playwright cannot download
// browsers on this machine), with flags that keep it off a network the machine does not have.
// The study's runner adds its network-namespace variant (experiments/network/netns-launch.js).

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = Object.freeze([
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
]);

/** Chromium as it is launched outside the study's network namespaces. */
export const PLAIN_LAUNCH_OPTIONS = Object.freeze({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });

// How every Playwright run here launches Chromium: Debian's package (Playwright cannot download
// browsers on this machine), with flags that keep it off a network the machine does not have.

import { fileURLToPath } from 'node:url';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];

/** With SHAPING=netns the study's Chromium runs inside the shaped namespace, through a wrapper. */
const NETNS_WRAPPER = fileURLToPath(new URL('./netns-chromium.sh', import.meta.url));

export const launchOptions = {
  executablePath: process.env.SHAPING === 'netns' ? NETNS_WRAPPER : CHROMIUM_PATH,
  args: CHROMIUM_ARGS,
};

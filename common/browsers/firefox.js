// How every Playwright run here launches Firefox: Debian's firefox-esr, driven over WebDriver
// BiDi (Playwright's moz-firefox channel; Playwright's own patched Firefox cannot be downloaded
// here). Playwright writes a profile that keeps Firefox off the network (no updates, telemetry
// or safe-browsing lists); the study's runner adds its network-namespace variant
// (experiments/network/netns-launch.js).

export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

/** Firefox as it is launched outside the study's network namespaces. */
export const PLAIN_LAUNCH_OPTIONS = Object.freeze({ channel: 'moz-firefox', executablePath: FIREFOX_PATH });

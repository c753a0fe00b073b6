// How every Playwright run here launches Firefox: Debian's firefox-esr, driven over WebDriver
// BiDi (Playwright's moz-firefox channel; Playwright's own patched Firefox cannot be downloaded
// here). Playwright writes a profile that keeps Firefox off the network (no updates, telemetry
// or safe-browsing lists); Firefox starts through firefox-trusting.sh, which makes that profile
// trust the study server's TLS certificate (docs/protocols.md). The study's runner adds its
// network-namespace variant (experiments/network/netns-launch.js).

import { fileURLToPath } from 'node:url';

export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

/** What Playwright starts: Firefox (FIREFOX_PATH) with the certificate in its launch profile. */
export const FIREFOX_LAUNCHER = fileURLToPath(new URL('./firefox-trusting.sh', import.meta.url));

/** Firefox as it is launched outside the study's network namespaces. */
export const PLAIN_LAUNCH_OPTIONS = Object.freeze({ channel: 'moz-firefox', executablePath: FIREFOX_LAUNCHER });

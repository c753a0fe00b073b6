// The network a measurement by hand runs on: this page's own connection to its server. A page
// cannot shape its own traffic (a network profile needs the browser's emulation or the kernel,
// as the headless study applies them), so the page names that connection beside every answer
// and gives the command that measures the study's profiles instead.

import { NETWORK_NAMES } from '#common/network-profiles.js';

/** Host names of this machine: the browser and the server on one machine. */
const LOOPBACK = /^(localhost|[^.]+\.localhost|127(\.\d{1,3}){3}|\[::1\])$/;

/** This page's connection in words: "this browser to localhost, unthrottled". */
export function connectionWords(location = globalThis.location) {
  return LOOPBACK.test(location.hostname)
    ? 'this browser to localhost, unthrottled (browser and server on one machine)'
    : `this browser to ${location.host}, over whatever network lies between them now`;
}

/** The study's network profiles that a page cannot apply to itself: all but its own, unthrottled. */
export const STUDY_PROFILES = Object.freeze(NETWORK_NAMES.filter((name) => name !== 'unthrottled'));

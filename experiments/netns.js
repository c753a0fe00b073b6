// SHAPING=netns: real kernel shaping. The study server and Chromium run inside a network
// namespace of their own and talk over its loopback, which tc shapes per cell as a full-duplex
// link: an htb qdisc sorts packets by the server's port (u32 filters) — from it (the answers)
// into one class, to it (requests and the browser's ACKs) into another, anything else into an
// unshaped third — and each class delays its packets by half the profile's RTT (netem) and
// limits them to that direction's rate with a token bucket (tbf, burst 32 kbit, latency 50 ms,
// as the SPEC §9 testbed). The rate counts whole IP packets, as a real link does, so HTTP bytes
// get ~95 % of it at this MTU. Kernels without netem (this machine kind's) can shape rates but
// not delays: a profile with an RTT is then refused before the first cell.
// Needs root, ip and tc (Debian: iproute2).

import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NETWORKS } from './networks.js';
import { STUDY_SERVER_OPTS } from './server-process.js';

export const NAMESPACE = process.env.RTL_NETNS ?? 'rtl-lab';
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SERVER_PID_FILE = join(tmpdir(), `${NAMESPACE}-server.pid`);
/** tbf's bucket and queue, as in the SPEC §9 testbed. */
const TBF = ['burst', '32kbit', 'latency', '50ms'];

function run(command, ...args) {
  return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function inNamespace(...args) {
  return run('ip', 'netns', 'exec', NAMESPACE, ...args);
}

/** Throws a clear error when this machine or user cannot shape with the kernel. */
export function checkNetns() {
  if (process.getuid?.() !== 0) {
    throw new Error('SHAPING=netns shapes with the kernel (ip netns, tc) and needs root. Run as root, or use SHAPING=cdp.');
  }
  for (const tool of ['ip', 'tc']) {
    try {
      run('sh', '-c', `command -v ${tool}`);
    } catch {
      throw new Error(`SHAPING=netns needs "${tool}" (Debian: apt-get install iproute2).`);
    }
  }
}

/** A class's queue: netem delay, then a token bucket at the rate (either may be absent). */
function shapeClass(id, rateBps, delayMs) {
  let parent = `1:${id}`;
  if (delayMs > 0) {
    inNamespace('tc', 'qdisc', 'add', 'dev', 'lo', 'parent', parent, 'handle', `${id}0:`, 'netem',
      'delay', `${delayMs}ms`, 'limit', '100000');
    parent = `${id}0:1`;
  }
  if (rateBps !== null) {
    inNamespace('tc', 'qdisc', 'add', 'dev', 'lo', 'parent', parent, 'handle', `${id}1:`, 'tbf',
      'rate', `${Math.round(rateBps)}bit`, ...TBF);
  }
}

/** Whether this kernel has netem (delays); probed once in a scratch namespace. */
let netemAvailable;
export function kernelHasNetem() {
  if (netemAvailable === undefined) {
    const scratch = `${NAMESPACE}-probe`;
    try {
      run('ip', 'netns', 'add', scratch);
      run('ip', 'netns', 'exec', scratch, 'tc', 'qdisc', 'add', 'dev', 'lo', 'root', 'netem', 'delay', '1ms');
      netemAvailable = true;
    } catch {
      netemAvailable = false;
    } finally {
      try { run('ip', 'netns', 'del', scratch); } catch { /* none */ }
    }
  }
  return netemAvailable;
}

/** Throws, naming the profiles that cannot be shaped here, before any cell runs. */
export function checkNetnsProfiles(names) {
  const delayed = names.filter((name) => NETWORKS[name].rttMs > 0);
  if (delayed.length > 0 && !kernelHasNetem()) {
    throw new Error(`SHAPING=netns cannot delay packets on this kernel (no netem qdisc), so it cannot shape `
      + `${delayed.join(', ')} (an RTT). Use SHAPING=cdp for them, or profiles without an RTT (unthrottled, 10mbit).`);
  }
}

/** Shapes the namespace's loopback for a profile (called before each cell). */
export function shapeNetns(name) {
  const profile = NETWORKS[name];
  const port = process.env.RTL_NETNS_PORT;
  if (!port) throw new Error('the netns study is not running (RTL_NETNS_PORT is not set)');
  try {
    inNamespace('tc', 'qdisc', 'del', 'dev', 'lo', 'root');
  } catch {
    // nothing to delete
  }
  if (profile.downBps === null && profile.rttMs === 0) return;
  // htb only sorts here: its classes are far faster than any profile; tbf does the shaping.
  inNamespace('tc', 'qdisc', 'add', 'dev', 'lo', 'root', 'handle', '1:', 'htb', 'default', '3', 'r2q', '100000');
  for (const id of [1, 2, 3]) {
    inNamespace('tc', 'class', 'add', 'dev', 'lo', 'parent', '1:', 'classid', `1:${id}`, 'htb', 'rate', '10gbit');
  }
  shapeClass(1, profile.downBps, profile.rttMs / 2);
  shapeClass(2, profile.upBps, profile.rttMs / 2);
  for (const [match, classId] of [['sport', '1:1'], ['dport', '1:2']]) {
    inNamespace('tc', 'filter', 'add', 'dev', 'lo', 'parent', '1:', 'protocol', 'ip', 'prio', '1', 'u32',
      'match', 'ip', match, String(port), '0xffff', 'flowid', classId);
  }
}

async function answers(port) {
  try {
    inNamespace('node', '-e', `fetch('http://127.0.0.1:${port}/api/books?count=1').then(r => process.exit(r.status === 200 ? 0 : 1), () => process.exit(1))`);
    return true;
  } catch {
    return false;
  }
}

/** Makes the namespace and starts the study server inside it (the study's global setup). */
export async function startNetnsStudy(settings) {
  checkNetns();
  const base = new URL(settings.baseUrl);
  if (!['localhost', '127.0.0.1'].includes(base.hostname)) {
    throw new Error('SHAPING=netns runs the server and the browser in one namespace: BASE_URL must be local');
  }
  const port = base.port || '80';
  process.env.RTL_NETNS_PORT = port; // the workers, started later, inherit it
  stopNetnsStudy();
  run('ip', 'netns', 'add', NAMESPACE);
  inNamespace('ip', 'link', 'set', 'lo', 'up');
  // lo's 64 KiB MTU makes tbf's 32 kbit bucket stall: use an Ethernet-sized one.
  inNamespace('ip', 'link', 'set', 'lo', 'mtu', '1500');
  const options = (process.env.SERVER_OPTS ?? '').split(/\s+/).filter(Boolean);
  const server = spawn('ip', ['netns', 'exec', NAMESPACE, 'mvn', '-B', '-q', '-ntp', 'exec:java',
    `-Ddw.server.applicationConnectors[0].port=${port}`, `-Ddw.server.adminConnectors[0].port=${Number(port) + 1}`,
    STUDY_SERVER_OPTS, ...options], { cwd: ROOT, stdio: 'ignore', detached: true });
  writeFileSync(SERVER_PID_FILE, String(server.pid));
  server.unref();
  const deadline = Date.now() + 600_000;
  while (!(await answers(port))) {
    if (Date.now() > deadline || server.exitCode !== null) throw new Error('the study server did not start inside the namespace');
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** Stops the namespace's server and removes the namespace. */
export function stopNetnsStudy() {
  if (existsSync(SERVER_PID_FILE)) {
    try {
      process.kill(-Number(readFileSync(SERVER_PID_FILE, 'utf8')), 'SIGTERM');
    } catch {
      // already gone
    }
    rmSync(SERVER_PID_FILE);
  }
  try {
    run('ip', 'netns', 'del', NAMESPACE);
  } catch {
    // there was none
  }
}

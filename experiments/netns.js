// SHAPING=netns: real kernel shaping. The study server and Chromium run inside a network
// namespace of their own and talk over its loopback, which tc shapes per cell: netem delays each
// packet by half the profile's RTT (a request and its answer each cross lo once) and a token
// bucket (tbf, burst 32 kbit, latency 50 ms) under it limits the rate. Both directions share
// lo's one queue, so the rate is the profile's download rate for requests and answers together
// (requests are a few hundred bytes). Needs root, ip and tc (Debian: iproute2).

import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NETWORKS } from './networks.js';

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

/** Shapes the namespace's loopback for a profile (called before each cell). */
export function shapeNetns(name) {
  const profile = NETWORKS[name];
  try {
    inNamespace('tc', 'qdisc', 'del', 'dev', 'lo', 'root');
  } catch {
    // nothing to delete
  }
  const rate = profile.downBps === null ? null : `${Math.round(profile.downBps)}bit`;
  const delay = profile.rttMs > 0 ? `${profile.rttMs / 2}ms` : null;
  if (delay) {
    inNamespace('tc', 'qdisc', 'add', 'dev', 'lo', 'root', 'handle', '1:', 'netem', 'delay', delay, 'limit', '100000');
    if (rate) inNamespace('tc', 'qdisc', 'add', 'dev', 'lo', 'parent', '1:1', 'handle', '10:', 'tbf', 'rate', rate, ...TBF);
  } else if (rate) {
    inNamespace('tc', 'qdisc', 'add', 'dev', 'lo', 'root', 'handle', '1:', 'tbf', 'rate', rate, ...TBF);
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
  stopNetnsStudy();
  run('ip', 'netns', 'add', NAMESPACE);
  inNamespace('ip', 'link', 'set', 'lo', 'up');
  // lo's 64 KiB MTU makes tbf's 32 kbit bucket stall: use an Ethernet-sized one.
  inNamespace('ip', 'link', 'set', 'lo', 'mtu', '1500');
  const options = (process.env.SERVER_OPTS ?? '').split(/\s+/).filter(Boolean);
  const server = spawn('ip', ['netns', 'exec', NAMESPACE, 'mvn', '-B', '-q', '-ntp', 'exec:java',
    `-Ddw.server.applicationConnectors[0].port=${port}`, `-Ddw.server.adminConnectors[0].port=${Number(port) + 1}`,
    ...options], { cwd: ROOT, stdio: 'ignore', detached: true });
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

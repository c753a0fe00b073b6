// SHAPING=netns: real kernel shaping. The study server runs in one network namespace (rtl-lab)
// and the browser in another (rtl-lab-browser), joined like two hosts on a link:
//  - a veth pair, server 10.99.0.1 ↔ browser 10.99.0.2: the path of profiles without an RTT;
//  - on kernels without netem (this machine kind's), a second path for profiles with an RTT:
//    two TUN devices and delay-line.py, which holds every packet for half the RTT in each
//    direction, as Mahimahi's delay shell does. Switching profile switches the /32 routes.
//    With netem, the delay is netem's, on the veth pair, and there is no second path.
// Each path's egress is limited by tc's token bucket (tbf, burst 32 kbit, latency 50 ms as in
// the related study's testbed (docs/method.md), or two RTTs where that is longer): the server's side at the profile's
// download rate, the browser's side at its upload rate — a full-duplex link, both ways through
// the same kernels as on a real network.
//
// The rate is a payload rate: tc counts whole packets (IPv4 + TCP headers, 52 bytes with Linux's
// default timestamps, plus a 14-byte Ethernet header on veth), so each device's token bucket runs
// at rate × packet / payload of a full-sized packet. HTTP bytes then cross at the profile's rate,
// which is what Chromium's emulation (SHAPING=cdp) throttles too, and what bytes × 8 / rate
// predicts; run.json keeps both the profile's rate and tc's.
//
// The browser asks for http://localhost:<port> and reaches the server's address — Chromium by its
// host resolver, Firefox by NAT (mapLocalhostToServer) — so the page keeps a secure,
// cross-origin-isolated context as in cdp runs.
// Needs root, ip and tc (Debian: iproute2), and python3 for the delay line.

import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NETWORKS } from './profiles.js';
import { STUDY_SERVER_OPTS } from '../server-process.js';
import { serverLaunch } from '#common/server-launch.js';
import { forgetNamespace, namespaceId, noteMade, noteNamespace } from '../run-guard/record.js';
import { stopProcesses } from '../run-guard/processes.js';

/** The server's namespace (RTL_NETNS, default rtl-lab); the browser's adds -browser. */
const NAMESPACE = process.env.RTL_NETNS ?? 'rtl-lab';
const BROWSER_NAMESPACE = `${NAMESPACE}-browser`;
const SERVER_ADDRESS = '10.99.0.1';
const BROWSER_ADDRESS = '10.99.0.2';
/** Chromium's host-resolver rule that sends the study's localhost to the server's namespace. */
export const BROWSER_RESOLVER_RULE = `MAP localhost ${SERVER_ADDRESS}`;

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const DELAY_LINE = join(ROOT, 'experiments', 'network', 'delay-line.py');
/**
 * The delay line's control socket, in the run's temporary folder: asked for when used, since the
 * run guard (experiments/run-guard/guard.js) sets TMPDIR after the runner has loaded this module,
 * and before it starts the line or its workers.
 */
const delayLineSocket = () => join(tmpdir(), `${NAMESPACE}-delay-line.sock`);
/**
 * tbf's bucket and queue, as in the related study's testbed (docs/method.md: burst 32 kbit, latency
 * 50 ms) — but a queue never shorter than two RTTs: a bottleneck buffer below one bandwidth-delay product keeps TCP
 * from filling the link (with 50 ms at Fast 4G's 165 ms RTT the probe gets 37 % of the rate), and
 * with one, slow start still overflows it at LTE's (packets lost, retransmitted).
 */
const tbfQueue = (rttMs) => ['burst', '32kbit', 'latency', `${Math.max(50, 2 * rttMs)}ms`];
const MTU = 1500;
/** IPv4 (20) + TCP with timestamps (32): the headers on every full-sized packet. */
const TCP_IP_HEADERS = 52;

/**
 * The two sides, each with its devices: the veth end, and the delay line's end. The TUN devices
 * are made in this machine's own namespace before they move, so they are named after the study's
 * namespace: two studies with different RTL_NETNS never clash (15 characters at most).
 */
const SIDES = {
  server: {
    namespace: NAMESPACE,
    veth: 'rtl-srv',
    tun: `${NAMESPACE}-s`,
    address: SERVER_ADDRESS,
    peer: BROWSER_ADDRESS,
  },
  browser: {
    namespace: BROWSER_NAMESPACE,
    veth: 'rtl-brw',
    tun: `${NAMESPACE}-b`,
    address: BROWSER_ADDRESS,
    peer: SERVER_ADDRESS,
  },
};

function run(command, ...args) {
  return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function inside(namespace, ...args) {
  return run('ip', 'netns', 'exec', namespace, ...args);
}

function quietly(action) {
  try {
    action();
  } catch {
    // nothing to undo
  }
}

/** tc's rate for a payload rate, on a device whose packets carry linkHeader bytes more. */
function tcRate(payloadBps, linkHeader) {
  return Math.round((payloadBps * (MTU + linkHeader)) / (MTU - TCP_IP_HEADERS));
}

/** Throws a clear error when this machine or user cannot shape with the kernel. */
export function checkNetns() {
  if (!/^[a-z0-9-]{1,12}$/.test(NAMESPACE)) {
    throw new Error(`RTL_NETNS=${NAMESPACE}: a namespace name of 1–12 lower-case letters, digits or dashes, please`);
  }
  if (process.getuid?.() !== 0) {
    throw new Error(
      'SHAPING=netns shapes with the kernel (ip netns, tc) and needs root. Run as root, or use SHAPING=cdp.',
    );
  }
  for (const [tool, from] of [
    ['ip', 'iproute2'],
    ['tc', 'iproute2'],
    ['python3', 'python3'],
  ]) {
    try {
      run('sh', '-c', `command -v ${tool}`);
    } catch {
      throw new Error(`SHAPING=netns needs "${tool}" (Debian: apt-get install ${from}).`);
    }
  }
  if (!existsSync('/dev/net/tun') && !kernelHasNetem()) {
    throw new Error('SHAPING=netns needs netem or /dev/net/tun to delay packets, and this machine has neither.');
  }
}

/** Whether this kernel has netem (delays); probed once in a scratch namespace. */
let netemAvailable;
function kernelHasNetem() {
  if (netemAvailable === undefined) {
    const scratch = `${NAMESPACE}-probe`;
    addNamespace(scratch);
    try {
      inside(scratch, 'tc', 'qdisc', 'add', 'dev', 'lo', 'root', 'netem', 'delay', '1ms');
      netemAvailable = true;
    } catch {
      netemAvailable = false;
    } finally {
      removeNamespace(scratch);
    }
  }
  return netemAvailable;
}

/**
 * Makes the network namespace `name`, noted in the run's record before it is made and with its
 * identity once it is (run-guard/record.js), so that nothing outlives a run killed meanwhile.
 */
function addNamespace(name) {
  if (namespaceId(name) !== null) claimNamespaces();
  noteNamespace(name);
  try {
    run('ip', 'netns', 'add', name);
  } catch (error) {
    forgetNamespace(name);
    throw error;
  }
  noteNamespace(name, namespaceId(name));
  madeHere.namespaces.push(name);
}

/** Removes a namespace this process made (its processes are gone) and forgets it. */
function removeNamespace(name) {
  quietly(() => run('ip', 'netns', 'del', name));
  forgetNamespace(name);
  madeHere.namespaces = madeHere.namespaces.filter((n) => n !== name);
}

/**
 * What this process made and started, and so stops and removes (stopNetnsStudy): never what
 * another run made under the same names.
 */
const madeHere = { namespaces: [], server: null, delayLine: null };

/**
 * Refuses to make namespaces whose names are taken: by another study running now (a run that died
 * has had its own removed when this run started, run-guard/guard.js), or made by hand.
 */
function claimNamespaces() {
  const taken = [SIDES.server.namespace, SIDES.browser.namespace, `${NAMESPACE}-probe`].filter(
    (name) => namespaceId(name) !== null,
  );
  if (taken.length) {
    throw new Error(
      `the network namespaces ${taken.join(', ')} exist already, made by a run still going or by hand, ` +
        'not by a run of this checkout that ended: set RTL_NETNS to another name, or, if nothing uses them, ' +
        'remove them (ip netns pids <name> lists what runs in one; ip netns del <name>)',
    );
  }
}

/** How this run delays packets: 'netem' or 'delay-line' (set by the study's global setup). */
function delayMechanism() {
  const mechanism = process.env.RTL_NETNS_DELAY;
  if (!mechanism) throw new Error('the netns study is not running (RTL_NETNS_DELAY is not set)');
  return mechanism;
}

/** Token bucket (and netem delay, if asked) at the root of one device. */
function shapeDevice(namespace, device, rateBps, linkHeader, delayMs, rttMs) {
  let parent = ['root'];
  if (delayMs > 0) {
    inside(
      namespace,
      'tc',
      'qdisc',
      'add',
      'dev',
      device,
      'root',
      'handle',
      '1:',
      'netem',
      'delay',
      `${delayMs}ms`,
      'limit',
      '100000',
    );
    parent = ['parent', '1:1'];
  }
  if (rateBps !== null) {
    inside(
      namespace,
      'tc',
      'qdisc',
      'add',
      'dev',
      device,
      ...parent,
      'handle',
      '2:',
      'tbf',
      'rate',
      `${tcRate(rateBps, linkHeader)}bit`,
      ...tbfQueue(rttMs),
    );
  }
}

/**
 * Shapes the link for a profile (called before each cell and each network measurement);
 * returns what was set, for the run's context.
 */
export function shapeNetns(name) {
  const profile = NETWORKS[name];
  const hasLine = delayMechanism() === 'delay-line';
  const viaLine = profile.rttMs > 0 && hasLine;
  for (const side of Object.values(SIDES)) {
    for (const device of hasLine ? [side.veth, side.tun] : [side.veth]) {
      quietly(() => inside(side.namespace, 'tc', 'qdisc', 'del', 'dev', device, 'root'));
    }
    if (viaLine) {
      inside(side.namespace, 'ip', 'route', 'replace', `${side.peer}/32`, 'dev', side.tun, 'src', side.address);
    } else {
      quietly(() => inside(side.namespace, 'ip', 'route', 'del', `${side.peer}/32`));
    }
  }
  const oneWayMs = profile.rttMs / 2;
  if (viaLine) run('python3', DELAY_LINE, 'set', delayLineSocket(), String(oneWayMs), String(oneWayMs));
  const [device, linkHeader] = viaLine ? ['tun', 0] : ['veth', 14];
  const netemMs = viaLine ? 0 : oneWayMs;
  shapeDevice(SIDES.server.namespace, SIDES.server[device], profile.downBps, linkHeader, netemMs, profile.rttMs);
  shapeDevice(SIDES.browser.namespace, SIDES.browser[device], profile.upBps, linkHeader, netemMs, profile.rttMs);
  return {
    path: viaLine ? 'tun pair through delay-line.py' : 'veth pair',
    delay: profile.rttMs === 0 ? null : viaLine ? 'delay-line.py' : 'netem',
    one_way_delay_ms: oneWayMs,
    tbf: tbfQueue(profile.rttMs).join(' '),
    tc_down_bps: profile.downBps === null ? null : tcRate(profile.downBps, linkHeader),
    tc_up_bps: profile.upBps === null ? null : tcRate(profile.upBps, linkHeader),
  };
}

/** The IFB device in each namespace through which the load testbed shapes what arrives there. */
const IFB = 'rtl-ifb';

/**
 * Shapes the veth pair to fixed rates with no delay (the load testbed's link): each direction
 * through tbf (burst 32 kbit, latency 50 ms, as in the related study's testbed: docs/method.md) at
 * its receiving end — the veth end's ingress, redirected through an IFB device whose root is the token bucket — so a
 * packet the bucket cannot hold is lost on the link, as at a router, and the sender recovers as
 * TCP does from loss. A bucket on the sender's own egress would refuse the packet to the sender
 * instead: Linux TCP takes that as local congestion, and a connection with nothing in flight
 * whose packet is refused 15 times in a row (tcp_retries2 probes, half a second apart) is
 * aborted with ETIMEDOUT — with 100 uploads sharing 1 Mbit/s, a quarter of the load generator's
 * connections die that way within seconds.
 *
 * `rate: 'wire'` gives tc the rate as it is, counting every byte on the wire as the testbed did;
 * `'payload'` corrects for headers as study cells do. `downBps` is the server → client direction,
 * `upBps` client → server; null leaves a direction unshaped. Returns what was set.
 */
export function shapeRates({ downBps, upBps, rate = 'wire' }) {
  if (!['wire', 'payload'].includes(rate)) throw new Error(`rate is 'wire' or 'payload', not ${rate}`);
  const tcBps = (bps) => (bps === null ? null : rate === 'wire' ? Math.round(bps) : tcRate(bps, 14));
  // What arrives at each side is shaped there: the client receives the down direction.
  for (const [side, bps] of [
    [SIDES.browser, tcBps(downBps)],
    [SIDES.server, tcBps(upBps)],
  ]) {
    quietly(() => inside(side.namespace, 'tc', 'qdisc', 'del', 'dev', side.veth, 'root'));
    quietly(() => inside(side.namespace, 'tc', 'qdisc', 'del', 'dev', side.veth, 'ingress'));
    quietly(() => inside(side.namespace, 'tc', 'qdisc', 'del', 'dev', IFB, 'root'));
    if (bps === null) continue;
    try {
      inside(side.namespace, 'ip', 'link', 'show', 'dev', IFB);
    } catch {
      try {
        inside(side.namespace, 'ip', 'link', 'add', IFB, 'type', 'ifb');
      } catch (error) {
        throw new Error(
          'the load testbed shapes each direction at its receiving end through an ifb device, ' +
            `and this kernel makes none (CONFIG_IFB; as root: modprobe ifb): ${error.message.trim()}`,
          { cause: error },
        );
      }
    }
    inside(side.namespace, 'ip', 'link', 'set', IFB, 'up');
    inside(side.namespace, 'tc', 'qdisc', 'add', 'dev', side.veth, 'handle', 'ffff:', 'ingress');
    inside(
      side.namespace,
      'tc',
      'filter',
      'add',
      'dev',
      side.veth,
      'parent',
      'ffff:',
      'protocol',
      'all',
      'u32',
      'match',
      'u32',
      '0',
      '0',
      'action',
      'mirred',
      'egress',
      'redirect',
      'dev',
      IFB,
    );
    inside(
      side.namespace,
      'tc',
      'qdisc',
      'add',
      'dev',
      IFB,
      'root',
      'handle',
      '2:',
      'tbf',
      'rate',
      `${bps}bit`,
      ...tbfQueue(0),
    );
  }
  return {
    path: 'veth pair',
    rate,
    tbf: tbfQueue(0).join(' '),
    shaped_at: 'receiving end (veth ingress → ifb → tbf)',
    tc_down_bps: tcBps(downBps),
    tc_up_bps: tcBps(upBps),
  };
}

/**
 * Bytes on the link so far (the kernel's counters), per side: `tx` what the side put on the link
 * (its veth end's transmit counter), `rx` what reached it through the link — after the receiving
 * end's token bucket when shapeRates shaped it (the IFB device's counter), else the veth end's
 * receive counter. tx − the peer's rx is what the link dropped. Ethernet frames, headers included.
 */
export function linkCounters() {
  const stats = (namespace, device) => {
    const [link] = JSON.parse(inside(namespace, 'ip', '-s', '-j', 'link', 'show', 'dev', device));
    return link.stats64;
  };
  const counters = (side) => {
    const veth = stats(side.namespace, side.veth);
    let delivered = veth.rx;
    try {
      // The IFB device passes on what the bucket let through; only when the ingress redirect is there.
      if (inside(side.namespace, 'tc', 'filter', 'show', 'dev', side.veth, 'ingress').includes(IFB))
        delivered = stats(side.namespace, IFB).tx;
    } catch {
      // no ingress shaping on this side
    }
    return { tx: veth.tx.bytes, rx: delivered.bytes, tx_packets: veth.tx.packets, rx_packets: delivered.packets };
  };
  return { server: counters(SIDES.server), client: counters(SIDES.browser) };
}

/**
 * Closes (ss -K) every established TCP connection the server's namespace still has with the
 * client, and returns how many there were: after a load generator has gone, a connection whose
 * close was dropped on a congested link stays open on the server's side — waiting for the rest of
 * a body — until the server's idle timeout, and would end with an error answer in a later cell.
 */
export function closeServerConnections() {
  const killed = inside(
    SIDES.server.namespace,
    'ss',
    '-H',
    '-t',
    '-n',
    '-K',
    'state',
    'established',
    'dst',
    BROWSER_ADDRESS,
  );
  return killed.split('\n').filter((line) => line.trim()).length;
}

/**
 * Runs a command inside the server's ('server') or the client's ('client') namespace; resolves
 * {status, stdout, stderr}.
 */
export function spawnInside(sideName, command, args, options = {}) {
  const side = sideName === 'server' ? SIDES.server : SIDES.browser;
  return spawn('ip', ['netns', 'exec', side.namespace, command, ...args], options);
}

/** Runs a command inside a side's namespace and returns its standard output. */
export function runInside(sideName, command, ...args) {
  return inside(sideName === 'server' ? SIDES.server.namespace : SIDES.browser.namespace, command, ...args);
}

/** The server's and the client's addresses on the link. */
export const LINK_ADDRESSES = Object.freeze({ server: SERVER_ADDRESS, client: BROWSER_ADDRESS });

async function answers(port) {
  try {
    inside(
      NAMESPACE,
      'node',
      '-e',
      `fetch('http://127.0.0.1:${port}/api/books?count=1').then(r => process.exit(r.status === 200 ? 0 : 1), () => process.exit(1))`,
    );
    return true;
  } catch {
    return false;
  }
}

/**
 * TCP's congestion control in both namespaces: RTL_NETNS_CC, else cubic (most Linux servers'),
 * else reno where the kernel does not let a namespace choose cubic (this machine kind's). Not
 * the kernel's default unasked: here that is BBR, which on these token-bucket links used 88 % of
 * Cable's 5 Mbit/s and 9–12 of LTE's 12 from one probe to the next, where Reno gave 5.02 and
 * 12.05–12.08 every time.
 */
function chooseCongestionControl() {
  const wanted = process.env.RTL_NETNS_CC ? [process.env.RTL_NETNS_CC] : ['cubic', 'reno'];
  if (!/^[a-z0-9_]+$/.test(wanted[0]))
    throw new Error(`RTL_NETNS_CC=${wanted[0]} is not the name of a congestion control`);
  for (const algorithm of wanted) {
    try {
      for (const side of Object.values(SIDES)) {
        inside(side.namespace, 'sh', '-c', `echo ${algorithm} > /proc/sys/net/ipv4/tcp_congestion_control`);
      }
      return algorithm;
    } catch {
      // not allowed in a namespace here: the next
    }
  }
  const allowed = readFileSync('/proc/sys/net/ipv4/tcp_allowed_congestion_control', 'utf8').trim();
  throw new Error(`RTL_NETNS_CC=${process.env.RTL_NETNS_CC}: a namespace here may choose only ${allowed}`);
}

/** The server warm-up (server-warmup.js) from inside the server's namespace; returns its result. */
export function warmUpInNamespace(paths, requests) {
  const port = process.env.RTL_NETNS_PORT;
  if (!port) throw new Error('the netns study is not running (RTL_NETNS_PORT is not set)');
  return JSON.parse(
    inside(
      NAMESPACE,
      'node',
      join(ROOT, 'experiments', 'server-warmup.js'),
      `http://127.0.0.1:${port}`,
      JSON.stringify(paths),
      String(requests),
    ),
  );
}

/**
 * Brings a plan's datasets (datasets/bring.js) to the server in its namespace, from a process
 * inside that namespace: the only one that reaches it. Returns what run.json records of each.
 */
export function bringInNamespace(datasets, largest) {
  const port = process.env.RTL_NETNS_PORT;
  if (!port) throw new Error('the netns study is not running (RTL_NETNS_PORT is not set)');
  if (Object.keys(datasets).length === 0) return [];
  const result = spawnSync(
    'ip',
    [
      'netns',
      'exec',
      NAMESPACE,
      'node',
      join(ROOT, 'experiments', 'datasets', 'bring.js'),
      `http://127.0.0.1:${port}`,
      JSON.stringify(datasets),
      JSON.stringify(largest),
    ],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
  if (result.stderr) process.stderr.write(result.stderr);
  if (result.status !== 0) {
    const said = result.stderr.trim().split('\n').filter(Boolean).pop() ?? `exit ${result.status}`;
    throw new Error(`Bringing the datasets inside ${NAMESPACE} failed: ${said}`);
  }
  return JSON.parse(result.stdout);
}

/** Starts delay-line.py with both TUN devices, then moves each device into its namespace. */
async function startDelayLine() {
  noteMade('links', SIDES.server.tun, SIDES.browser.tun);
  noteMade('files', delayLineSocket());
  const line = spawn('python3', [DELAY_LINE, 'serve', SIDES.server.tun, SIDES.browser.tun, delayLineSocket()], {
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  madeHere.delayLine = line;
  await new Promise((resolve, reject) => {
    let said = '';
    line.stdout.on('data', (data) => {
      said += data;
      if (!said.includes('\n')) return;
      if (said.startsWith('ready\n')) resolve();
      else reject(new Error(`delay-line.py: ${said.trim()}`));
    });
    line.once('exit', (code) => reject(new Error(`delay-line.py stopped (exit ${code}) before it was ready`)));
  });
  line.stdout.destroy();
  line.unref();
  for (const side of Object.values(SIDES)) {
    run('ip', 'link', 'set', side.tun, 'netns', side.namespace);
    inside(side.namespace, 'ip', 'link', 'set', side.tun, 'up');
  }
}

/**
 * Makes both namespaces and the veth pair between them, chooses TCP's congestion control, and —
 * when `delays` is asked and the kernel has no netem — starts the delay line. Returns the link's
 * description for run.json.
 */
export async function createLink({ delays = true } = {}) {
  checkNetns();
  claimNamespaces();
  const delay = delays ? (kernelHasNetem() ? 'netem' : 'delay-line') : null;
  for (const side of Object.values(SIDES)) {
    addNamespace(side.namespace);
    inside(side.namespace, 'ip', 'link', 'set', 'lo', 'up');
    // The delay line's path has no reverse route of the veth kind: do not filter by it. And no
    // connection may start from what an earlier one learnt of the path (ssthresh, RTT): every
    // cell's first connection starts alike, whatever ran before it.
    inside(
      side.namespace,
      'sh',
      '-c',
      'echo 0 > /proc/sys/net/ipv4/conf/all/rp_filter; ' +
        'echo 0 > /proc/sys/net/ipv4/conf/default/rp_filter; echo 1 > /proc/sys/net/ipv4/tcp_no_metrics_save',
    );
  }
  run(
    'ip',
    'link',
    'add',
    SIDES.server.veth,
    'netns',
    SIDES.server.namespace,
    'mtu',
    String(MTU),
    'type',
    'veth',
    'peer',
    'name',
    SIDES.browser.veth,
    'netns',
    SIDES.browser.namespace,
    'mtu',
    String(MTU),
  );
  for (const side of Object.values(SIDES)) {
    inside(side.namespace, 'ip', 'addr', 'add', `${side.address}/30`, 'dev', side.veth);
    inside(side.namespace, 'ip', 'link', 'set', side.veth, 'up');
  }
  const congestionControl = chooseCongestionControl();
  if (delay === 'delay-line') await startDelayLine();
  return {
    server_namespace: NAMESPACE,
    browser_namespace: BROWSER_NAMESPACE,
    server_address: SERVER_ADDRESS,
    browser_address: BROWSER_ADDRESS,
    mtu: MTU,
    delay,
    congestion_control: congestionControl,
  };
}

/**
 * Starts the study server (as `mvn exec:java` would: common/server-launch.js; plus `options`, then
 * SERVER_OPTS, which so win over them) in the server's namespace, listening on every address, and
 * waits until it answers. `jvmOptions` go to its JVM after Maven's own (e.g. a maximum heap).
 * Returns the server's process id (ip netns exec, and mvn where it starts, exec into the JVM) and
 * its TCP settings.
 */
export async function startServerInNamespace(port, options = [], jvmOptions = []) {
  const extra = (process.env.SERVER_OPTS ?? '').split(/\s+/).filter(Boolean);
  const launch = serverLaunch({
    properties: [
      `-Ddw.server.applicationConnectors[0].port=${port}`,
      '-Ddw.server.applicationConnectors[0].bindHost=0.0.0.0',
      `-Ddw.server.adminConnectors[0].port=${Number(port) + 1}`,
      // Stops when this run's process ends, however it ends (docs/configuration.md).
      `-Ddw.exitWith=${process.pid}`,
      STUDY_SERVER_OPTS,
      ...options,
      ...extra,
    ],
    jvmOptions,
  });
  const server = spawn('ip', ['netns', 'exec', NAMESPACE, launch.command, ...launch.args], {
    cwd: ROOT,
    stdio: 'ignore',
    detached: true,
    env: launch.env,
  });
  madeHere.server = server;
  server.unref();
  const deadline = Date.now() + 600_000;
  while (!(await answers(port))) {
    if (Date.now() > deadline || server.exitCode !== null)
      throw new Error('the study server did not start inside the namespace');
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const tcp = Object.fromEntries(
    [
      'tcp_congestion_control',
      'tcp_slow_start_after_idle',
      'tcp_no_metrics_save',
      'tcp_timestamps',
      'tcp_rmem',
      'tcp_wmem',
    ].map((key) => [key, inside(NAMESPACE, 'cat', `/proc/sys/net/ipv4/${key}`).trim()]),
  );
  return { pid: server.pid, tcp };
}

/**
 * Firefox resolves localhost to its own loopback whatever the resolver says (Chromium takes a
 * host-resolver rule instead). So in the browser's namespace the kernel's NAT sends
 * localhost:<port> — for each of the server's ports, cleartext and TLS — to the server's address,
 * and the connection's source to the browser's: the connection stays Firefox's own, over the
 * shaped link, and the page keeps its localhost origin (a secure, cross-origin-isolated context).
 * Needs nft (Debian: nftables).
 */
export function mapLocalhostToServer(ports) {
  try {
    run('sh', '-c', 'command -v nft');
  } catch {
    throw new Error('SHAPING=netns with BROWSER=firefox needs "nft" (Debian: apt-get install nftables).');
  }
  inside(BROWSER_NAMESPACE, 'sh', '-c', 'echo 1 > /proc/sys/net/ipv4/conf/all/route_localnet');
  const set = [...new Set(ports.map(Number))].join(', ');
  const rules = [
    'table ip rtl_localhost {',
    '  chain output { type nat hook output priority -100;',
    `    ip daddr 127.0.0.1 tcp dport { ${set} } dnat to ${SERVER_ADDRESS}; }`,
    '  chain postrouting { type nat hook postrouting priority 100;',
    `    ip saddr 127.0.0.1 ip daddr ${SERVER_ADDRESS} snat to ${BROWSER_ADDRESS}; }`,
    '}',
    '',
  ].join('\n');
  execFileSync('ip', ['netns', 'exec', BROWSER_NAMESPACE, 'nft', '-f', '-'], {
    input: rules,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/** The server's /api/info, read inside its namespace. */
export function serverInfoInNamespace(port) {
  return JSON.parse(
    inside(NAMESPACE, 'curl', '-sS', '--fail', '--max-time', '30', `http://127.0.0.1:${port}/api/info`),
  );
}

/** The ports of the server's application connectors (its /api/info, read inside its namespace). */
export function servedPorts(port) {
  return [Number(port), ...(serverInfoInNamespace(port).protocols ?? []).map((p) => Number(p.port))];
}

/**
 * Makes both namespaces and the link between them, and starts the study server in its
 * namespace (the study's global setup). Returns the link's description for run.json.
 */
export async function startNetnsStudy(settings) {
  const base = new URL(settings.baseUrl);
  if (base.hostname !== 'localhost') {
    throw new Error(
      `SHAPING=netns starts its own server and browser and names the server localhost: BASE_URL must be http://localhost:<port>, not ${settings.baseUrl}`,
    );
  }
  const port = base.port || '80';
  const link = await createLink({ delays: true });
  // The workers, started later, inherit these.
  process.env.RTL_NETNS_PORT = port;
  process.env.RTL_NETNS_DELAY = link.delay;
  const { tcp } = await startServerInNamespace(port);
  if (settings.engine?.name === 'firefox') mapLocalhostToServer(servedPorts(port));
  return {
    ...link,
    rate:
      `payload rate: tc runs at rate × (${MTU} + link header) / (${MTU} − ${TCP_IP_HEADERS}); ` +
      'link header 14 on veth, 0 on tun',
    server_tcp: tcp,
  };
}

/**
 * Stops what this process started for the study (the server, the delay line) and whatever is still
 * inside the namespaces it made, then removes them. What another run made is left alone.
 */
export async function stopNetnsStudy() {
  const groups = [madeHere.server, madeHere.delayLine].filter((child) => child?.pid && child.exitCode === null);
  for (const child of groups) quietly(() => process.kill(-child.pid, 'SIGTERM'));
  await stopProcesses(groups.map((child) => child.pid));
  for (const namespace of [...madeHere.namespaces]) {
    let pids = [];
    quietly(() => {
      pids = run('ip', 'netns', 'pids', namespace).split('\n').filter(Boolean).map(Number);
    });
    await stopProcesses(pids);
    removeNamespace(namespace);
  }
  madeHere.server = null;
  madeHere.delayLine = null;
}

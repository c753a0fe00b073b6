// A study killed with kill -9 of its whole process group, as a closed laptop, an out-of-memory kill
// or a CI timeout does, at moments drawn from a seed (RTL_KILL_SEED, default 1): during the server's
// start, its warm-up, a round, the report's writing. After each kill the machine holds nothing of
// the run (processes, listening ports, namespaces, network devices, nft tables, its record); the
// run resumed in the same RUN_DIR after the last kill completes every group and cell of the plan,
// and makes the report. The four moments are shared between SHAPING=cdp (the smoke plan, its
// server started by the run) and SHAPING=netns (the smoke plan on Cable, through the delay line; as
// root), two each; at one kill under netns the run's watchdog is killed as well, so that the next
// run must clean up what was left, saying so.

import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { caseId } from '#common/cell.js';
import { readRun } from '#common/run-directory.js';
import { temporaryDirectory } from '#common/temporary-directory.js';
import { comparisonGroups, expandPlan, loadPlan } from '../plan.js';
import { netnsSkip } from './netns-runs.js';
import { TEST_RUN, testNamespace, testPort } from './test-resources.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// The run guard's records in a folder of this test's (its runs inherit it): a study run by a test
// file beside this one must not clean up after the runs this test kills before they do.
process.env.RTL_RUN_RECORDS = temporaryDirectory('rtl-kill-records-');
const { RECORDS, readRecords } = await import('../run-guard/record.js');
const SEED = Number(process.env.RTL_KILL_SEED ?? 1);
const PHASES = ['server start', 'warm-up', 'round', 'report'];
/**
 * What every run here is given: the server's 2,000 objects per kind in the study's data directory,
 * no calibration of Chromium's emulation, and the tests' small warm-up and short rests (TEST_RUN):
 * what this test checks does not depend on them, and each of its runs starts a server.
 */
const QUICK = {
  ...TEST_RUN,
  PLAN: 'smoke',
  SERVER_OPTS: '-Ddw.dataset.size=2000 -Ddw.dataset.directory=server/target/study-data',
  CDP_CALIBRATE: '0',
};
/** How long what a killed run started may take to go: its watchdog stops the JVM with SIGTERM. */
const GONE_WITHIN_MS = 40_000;

/** A small seeded generator (mulberry32): the test's moments, the same for the same seed. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const draw = random(SEED);
/** The four moments in a seeded order: the first two are cdp's, the last two netns's. */
const ORDER = PHASES.map((phase) => ({ phase, key: draw() }))
  .sort((a, b) => a.key - b.key)
  .map((p) => p.phase);
const byOrder = (phases) => [...phases].sort((a, b) => PHASES.indexOf(a) - PHASES.indexOf(b));

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

/** Processes (not zombies) whose environment holds RUN_DIR=<runDir>: the run's, whoever started them. */
function processesOf(runDir) {
  const mark = Buffer.from(`\0RUN_DIR=${runDir}\0`);
  const found = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/stat`, 'utf8').includes(') Z ')) continue;
      if (readFileSync(`/proc/${entry}/environ`).includes(mark)) {
        found.push(`${entry} ${readFileSync(`/proc/${entry}/comm`, 'utf8').trim()}`);
      }
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** Whether a TCP (or UDP) port on 127.0.0.1 can be bound now. */
function free(port, udp = false) {
  return new Promise((resolve) => {
    if (udp) {
      const socket = createSocket('udp4');
      socket.once('error', () => resolve(false));
      socket.bind(port, '127.0.0.1', () => socket.close(() => resolve(true)));
    } else {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    }
  });
}

const run = (command, ...args) => {
  try {
    return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return '';
  }
};

/** What of a run's is left on this machine, in words (empty when nothing). */
async function leftovers({ runDir, port, namespace }) {
  const left = processesOf(runDir).map((p) => `process ${p}`);
  if (port) {
    for (const [p, udp] of [
      [port, false],
      [port + 1, false],
      [port + 363, false],
      [port + 364, false],
      [port + 365, true],
    ])
      if (!(await free(p, udp))) left.push(`${udp ? 'UDP' : 'TCP'} port ${p}`);
  }
  if (namespace) {
    const namespaces = run('ip', 'netns', 'list')
      .split('\n')
      .map((line) => line.split(' ')[0]);
    for (const name of [namespace, `${namespace}-browser`, `${namespace}-probe`])
      if (namespaces.includes(name)) left.push(`namespace ${name}`);
    for (const device of [`${namespace}-s`, `${namespace}-b`])
      if (run('ip', 'link', 'show', 'dev', device)) left.push(`device ${device}`);
    if (run('nft', 'list', 'tables').includes('rtl_localhost')) left.push('nft table rtl_localhost');
  }
  // A record outlives its run only while the run's watchdog removes what it left; so does its
  // temporary folder (the browsers' profiles), beside it: <pid>-<id>-tmp.
  for (const { record } of readRecords())
    if (record.directory === ROOT.replace(/\/$/, '') && !isAlive(record.pid)) left.push(`record ${record.id}`);
  for (const name of existsSync(RECORDS) ? readdirSync(RECORDS) : [])
    if (name.endsWith('-tmp') && !isAlive(Number(name.split('-')[0]))) left.push(`temporary folder ${name}`);
  return left;
}

function isAlive(pid) {
  try {
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
}

/**
 * Starts the study in a process group of its own (a shell's job), its output collected. `until`
 * resolves once `condition(output)` holds; `done` once the whole group's output has ended.
 */
function start(env) {
  const child = spawn('npx', ['playwright', 'test'], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let output = '';
  const closed = [child.stdout, child.stderr].map((stream) => {
    stream.on('data', (chunk) => (output += chunk));
    return new Promise((done) => stream.on('close', done));
  });
  const exited = new Promise((done) => child.on('exit', (code) => done(code)));
  return {
    child,
    output: () => output,
    exited,
    done: Promise.all(closed).then(() => output),
    async until(condition, what, ms = 600_000) {
      const deadline = Date.now() + ms;
      while (!condition(output)) {
        assert.ok(child.exitCode === null, `the run ended before ${what}:\n${output}`);
        assert.ok(Date.now() < deadline, `${what} within ${ms} ms:\n${output}`);
        await sleep(100);
      }
    },
  };
}

/** Waits for the moment `phase` of a run, then a seeded part of `spreadMs` more. */
async function reach(phase, running, { runDir, answers }) {
  if (phase === 'server start') {
    await running.until(() => processesOf(runDir).some((p) => p.endsWith(' java')), 'the server process');
  } else if (phase === 'warm-up') {
    // The server answers; the global setup warms it up (and measures the networks) before the
    // first group (the reporter's first line).
    await running.until(() => answers(), 'the server answering');
    await sleep(Math.round(draw() * 500));
    return;
  } else if (phase === 'round') {
    await running.until((out) => /: round \d+, /.test(out), 'a round');
  } else {
    await running.until((out) => /^Results: /m.test(out), 'the report');
    return; // the report takes a moment only: kill at once
  }
  await sleep(Math.round(draw() * 1500));
}

/** The run's own watchdog, if it is still there (to kill it too). */
function watchdogOf(runDir) {
  for (const { record } of readRecords()) {
    try {
      if (readFileSync(`/proc/${record.pid}/environ`).includes(Buffer.from(`\0RUN_DIR=${runDir}\0`)))
        return record.watchdog?.pid ?? null;
    } catch {
      // not this one
    }
  }
  return null;
}

async function killAndResume(t, { phases, env, runDir, port, namespace, answers, plan, network, killWatchdog }) {
  let previousKilledItsWatchdog = false;
  for (const [index, phase] of phases.entries()) {
    const running = start(env);
    await reach(phase, running, { runDir, answers });
    const withWatchdog = killWatchdog && index === 0;
    if (withWatchdog) {
      const watchdog = watchdogOf(runDir);
      assert.ok(watchdog, 'the run has a watchdog');
      process.kill(watchdog, 'SIGKILL');
    }
    process.kill(-running.child.pid, 'SIGKILL');
    // Its output ends once its watchdog has done its work (the watchdog writes to the run's
    // standard error); with the watchdog killed, what the run left (the delay line) may hold it open.
    const said = withWatchdog ? (await sleep(2000), running.output()) : await running.done;
    t.diagnostic(`killed during ${phase}${withWatchdog ? ', its watchdog too' : ''}`);
    if (previousKilledItsWatchdog) {
      assert.match(said, /Cleaned up after a run that ended without doing so, npx playwright test \(pid \d+/, said);
      if (namespace) assert.match(said, new RegExp(`removed namespaces ${namespace}`), said);
    }
    previousKilledItsWatchdog = withWatchdog;
    if (withWatchdog) continue; // what it left is the next run's to remove
    const deadline = Date.now() + GONE_WITHIN_MS;
    let left = await leftovers({ runDir, port, namespace });
    while (left.length && Date.now() < deadline) {
      await sleep(500);
      left = await leftovers({ runDir, port, namespace });
    }
    assert.deepStrictEqual(left, [], `after a kill during ${phase}:\n${said}`);
  }
  // Resumed to its end: every group and cell of the plan, the report made.
  const last = start(env);
  const code = await last.exited;
  const output = await last.done;
  assert.equal(code, 0, output);
  if (previousKilledItsWatchdog) assert.match(output, /Cleaned up after a run that ended without doing so/, output);
  assert.match(output, /^Report: .*report\.html/m, output);
  const { groups, cells } = readRun(runDir);
  const planned = comparisonGroups(plan, { network });
  assert.deepStrictEqual(groups.map((g) => g.group_id).sort(), planned.map((g) => g.id).sort());
  for (const group of groups) {
    assert.equal(group.rounds, 3, group.group_id);
    assert.equal(group.stop.reason, 'rounds done', group.group_id);
  }
  const expected = expandPlan(plan, { network }).map(caseId).sort();
  assert.deepStrictEqual(cells.map((c) => c.case_id).sort(), expected);
  const summary = readFileSync(join(runDir, 'summary.csv'), 'utf8').trim().split('\n');
  assert.equal(summary.length, 1 + expected.length);
  assert.deepStrictEqual(await leftovers({ runDir, port, namespace }), [], 'and after the last run');
}

/** The moments each mechanism's runs are killed at. */
const CDP_PHASES = byOrder(ORDER.slice(0, 2));
const NETNS_PHASES = byOrder(ORDER.slice(2));
const title = (shaping, phases) =>
  `a study killed with kill -9 under SHAPING=${shaping} (${phases.join(', ')}) leaves nothing, then resumes to its end`;

test(title('cdp', CDP_PHASES), async (t) => {
  const port = testPort(18106, 18);
  const runDir = join(temporaryDirectory('rtl-kill-cdp-'), 'run');
  const answers = () => {
    try {
      execFileSync('curl', ['-sf', '--max-time', '2', `http://127.0.0.1:${port}/api/info`], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  };
  await killAndResume(t, {
    phases: CDP_PHASES,
    env: { ...QUICK, RUN_DIR: runDir, BASE_URL: `http://localhost:${port}`, SHAPING: 'cdp' },
    runDir,
    port,
    answers,
    plan: loadPlan('smoke'),
  });
});

test(title('netns', NETNS_PHASES), { skip: netnsSkip() }, async (t) => {
  const port = testPort(18108, 20);
  const namespace = testNamespace('rtl-kill', '-k');
  const runDir = join(temporaryDirectory('rtl-kill-netns-'), 'run');
  const answers = () =>
    run('ip', 'netns', 'exec', namespace, 'curl', '-sf', '--max-time', '2', `http://127.0.0.1:${port}/api/info`) !== '';
  await killAndResume(t, {
    phases: NETNS_PHASES,
    env: {
      ...QUICK,
      NETWORK: 'cable',
      RUN_DIR: runDir,
      BASE_URL: `http://localhost:${port}`,
      SHAPING: 'netns',
      RTL_NETNS: namespace,
    },
    runDir,
    namespace,
    answers,
    plan: loadPlan('smoke'),
    network: 'cable',
    killWatchdog: true,
  });
});

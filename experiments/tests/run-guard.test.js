// A guarded run (experiments/run-guard/) killed with SIGKILL, its whole process group at once:
// its watchdog stops what it started (a process outside its group too) and removes what it made,
// saying so; with the watchdog killed as well, the next run does it, in one line. A namespace a run
// made and another made again under the same name after it died is left alone. Real processes,
// each run's records in a folder of the test's own; the namespaces (as root) named for this test.

import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { temporaryDirectory } from '#common/temporary-directory.js';
import { testNamespace } from './test-resources.js';

const GUARD = fileURLToPath(new URL('../run-guard/', import.meta.url));
const RECORDS = temporaryDirectory('rtl-guard-records-');
process.env.RTL_RUN_RECORDS = RECORDS;
const { cleanUpAfterDeadRuns } = await import('../run-guard/clean-up.js');
const { namespaceId } = await import('../run-guard/record.js');

const ROOT_USER = process.getuid?.() === 0;
const NAMESPACE = testNamespace('rtl-guard', '-g');

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
const alive = (pid) => {
  try {
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
};
const namespaces = () =>
  execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' })
    .split('\n')
    .map((line) => line.split(' ')[0]);

/**
 * A guarded run, in a process group of its own as a shell would start it: it notes and writes a
 * file, as root makes a namespace, and starts `sleep` in a session of its own (so that a kill of
 * the run's group does not reach it: only its mark finds it). Resolves once all that is done.
 */
async function startRun(directory, namespace, { crashHandler = false } = {}) {
  const file = join(directory, 'made-by-the-run');
  const script = join(directory, 'run.mjs');
  writeFileSync(
    script,
    `import { guardRun } from ${JSON.stringify(join(GUARD, 'guard.js'))};
import { noteMade, noteNamespace, namespaceId } from ${JSON.stringify(join(GUARD, 'record.js'))};
import { execFileSync, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
await guardRun('a test run');
noteMade('files', ${JSON.stringify(file)});
writeFileSync(${JSON.stringify(file)}, 'made');
const namespace = ${JSON.stringify(namespace)};
if (namespace) {
  noteNamespace(namespace);
  execFileSync('ip', ['netns', 'add', namespace]);
  noteNamespace(namespace, namespaceId(namespace));
}
const sleeper = spawn('sleep', ['600'], { detached: true, stdio: 'ignore' });
sleeper.unref();
writeFileSync(join(tmpdir(), 'a browser profile'), 'left by a browser killed with the run');
// As Chromium's crash handler: an environment of its own (no mark), the profile on its command
// line, and a write there after the run is gone.
const handler = ${JSON.stringify(crashHandler)}
  ? spawn('sh', ['-c', 'sleep 1; mkdir -p "$0/Crashpad"; sleep 600', tmpdir()], {
      detached: true,
      stdio: 'ignore',
      env: { PATH: process.env.PATH },
    })
  : null;
handler?.unref();
const { pid: handlerPid } = handler ?? {};
console.log(
  JSON.stringify({ sleep: sleeper.pid, handler: handlerPid, record: process.env.RTL_RUN_RECORD, temporary: tmpdir() }),
);
setInterval(() => {}, 1000);
`,
  );
  const run = spawn(process.execPath, [script], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  run.stderr.on('data', (chunk) => (stderr += chunk));
  const stderrClosed = new Promise((done) => run.stderr.on('close', done));
  const started = await new Promise((resolve, reject) => {
    let out = '';
    run.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]));
    });
    run.on('exit', () => reject(new Error(`the run ended early: ${stderr}`)));
  });
  const record = JSON.parse(readFileSync(started.record, 'utf8'));
  return { run, file, ...started, watchdog: record.watchdog.pid, said: () => stderr, stderrClosed };
}

async function until(condition, what, ms = 20_000) {
  const deadline = Date.now() + ms;
  while (!condition()) {
    assert.ok(Date.now() < deadline, `${what} within ${ms} ms`);
    await sleep(100);
  }
}

test('a run killed with SIGKILL: its watchdog stops what it started and removes what it made, saying so', async () => {
  const directory = temporaryDirectory('rtl-guard-');
  const namespace = ROOT_USER ? `${NAMESPACE}1` : null;
  const started = await startRun(directory, namespace);
  assert.ok(alive(started.sleep) && existsSync(started.file));
  // The run's temporary files go to a folder of its own, beside its record.
  assert.equal(started.temporary, started.record.replace(/\.json$/, '-tmp'));
  assert.ok(existsSync(join(started.temporary, 'a browser profile')));
  process.kill(-started.run.pid, 'SIGKILL');
  // The watchdog's standard error is the run's: it closes when the watchdog is done.
  await started.stderrClosed;
  await until(() => !alive(started.sleep), "the run's sleep stopped");
  assert.ok(!existsSync(started.file), 'the file it made is removed');
  assert.ok(!existsSync(started.record), 'and its record');
  assert.ok(!existsSync(started.temporary), 'and its temporary folder');
  if (namespace) assert.ok(!namespaces().includes(namespace), 'and its namespace');
  assert.match(
    started.said(),
    new RegExp(
      `^The run a test run \\(pid ${started.run.pid}, started [\\d:]+ UTC\\) ended; its watchdog stopped sleep; ` +
        `${namespace ? `removed namespaces ${namespace}; ` : ''}removed ${started.file}\\.\\n$`,
    ),
  );
});

test("a helper that names the run's temporary folder and writes there late is stopped, the folder gone", async () => {
  const directory = temporaryDirectory('rtl-guard-');
  const started = await startRun(directory, null, { crashHandler: true });
  process.kill(-started.run.pid, 'SIGKILL');
  await started.stderrClosed;
  await until(() => !alive(started.handler), 'the helper stopped');
  await sleep(1500); // past the helper's late write, had it lived
  assert.ok(!existsSync(started.temporary), 'the temporary folder stays gone');
  assert.match(started.said(), /its watchdog stopped (sleep, sh|sh, sleep)/);
});

test('with its watchdog killed too, the next run removes what it left, in one line', async () => {
  const directory = temporaryDirectory('rtl-guard-');
  const namespace = ROOT_USER ? `${NAMESPACE}2` : null;
  const started = await startRun(directory, namespace);
  process.kill(started.watchdog, 'SIGKILL');
  process.kill(-started.run.pid, 'SIGKILL');
  await started.stderrClosed;
  await sleep(500);
  assert.ok(
    alive(started.sleep) && existsSync(started.file) && existsSync(started.temporary),
    'nothing was removed yet',
  );
  const lines = await cleanUpAfterDeadRuns(() => {});
  assert.equal(lines.length, 1, lines.join('\n'));
  assert.match(
    lines[0],
    new RegExp(
      '^Cleaned up after a run that ended without doing so, ' +
        `a test run \\(pid ${started.run.pid}, started [\\d:]+ UTC\\): stopped sleep; ` +
        `${namespace ? `removed namespaces ${namespace}; ` : ''}removed ${started.file}\\.$`,
    ),
  );
  assert.ok(!alive(started.sleep) && !existsSync(started.file) && !existsSync(started.record));
  if (namespace) assert.ok(!namespaces().includes(namespace));
  assert.deepStrictEqual(await cleanUpAfterDeadRuns(() => {}), [], 'said once');
  assert.deepStrictEqual(readdirSync(RECORDS), []);
});

test(
  "a namespace made again under the same name after the run died is not the run's: it is left alone",
  { skip: ROOT_USER ? false : 'needs root (network namespaces)' },
  async () => {
    const directory = temporaryDirectory('rtl-guard-');
    const namespace = `${NAMESPACE}3`;
    const started = await startRun(directory, namespace);
    process.kill(started.watchdog, 'SIGKILL');
    process.kill(-started.run.pid, 'SIGKILL');
    await started.stderrClosed;
    const theRuns = namespaceId(namespace);
    execFileSync('ip', ['netns', 'del', namespace]);
    execFileSync('ip', ['netns', 'add', namespace]); // another study's, under the same name
    try {
      assert.notEqual(namespaceId(namespace), theRuns);
      const lines = await cleanUpAfterDeadRuns(() => {});
      assert.ok(namespaces().includes(namespace), 'the other namespace is still there');
      assert.doesNotMatch(lines.join('\n'), /namespaces/);
    } finally {
      execFileSync('ip', ['netns', 'del', namespace]);
    }
  },
);

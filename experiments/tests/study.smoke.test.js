// The study end to end: `npx playwright test` with the smoke plan against a real server, its
// results read back as a separate program would (the interleaving checked: rounds, positions,
// seeded orders), then resumed — after a clean finish (its report remade with no server at all)
// and after a simulated kill in the middle of a round; and which server a run may use. (Shards:
// study.shards.test.js; plans over protocols: study.protocols.test.js.)

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { caseId } from '#common/cell.js';
import { comparisonGroups, expandPlan, loadPlan } from '../plan.js';
import { roundSeed, seededShuffle } from '#common/comparison.js';
import { serverDecision, webServer } from '../study-server.js';
import { temporaryDirectory } from '#common/temporary-directory.js';
import { ROOT, serverForTests } from './server-runs.js';
import { TEST_RUN, testPort } from './test-resources.js';

const { baseUrl: BASE_URL, serverInfo } = serverForTests(testPort(18084, 0));
/** Where nothing answers: the BASE_URL of a complete run, which needs no server. */
const NO_SERVER_PORT = testPort(18104, 16);
const RUN_DIR = join(temporaryDirectory('rtl-smoke-'), 'run');
const EXPECTED = expandPlan(loadPlan('smoke')).map(caseId);
const GROUPS = comparisonGroups(loadPlan('smoke'));
const ROUNDS = 3;

const lines = (file) =>
  readFileSync(join(RUN_DIR, file), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

function study(runDir = RUN_DIR, env = {}, ...args) {
  const result = spawnSync('npx', ['playwright', 'test', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 300_000,
    env: { ...process.env, ...TEST_RUN, PLAN: 'smoke', RUN_DIR: runDir, BASE_URL, SHAPING: 'cdp', ...env },
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

test('the smoke plan runs every comparison group, interleaved, and records a complete, verified run', () => {
  const { status, output } = study(RUN_DIR, { BROWSER_WARMUP: '1' });
  assert.equal(status, 0, output);
  assert.match(
    output,
    new RegExp(`\\[ *1/${GROUPS.length}\\] \\S+ +3 rounds, \\d+/\\d+ comparisons resolved \\(rounds done`),
  );
  assert.match(output, /: round 2, \d+\/\d+ comparisons resolved/);

  const context = JSON.parse(readFileSync(join(RUN_DIR, 'run.json'), 'utf8'));
  assert.equal(context.plan.name, 'smoke');
  assert.equal(context.seed, 1);
  assert.equal(context.sessions.length, 1);
  assert.equal(context.cross_origin_isolated, true);
  assert.match(context.git.commit, /^[0-9a-f]{40}$/);
  for (const library of ['dropwizard', 'jackson', 'protobuf_java', 'protobufjs', 'playwright', 'browser']) {
    assert.ok(context.versions[library], `version of ${library}`);
  }
  assert.equal(context.dataset.size, 2000);
  assert.equal(context.shaping, 'cdp');
  assert.equal(context.server_warmup.requests, Number(TEST_RUN.SERVER_WARMUP));
  assert.equal(context.page_settle_ms, Number(TEST_RUN.PAGE_SETTLE_MS));
  assert.equal(context.browser_warmup_pages, 1);
  assert.ok(context.server_warmup.last_thousand_median_ms > 0 && context.server_warmup.paths > 0);
  // Chromium's emulation, calibrated on this machine: the target, a ~1 MB answer at
  // 10 Mbit/s within 10 % of bytes × 8 / rate.
  const link = context.networks['10mbit'];
  assert.equal(link.cdp.calibration, 'on');
  assert.ok(link.cdp.rounds.length >= 1 && link.cdp.factor > 0);
  // Started from the last calibration on this machine, or from 1 when none is remembered.
  assert.equal(link.cdp.rounds[0].factor, link.cdp.started_from.factor);
  assert.match(link.cdp.started_from.from, /^(the last calibration on this machine|none remembered)/);
  assert.ok(
    Math.abs(link.measured.throughput_bps / 10e6 - 1) < 0.1,
    `10 Mbit/s link measured at ${link.measured.throughput_bps} bit/s`,
  );
  // Unshaped, no link rate to measure: only what the probes prove.
  const open = context.networks.unthrottled.measured;
  assert.equal(open.throughput_bps, null);
  assert.ok(
    open.probe_transfer_size > 200_000,
    `the probe's own entry (hundreds of Books), not a 1-object one: ${open.probe_transfer_size} B`,
  );
  const rates = open.probe_seconds.map((s) => (open.probe_transfer_size * 8) / s).sort((a, b) => a - b);
  assert.ok(
    Math.abs(open.at_least_bps / rates[Math.floor(rates.length / 2)] - 1) < 1e-9,
    "at least: the median probe's bytes over its whole time",
  );
  assert.ok(context.browser_machine.cpus > 0 && context.server.machine.available_processors > 0);
  // .mvn/jvm.config reached the server's JVM (as with mvn exec:java), and a checked server's options
  // after it, which win: this test's server touches no heap ahead.
  const jvm = context.server.settings.jvm_options;
  assert.ok(
    jvm.indexOf('-XX:+AlwaysPreTouch') >= 0 &&
      jvm.lastIndexOf('-XX:-AlwaysPreTouch') > jvm.indexOf('-XX:+AlwaysPreTouch'),
    JSON.stringify(context.server.settings),
  );

  const cells = lines('cells.jsonl');
  assert.deepStrictEqual(cells.map((c) => c.case_id).sort(), [...EXPECTED].sort());
  for (const cell of cells) {
    assert.equal(cell.verification.passed, true, cell.case_id);
    assert.ok(cell.verification.keys.length > 0, cell.case_id);
    assert.equal(cell.n, ROUNDS);
    assert.equal(cell.warmup.rule, 'count');
  }
  // A check passes once per run: the 10 Mbit/s group's JSON Books were verified unthrottled.
  const slow = cells.find((c) => c.case_id === 'books/10/json/none/scenario2/cm2/10mbit');
  assert.deepStrictEqual(slow.verification.checks, [
    'count: passed earlier in this run',
    'client and server CM2 orders equal: passed earlier in this run',
  ]);
  const samples = lines('samples.jsonl');
  assert.equal(samples.length, EXPECTED.length * ROUNDS);
  for (const sample of samples) {
    for (const key of [
      'case_id',
      'group_id',
      'session',
      'object',
      'format',
      'compression',
      'count',
      'scenario',
      'cm',
      'network',
      'round',
      'position',
      'visit_iteration',
      'total_ms',
      'headers_ms',
      'body_ms',
      'decode_ms',
      'transfer_size',
      'decoded_body_size',
      'content_encoding',
    ]) {
      assert.ok(key in sample, `${sample.case_id} round ${sample.round} has ${key}`);
    }
    assert.ok(sample.total_ms > 0);
    assert.equal(sample.case_id, caseId(sample));
  }
  // Read as a separate program would: every round visited every cell of its group once, in the
  // order seeded by the run's seed, the group and the round.
  const rounds = lines('rounds.jsonl');
  assert.equal(rounds.length, GROUPS.length * ROUNDS);
  for (const group of GROUPS) {
    const ids = group.cells.map(caseId);
    for (let round = 1; round <= ROUNDS; round++) {
      const record = rounds.find((r) => r.group_id === group.id && r.round === round);
      assert.deepStrictEqual(record.order, seededShuffle(ids, roundSeed(context.seed, group.id, round)));
      const taken = samples.filter((s) => s.group_id === group.id && s.round === round);
      assert.deepStrictEqual(
        taken.map((s) => s.case_id),
        record.order,
      );
      assert.deepStrictEqual(
        taken.map((s) => s.position),
        record.order.map((_, i) => i),
      );
    }
  }
  const groups = lines('groups.jsonl');
  assert.deepStrictEqual(groups.map((g) => g.group_id).sort(), GROUPS.map((g) => g.id).sort());
  for (const group of groups) {
    assert.equal(group.rounds, ROUNDS);
    assert.equal(group.stop.reason, 'rounds done');
  }
  const shaped = samples.filter((s) => s.network === '10mbit');
  assert.ok(shaped.length > 0 && shaped.every((s) => s.total_ms > 0));

  // The run ends with its report, made from these samples.
  assert.match(output, /Report: .*report\.html/);
  const summary = readFileSync(join(RUN_DIR, 'summary.csv'), 'utf8').trim().split('\n');
  assert.equal(summary.length, 1 + EXPECTED.length);
  assert.match(
    readFileSync(join(RUN_DIR, 'report.md'), 'utf8'),
    /## How does the interchange format affect the response time\? \(research question 1\)/,
  );
  assert.ok(readFileSync(join(RUN_DIR, 'report.html'), 'utf8').includes('<svg'));
});

test('a complete run run again remakes its report with no server: none answers at its BASE_URL, none starts', () => {
  const before = readFileSync(join(RUN_DIR, 'samples.jsonl'), 'utf8');
  const sessions = JSON.parse(readFileSync(join(RUN_DIR, 'run.json'), 'utf8')).sessions.length;
  const reportMade = statSync(join(RUN_DIR, 'report.html')).mtimeMs;
  const { status, output } = study(RUN_DIR, { BASE_URL: `http://127.0.0.1:${NO_SERVER_PORT}` });
  assert.equal(status, 0, output);
  assert.match(
    output,
    new RegExp(`is complete \\(${GROUPS.length} comparison groups\\): remaking its report, with no server`),
  );
  assert.equal((output.match(/already complete/g) ?? []).length, GROUPS.length);
  assert.doesNotMatch(output, /Resuming/);
  const context = JSON.parse(readFileSync(join(RUN_DIR, 'run.json'), 'utf8'));
  assert.equal(context.sessions.length, sessions, 'no session: nothing was warmed up or measured');
  assert.equal(readFileSync(join(RUN_DIR, 'samples.jsonl'), 'utf8'), before);
  assert.ok(statSync(join(RUN_DIR, 'report.html')).mtimeMs > reportMade, 'the report was made again');
});

test("a server the run did not start is used if this checkout's at this commit, or if BASE_URL names it", async () => {
  const info = await serverInfo();
  const decide = (options) =>
    serverDecision({ baseUrl: BASE_URL, named: false, shaping: 'cdp', complete: false, root: ROOT, ...options });
  // The test's server stops with this process (exitWith): to a run of another process, it is
  // another live run's, whatever its checkout.
  assert.equal(info.process.exit_with, process.pid);
  await assert.rejects(
    decide({ runPid: process.ppid }),
    new RegExp(
      `^Error: A server this run did not start answers at ${BASE_URL.replace(/[.]/g, '\\.')} \\(pid ${info.process.pid}, ` +
        `started .* from ${ROOT.replace(/\/$/, '')} at commit [0-9a-f]{12}\\), and it belongs to another run, still going ` +
        `\\(process ${process.pid}\\)\\. Stop it \\(kill ${info.process.pid}\\); or set BASE_URL=`,
    ),
  );
  assert.deepStrictEqual((await decide({ runPid: process.ppid, named: true })).start, false, 'named by BASE_URL: used');
  const same = await decide({ runPid: process.pid });
  assert.equal(same.start, false, "this checkout at this commit, this run's");
  assert.match(same.note, /^using the server already running at/);
  assert.deepStrictEqual(await decide({ runPid: process.pid, baseUrl: `http://127.0.0.1:${NO_SERVER_PORT}` }), {
    start: true,
  });
  // A server of the run's own stops with the run, and takes the next port for its admin port.
  const own = webServer(`http://localhost:${NO_SERVER_PORT}`, 4242);
  // (Each word as the shell takes it: quoted where it has [ and ].)
  assert.match(own.command, new RegExp(`applicationConnectors\\[0\\]\\.port=${NO_SERVER_PORT}'? `));
  assert.match(own.command, new RegExp(`adminConnectors\\[0\\]\\.port=${NO_SERVER_PORT + 1}'? -Ddw\\.exitWith=4242 `));
  assert.equal(own.reuseExistingServer, false);
});

test('a run killed mid-round loses only that round; the group goes on from its last complete round', () => {
  const groups = lines('groups.jsonl');
  const lost = groups.find((g) => g.cells.length > 1);
  const cells = lines('cells.jsonl');
  const rounds = lines('rounds.jsonl');
  // What a kill -9 in round 3 leaves: the group and its cells not complete, round 3's samples
  // written but not its round line, and half a line more.
  writeFileSync(
    join(RUN_DIR, 'groups.jsonl'),
    groups
      .filter((g) => g !== lost)
      .map((g) => `${JSON.stringify(g)}\n`)
      .join(''),
  );
  writeFileSync(
    join(RUN_DIR, 'cells.jsonl'),
    cells
      .filter((c) => c.group_id !== lost.group_id)
      .map((c) => `${JSON.stringify(c)}\n`)
      .join(''),
  );
  writeFileSync(
    join(RUN_DIR, 'rounds.jsonl'),
    rounds
      .filter((r) => !(r.group_id === lost.group_id && r.round === 3))
      .map((r) => `${JSON.stringify(r)}\n`)
      .join(''),
  );
  appendFileSync(join(RUN_DIR, 'samples.jsonl'), '{"case_id":"books/10/json/none/scenario1/cm0/unthr');

  const { status, output } = study();
  assert.equal(status, 0, output);
  assert.match(
    output,
    new RegExp(
      `Resuming .*: ${GROUPS.length - 1} comparison groups complete, ` +
        `${lost.cells.length + 1} samples of unfinished rounds dropped`,
    ),
  );
  assert.equal((output.match(/already complete/g) ?? []).length, GROUPS.length - 1);
  assert.match(output, new RegExp(`${lost.group_id.replace(/[/]/g, '\\/')}: round 3,`), 'it went on with round 3');
  assert.doesNotMatch(output, new RegExp(`${lost.group_id.replace(/[/]/g, '\\/')}: round 1,`));
  const after = lines('cells.jsonl');
  assert.deepStrictEqual(after.map((c) => c.case_id).sort(), [...EXPECTED].sort());
  const samples = lines('samples.jsonl');
  assert.equal(samples.length, EXPECTED.length * ROUNDS);
  const resumed = samples.filter((s) => s.group_id === lost.group_id);
  assert.deepStrictEqual([...new Set(resumed.map((s) => s.round))].sort(), [1, 2, 3]);
  assert.equal(new Set(resumed.map((s) => s.session)).size, 2, 'rounds 1–2 from the first session, 3 from the second');
});

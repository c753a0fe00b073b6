// The smoke plan as two shards (Playwright's --shard, as on two machines), each run against a real
// server, merged into one run (npm run merge's mergeRuns) that holds every cell and sample of the
// plan once. Nothing here checks a time, so npm test runs this file beside others (scripts/test.sh).

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { caseId } from '#common/cell.js';
import { mergeRuns, readRun } from '#common/run-directory.js';
import { temporaryDirectory } from '#common/temporary-directory.js';
import { expandPlan, loadPlan } from '../plan.js';
import { serverForTests } from './server-runs.js';
import { testPort } from './test-resources.js';

const { runPlan } = serverForTests(testPort(18112, 24));
const SMOKE = loadPlan('smoke');

test('two shards run their own halves of the cells and merge into one run', () => {
  const shards = [1, 2].map(
    (shard) =>
      runPlan(`rtl-shard-${shard}-`, SMOKE, { SHAPING: 'cdp', CDP_CALIBRATE: '0' }, [`--shard=${shard}/2`]).runDir,
  );
  const halves = shards.map((dir) => readRun(dir).groups.length);
  assert.ok(
    halves.every((n) => n > 0),
    `each shard ran some groups: ${halves}`,
  );
  assert.equal(readRun(shards[0]).context.shard.total, 2);
  const merged = join(temporaryDirectory('rtl-shards-'), 'merged');
  mergeRuns(shards, merged);
  const { cells, samples } = readRun(merged);
  const expected = expandPlan(SMOKE).map(caseId);
  assert.deepStrictEqual(cells.map((c) => c.case_id).sort(), [...expected].sort());
  const rounds = SMOKE.protocol.rounds.maxRounds;
  assert.equal(samples.length, expected.length * rounds);
});

// The study: one test per comparison group of the plan, named by its group id. Each test opens
// the client page, shapes its network, and runs the group through window.lab.runGroup (the same
// code a person uses): its cells warmed up, then interleaved in seeded rounds until every
// comparison is settled (resolved, at 3 looks in a row) or the budget runs out; the judgment it
// stopped on is stored with the group. Each round's samples reach the run directory
// between rounds, never during a timed iteration; a resumed group goes on from its last
// complete round.

import { test } from '@playwright/test';
import { FORMATS, OBJECT_NAMES } from '#common/catalogue.js';
import { applyCdpShaping } from './network/profiles.js';
import { shapeNetns } from './network/netns.js';
import { comparisonGroups, groupsSelected } from './plan.js';
import { protocolPage } from './protocols.js';
import { RunDirectory } from '#common/run-directory.js';
import { sessionGrep, studySettings } from './study-settings.js';
import { COMPLETED_EARLIER } from './progress-reporter.js';
import { groupProtocol } from '../client/group-runner.js';
import { TimePool } from './budget/pool.js';
import { rememberCellTimes } from './budget/cell-time-memory.js';

const settings = studySettings();
const groups = comparisonGroups(settings.plan, { network: settings.network });
/** A share as the progress line gives it: "0.4s", "25s". */
const seconds = (ms) => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)}s`;
/** The run's calibration of Chromium's emulation, per profile (global-setup.js). */
const cdpFactor = (context, network) => context.networks?.[network]?.cdp?.factor ?? 1;

/**
 * The browser's throwaway pages (study-settings.js BROWSER_WARMUP_PAGES), before the first group
 * this worker measures, so that a worker whose groups were all completed earlier starts no
 * browser at all.
 */
let browserWarmedUp = false;

/**
 * The plan's total time, shared among the groups this session runs (those -g lets through that
 * no earlier session completed; budget/pool.js), or null
 * for a plan without one: made at this worker's first group from the cost the global setup
 * estimated (run.json `budget`), counting this session from when the runner started it.
 */
let pool;
function timePool(run, context, { shard, project }) {
  if (pool !== undefined) return pool;
  const budget = context.budget;
  if (!budget?.total_ms) return (pool = null);
  const started = Number(process.env.RTL_SESSION_STARTED) || Date.now();
  const done = run.completedGroups();
  const finished = new Set(done.map((g) => g.group_id));
  // Earlier sessions' groups: their own time (a resumed run was not running between sessions).
  const usedMs = done
    .filter((g) => Date.parse(g.finished_at) < started)
    .reduce((sum, g) => sum + (Date.parse(g.finished_at) - Date.parse(g.started_at)), 0);
  const estimates = new Map(budget.groups.map((g) => [g.id, g]));
  return (pool = new TimePool({
    totalMs: budget.total_ms,
    usedMs,
    startedMs: started,
    groups: groupsSelected(groups, { name: project.name, ...sessionGrep() })
      .filter((g) => !finished.has(g.id))
      .map((g) => estimates.get(g.id) ?? { id: g.id, warmup_ms: 0, round_ms: 0 }),
    shards: shard?.total ?? 1,
  }));
}
async function warmUpBrowser(browser, baseURL) {
  for (let i = 0; i < settings.browserWarmupPages; i++) {
    const context = await browser.newContext({ baseURL });
    const page = await context.newPage();
    await page.goto('/');
    await page.evaluate(() => window.labReady);
    await page.evaluate(
      async ({ objects, formats }) => {
        for (const object of objects) {
          for (const format of formats) {
            for (let j = 0; j < 10; j++) {
              const data = await window.lab.fetchObjects({ object, format, compression: 'none', count: 10 });
              if (data.length !== 10) throw new Error(`the browser warm-up got ${data.length} ${object}`);
            }
          }
        }
      },
      { objects: OBJECT_NAMES, formats: FORMATS },
    );
    await context.close();
  }
  browserWarmedUp = true;
}

// Before any fixture but the base URL (no page, no browser): a group completed earlier is skipped.
test.beforeEach(({ baseURL: _baseURL }, testInfo) => {
  testInfo.skip(new RunDirectory(process.env.RUN_DIR).completedGroupIds().has(testInfo.title), COMPLETED_EARLIER);
});

for (const group of groups) {
  test(group.id, async ({ page, browser }, testInfo) => {
    if (!browserWarmedUp) await warmUpBrowser(browser, testInfo.project.use.baseURL);
    const run = new RunDirectory(process.env.RUN_DIR);
    const context = run.readContext();
    const { cells } = group;
    const writer = run.startGroup(group.id, cells);
    const earlier = writer.earlier();
    const shares = timePool(run, context, { shard: testInfo.config.shard, project: testInfo.project });

    await page.goto(protocolPage(context, group.protocol)); // the protocol's origin: its connector
    await page.evaluate(() => window.labReady);
    if (settings.shaping === 'cdp') await applyCdpShaping(page, group.network, cdpFactor(context, group.network));
    else if (settings.shaping === 'netns') shapeNetns(group.network);
    await page.waitForTimeout(settings.pageSettleMs); // the new page's start-up work ends first

    // Called between rounds only (awaited by the page): writes the round, says how far it got.
    await page.exposeFunction('rtlRecordRound', (round) => {
      writer.round(round);
      process.stdout.write(
        `  ${group.id}: round ${round.round}, ${round.resolved}/${round.comparisons} comparisons resolved\n`,
      );
    });
    // Asked once, after the group's warm-up: its share of the plan's total time.
    if (shares) {
      const { rounds } = groupProtocol(settings.plan.protocol ?? {});
      await page.exposeFunction('rtlBudget', (measured) => shares.share(group.id, measured, rounds));
    }
    const result = await page.evaluate(
      async ({ group, protocol, options, pooled }) =>
        window.lab.runGroup(group, protocol, {
          ...options,
          onRound: (round) => window.rtlRecordRound(round),
          ...(pooled && { budget: (measured) => window.rtlBudget(measured) }),
        }),
      {
        group: { id: group.id, cells: group.cells },
        protocol: settings.plan.protocol,
        options: {
          seed: context.seed,
          startRound: earlier.lastRound + 1,
          earlier: earlier.samples.map((s) => ({ case_id: s.case_id, round: s.round, total_ms: s.total_ms })),
          // What earlier groups of this run verified is not fetched again (the bytes do not depend
          // on the network): client/runner.js verify.
          verified: [...new Set(run.completedCells().flatMap((c) => c.verification?.keys ?? []))],
        },
        pooled: Boolean(shares),
      },
    );
    writer.complete(result);
    // What the next run on this machine estimates its groups from (budget/cell-time-memory.js).
    rememberCellTimes(context.browser, context.shaping, result.cells);
    const judged = result.judgment.comparisons;
    const resolved = judged.filter((c) => c.verdict !== 'unresolved').length;
    testInfo.annotations.push(
      { type: 'time', description: JSON.stringify(result.time) },
      { type: 'rounds', description: String(result.rounds) },
      { type: 'resolved', description: `${resolved}/${judged.length}` },
      {
        type: 'stop',
        description:
          result.stop.reason +
          (result.stop.closing_rounds
            ? `, after ${result.stop.closing_rounds} round` +
              `${result.stop.closing_rounds === 1 ? '' : 's'} for comparisons one more could close`
            : '') +
          (result.stop.decision_time
            ? `, then ${result.stop.decision_time.rounds} round` +
              `${result.stop.decision_time.rounds === 1 ? '' : 's'} for the decision`
            : '') +
          (result.budget ? `; its share of the total ${seconds(result.budget.rounds_ms)} of rounds` : ''),
      },
    );
  });
}

// The study: one test per cell of the plan, named by its case id. Each test opens the client
// page, shapes its network, runs the cell through window.lab (the same code a person uses),
// streams every sample into the run directory and records the completed cell.

import { test } from '@playwright/test';
import { FORMATS, OBJECT_NAMES, caseId } from '../client/schema.js';
import { applyCdpShaping } from './network/profiles.js';
import { shapeNetns } from './network/netns.js';
import { expandPlan } from './plan.js';
import { RunDirectory } from './results.js';
import { studySettings } from './study-settings.js';

const settings = studySettings();
const cells = expandPlan(settings.plan, { network: settings.network });
/** The run's calibration of Chromium's emulation, per profile (global-setup.js). */
const cdpFactor = (run, network) => run.readContext().networks?.[network]?.cdp?.factor ?? 1;

/**
 * The worker's browser is new, and its first pages compile the client and fill its caches: the
 * first cell of a run measured ~40 % slower than its neighbours (10 Books, unthrottled). Three
 * throwaway pages, each loading the client and fetching every format a few times, go first.
 */
const BROWSER_WARMUP_PAGES = 3;
test.beforeAll(async ({ browser }, testInfo) => {
  for (let i = 0; i < BROWSER_WARMUP_PAGES; i++) {
    const context = await browser.newContext({ baseURL: testInfo.project.use.baseURL });
    const page = await context.newPage();
    await page.goto('/');
    await page.evaluate(() => window.labReady);
    await page.evaluate(async ({ objects, formats }) => {
      for (const object of objects) {
        for (const format of formats) {
          for (let j = 0; j < 10; j++) {
            const data = await window.lab.fetchObjects({ object, format, compression: 'none', count: 10 });
            if (data.length !== 10) throw new Error(`the browser warm-up got ${data.length} ${object}`);
          }
        }
      }
    }, { objects: OBJECT_NAMES, formats: FORMATS });
    await context.close();
  }
});

for (const cell of cells) {
  const id = caseId(cell);
  test(id, async ({ page }, testInfo) => {
    const run = new RunDirectory(process.env.RUN_DIR);
    test.skip(run.completedCaseIds().has(id), 'completed earlier in this run directory');

    await page.goto('/');
    await page.evaluate(() => window.labReady);
    if (settings.shaping === 'cdp') await applyCdpShaping(page, cell.network, cdpFactor(run, cell.network));
    else shapeNetns(cell.network);
    await page.waitForTimeout(settings.pageSettleMs); // the new page's start-up work ends first

    const writer = run.startCell(id, cell);
    await page.exposeFunction('rtlRecordSample', (sample) => writer.sample(sample));
    let result;
    try {
      result = await page.evaluate(async ({ cell, protocol }) => {
        const recorded = [];
        const outcome = await window.lab.runCell(cell, {
          ...protocol,
          onSample: (sample) => recorded.push(window.rtlRecordSample(sample)),
        });
        await Promise.all(recorded);
        return { ...outcome, samples: undefined, sample_count: outcome.samples.length };
      }, { cell, protocol: settings.plan.protocol });
    } catch (error) {
      writer.abandon();
      throw error;
    }
    if (writer.written !== result.sample_count) {
      throw new Error(`${id}: ${result.sample_count} samples taken but ${writer.written} written`);
    }
    writer.complete({ n: result.sample_count, summary: result.summary, protocol: result.protocol,
      verification: result.verification, context: result.context });
    testInfo.annotations.push({ type: 'median_ms', description: String(result.summary.median) },
      { type: 'samples', description: String(result.sample_count) });
  });
}

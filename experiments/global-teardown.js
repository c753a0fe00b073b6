// After the last cell: drops the samples of cells that did not complete (a failed
// verification, a stop), so that samples.jsonl holds complete cells only, then makes the
// report (report.html, report.md, summary.csv) in the run directory.
import { makeReport } from '../analysis/report.js';
import { RunDirectory } from '#common/run-directory.js';
import { stopNetnsStudy } from './network/netns.js';
import { studySettings } from './study-settings.js';

export default async function globalTeardown() {
  const run = new RunDirectory(process.env.RUN_DIR);
  if (studySettings().shaping === 'netns') await stopNetnsStudy();
  if (!run.exists()) return;
  run.compact();
  console.log(`Results: ${process.env.RUN_DIR}`);
  if (run.completedCaseIds().size === 0) return;
  try {
    const made = await makeReport([process.env.RUN_DIR]);
    console.log(`Report: ${made.outDirectory}/report.html (and report.md, summary.csv)`);
  } catch (error) {
    console.log(
      `The report could not be made (${error.message}); remake it with: npm run report -- ${process.env.RUN_DIR}`,
    );
  }
}

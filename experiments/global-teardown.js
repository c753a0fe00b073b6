// After the last cell: drops the samples of cells that did not complete (a failed
// verification, a stop), so that samples.jsonl holds complete cells only.
import { RunDirectory } from './results.js';
import { stopNetnsStudy } from './netns.js';
import { studySettings } from './study-settings.js';

export default async function globalTeardown() {
  const run = new RunDirectory(process.env.RUN_DIR);
  if (studySettings().shaping === 'netns') stopNetnsStudy();
  if (!run.exists()) return;
  run.compact();
  console.log(`Results: ${process.env.RUN_DIR}`);
}

// npm run compare-runs -- <run A> <run B> [--json <file>]: do two runs of one plan agree?
import { writeFileSync } from 'node:fs';
import { runsAndJson } from './cli-options.js';
import { compareRuns, describeAgreement } from './compare-runs.js';

const { paths, jsonFile, jsonWithoutFile } = runsAndJson(process.argv.slice(2));
if (paths.length !== 2 || jsonWithoutFile) {
  console.error('usage: npm run compare-runs -- <run directory A> <run directory B> [--json <file>]');
  process.exit(2);
}
try {
  const result = compareRuns(paths[0], paths[1]);
  for (const line of describeAgreement(result)) console.log(line);
  if (jsonFile) writeFileSync(jsonFile, `${JSON.stringify({ runs: paths, ...result }, null, 1)}\n`);
} catch (error) {
  console.error(`error: ${error.message}`);
  process.exit(1);
}

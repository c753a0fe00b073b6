// npm run compare-runs -- <run A> <run B> [--json <file>]: do two runs of one plan agree?
import { writeFileSync } from 'node:fs';
import { compareRuns, describeAgreement } from './compare-runs.js';

const args = process.argv.slice(2);
const jsonAt = args.indexOf('--json');
const jsonFile = jsonAt >= 0 ? args[jsonAt + 1] : null;
const paths = args.filter((_, i) => jsonAt < 0 || (i !== jsonAt && i !== jsonAt + 1));
if (paths.length !== 2) {
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

// npm run compare-runs -- <run A> <run B> [<run C> …] [--json <file>]: do runs of one plan agree?
// Two runs: every figure of the pair (compareRuns). More: each pair's agreement, and what is not
// the same in all of them (compareMany).
import { writeFileSync } from 'node:fs';
import { runsAndJson } from './cli-options.js';
import { compareMany, compareRuns, describeAgreement, describeMany } from './compare-runs.js';

const { paths, jsonFile, jsonWithoutFile } = runsAndJson(process.argv.slice(2));
if (paths.length < 2 || jsonWithoutFile) {
  console.error(
    'usage: npm run compare-runs -- <run directory A> <run directory B> [<run directory C> …] [--json <file>]',
  );
  process.exit(2);
}
try {
  const result = paths.length === 2 ? { runs: paths, ...compareRuns(paths[0], paths[1]) } : compareMany(paths);
  for (const line of paths.length === 2 ? describeAgreement(result) : describeMany(result)) console.log(line);
  if (jsonFile) writeFileSync(jsonFile, `${JSON.stringify(result, null, 1)}\n`);
} catch (error) {
  console.error(`error: ${error.message}`);
  process.exit(1);
}

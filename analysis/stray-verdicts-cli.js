// npm run stray-verdicts -- <run directory> [--json <file>]: how often a resolved verdict strays (stray-verdicts.js).
import { writeFileSync } from 'node:fs';
import { runsAndJson } from './cli-options.js';
import { describeStrays, strayVerdicts } from './stray-verdicts.js';

const { paths, jsonFile, jsonWithoutFile } = runsAndJson(process.argv.slice(2));
if (paths.length !== 1 || jsonWithoutFile) {
  console.error('usage: npm run stray-verdicts -- <run directory> [--json <file>]');
  process.exit(2);
}
try {
  const result = strayVerdicts(paths[0]);
  for (const line of describeStrays(result)) console.log(line);
  if (jsonFile) writeFileSync(jsonFile, `${JSON.stringify(result, null, 1)}\n`);
} catch (error) {
  console.error(`error: ${error.message}`);
  process.exit(1);
}

// npm run stray-verdicts -- <run directory> [--json <file>]: how often a resolved verdict strays (stray-verdicts.js).
import { writeFileSync } from 'node:fs';
import { describeStrays, strayVerdicts } from './stray-verdicts.js';

const args = process.argv.slice(2);
const jsonAt = args.indexOf('--json');
const jsonFile = jsonAt >= 0 ? args[jsonAt + 1] : null;
const paths = args.filter((_, i) => jsonAt < 0 || (i !== jsonAt && i !== jsonAt + 1));
if (paths.length !== 1 || (jsonAt >= 0 && !jsonFile)) {
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

#!/usr/bin/env node
// npm run report -- <run dir> [<run dir> …] [--out <dir>]: the report of one or more runs.
import { makeReport } from './report.js';

const args = process.argv.slice(2);
const outIndex = args.indexOf('--out');
const out = outIndex >= 0 ? args[outIndex + 1] : undefined;
const runs = args.filter((_, i) => outIndex < 0 || (i !== outIndex && i !== outIndex + 1));
if (runs.length === 0) {
  console.error('usage: npm run report -- <run directory> [<run directory> …] [--out <directory>]');
  process.exit(2);
}
try {
  const made = await makeReport(runs, out);
  console.log(`Report of ${made.cells} cells (${made.comparisons} comparisons, ${made.charts} charts): `
    + `${made.outDirectory}/report.html, report.md, summary.csv`);
} catch (error) {
  console.error(`error: ${error.message}`);
  process.exit(1);
}

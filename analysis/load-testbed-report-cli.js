#!/usr/bin/env node
// npm run report:load -- <load run directory>: remakes the load testbed's report (report.md,
// report.html, summary.csv, charts/) from the run's cells.jsonl.
import { makeLoadReport } from './load-testbed-report.js';

const [runDir, ...rest] = process.argv.slice(2);
if (!runDir || rest.length) {
  console.error('usage: npm run report:load -- <load run directory>');
  process.exit(2);
}
try {
  const made = await makeLoadReport(runDir);
  console.log(`Load report of ${made.rows.length} cells: ${made.html} (and report.md, summary.csv)`);
} catch (error) {
  console.error(`error: ${error.message}`);
  process.exit(1);
}

#!/usr/bin/env node
// npm run report -- <run dir> [<run dir> …] [--out <dir>] [--weights encode/transfer/size/decode]:
// the report of one or more runs (the weighted index with the given weights, default 40/20/35/5).
import { makeReport } from './report.js';
import { parseWeights } from '#common/weighted-index.js';

const USAGE = 'usage: npm run report -- <run directory> [<run directory> …] [--out <directory>] [--weights 40/20/35/5]';
const args = process.argv.slice(2);
const options = {};
const runs = [];
try {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--out' || args[i] === '--weights') {
      if (args[i + 1] === undefined) throw new Error(`${args[i]} needs a value`);
      options[args[i].slice(2)] = args[++i];
    } else if (args[i].startsWith('--')) {
      throw new Error(`unknown option ${args[i]}`);
    } else {
      runs.push(args[i]);
    }
  }
  if (runs.length === 0) throw new Error('give at least one run directory');
  const made = await makeReport(runs, options.out, options.weights ? { weights: parseWeights(options.weights) } : {});
  console.log(
    `Report of ${made.cells} cells (${made.comparisons} comparisons, ${made.charts} charts): ` +
      `${made.outDirectory}/report.html, report.md, summary.csv`,
  );
} catch (error) {
  console.error(`error: ${error.message}\n${USAGE}`);
  process.exit(
    error.message.startsWith('give') || error.message.includes('option') || error.message.includes('needs') ? 2 : 1,
  );
}

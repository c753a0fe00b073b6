#!/usr/bin/env node
// Merges shards' run directories into one run: npm run merge -- --out results/merged results/a results/b
import { mergeRuns } from '#common/run-directory.js';

const args = process.argv.slice(2);
const outIndex = args.indexOf('--out');
if (outIndex < 0 || !args[outIndex + 1]) {
  console.error('usage: npm run merge -- --out <new run directory> <run directory> <run directory> …');
  process.exit(2);
}
const out = args[outIndex + 1];
const inputs = args.filter((_, i) => i !== outIndex && i !== outIndex + 1);
try {
  const { cells, samples } = mergeRuns(inputs, out);
  console.log(`Merged ${inputs.length} runs into ${out}: ${cells} cells, ${samples} samples.`);
} catch (error) {
  console.error(`error: ${error.message}`);
  process.exit(1);
}

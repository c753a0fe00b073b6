#!/usr/bin/env node
// A run's watchdog (guard.js starts it): a process of its own session, so that a signal to the
// run's process group (Ctrl-C, a CI timeout's kill -9 of the group) does not reach it. Its
// standard input is a pipe from the run's process; when that ends — the run exited, or was killed
// by any signal — it removes whatever the run left (clean-up.js), says so in one line on the run's
// standard error, and removes the run's record.
//
//   node experiments/run-guard/watchdog.js <record file>

import { readRecord, removeRecord } from './record.js';
import { describeRun, removeLeftovers } from './clean-up.js';

const [path] = process.argv.slice(2);
for (const signal of ['SIGINT', 'SIGHUP', 'SIGTERM']) process.on(signal, () => {});
process.stderr.on('error', () => {}); // the terminal may have gone with the run

process.stdin.resume();
process.stdin.on('data', () => {});
process.stdin.on('close', async () => {
  let record;
  try {
    record = readRecord(path);
  } catch {
    process.exit(0); // nothing recorded: nothing to do
  }
  const said = await removeLeftovers(record);
  removeRecord(path);
  if (said.length) {
    process.stderr.write(`The run ${describeRun(record)} ended; its watchdog ${said.join('; ')}.\n`);
  }
  process.exit(0);
});

#!/usr/bin/env node
// npm run load:merge -- --rate <requests/s> --window <s> [--target <ms>] <results>...: the
// figures of one constant-rate window attacked from several load machines. Each machine ran the
// same target with `vegeta attack -rate <its share> -duration <window> -name <its own name>`
// (Vegeta's way of attacking from several hosts); their results files (any of Vegeta's encodings)
// are merged as `vegeta report` merges them, each generator on its own schedule
// (analysis/open-loop.js). Prints what was asked and sent per generator, the latency percentiles
// from each request's due time, errors and non-2xx, the verdict against the target, and
// Vegeta's own reading of the same files beside; --json prints the figures as JSON.

import { parseArgs } from 'node:util';
import { probeVerdict, windowFigures } from '../../analysis/open-loop.js';
import { readResults, vegetaReport, vegetaVersion } from './vegeta.js';

const USAGE =
  'usage: npm run load:merge -- --rate <requests/s, all generators together> --window <seconds> ' +
  '[--target <p99 ms>] [--max-send-lag <ms>] [--json] <results file>...';

function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      rate: { type: 'string' },
      window: { type: 'string' },
      target: { type: 'string' },
      'max-send-lag': { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const number = (name, value) => {
    const parsed = Number(value);
    if (value === undefined || !(parsed > 0)) throw new Error(`--${name} is a number above 0. ${USAGE}`);
    return parsed;
  };
  if (positionals.length === 0) throw new Error(`no results files. ${USAGE}`);
  if (!vegetaVersion()) throw new Error('Vegeta is not installed: run `bash scripts/setup.sh` (it builds it with Go)');
  const ratePerS = number('rate', values.rate);
  const windowS = number('window', values.window);
  const target = values.target === undefined ? null : number('target', values.target);
  const maxSendLagMs =
    values['max-send-lag'] === undefined ? (target ?? 100) / 10 : number('max-send-lag', values['max-send-lag']);
  const figures = windowFigures(readResults(positionals), { ratePerS, windowS, maxSendLagMs });
  delete figures.histogram;
  const verdict = target === null ? null : probeVerdict(figures, { p99TargetMs: target, maxSendLagMs });
  const own = vegetaReport(positionals);
  if (values.json) {
    console.log(JSON.stringify({ figures, verdict, vegeta_report: own }, null, 2));
    return;
  }
  const ms = (v) => (v === null ? '–' : v.toFixed(1));
  console.log(`${positionals.length} results files, ${figures.generators.length} generators (attack names):`);
  for (const g of figures.generators) {
    console.log(
      `  ${g.attack || '(no name)'}: asked ${g.asked_per_s.toFixed(1)}/s, ` +
        `sent ${g.sent} (${g.sent_per_s.toFixed(1)}/s), ` +
        `send lag p99 ${ms(g.send_lag_ms.p99)} ms`,
    );
  }
  console.log(
    `together: asked ${ratePerS}/s for ${windowS} s, ` +
      `sent ${figures.sent} (${(figures.sent_share * 100).toFixed(1)} %), ` +
      `${figures.ok} answered 2xx, ${figures.non_2xx} non-2xx, ${figures.errors} errors`,
  );
  const l = figures.latency_ms;
  console.log(
    `latency from the due time: p50 ${ms(l.p50)}, p90 ${ms(l.p90)}, p99 ${ms(l.p99)}, ` +
      `p99.9 ${ms(l['p99.9'])}, max ${ms(l.max)} ms`,
  );
  const v = own.latencies;
  console.log(
    `Vegeta's own report (from the send): ${own.requests} requests, rate ${own.rate.toFixed(1)}/s, ` +
      `p50 ${ms(v['50th'] / 1e6)}, p99 ${ms(v['99th'] / 1e6)}, max ${ms(v.max / 1e6)} ms`,
  );
  if (verdict) console.log(`against a p99 target of ${target} ms: ${verdict}`);
}

try {
  main();
} catch (error) {
  console.error(`error: ${error.message}`);
  process.exit(2);
}

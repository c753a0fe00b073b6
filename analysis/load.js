// Reads run directories (merged shards too) into cells with their samples and statistics.

import { median as statsMedian, summarize } from '#common/stats.js';
import { readRun, refuseMixedProvenance } from '#common/run-directory.js';
import { judgingOf } from '#common/comparison.js';

/** The one median (common/stats.js) of the finite values; null when there are none. */
const finiteMedian = (values) => {
  const finite = values.filter(Number.isFinite);
  return finite.length ? statsMedian(finite) : null;
};

/**
 * Every completed cell of the runs: {case_id, cell, samples, stats, phases, bytes}; and how
 * their comparisons are judged (`judging`, {delta, looks}): as their plan's stop rule judged
 * them while running — one rule, since runs with different protocols are refused.
 */
export function loadRuns(paths) {
  const runs = paths.map((path) => ({ path, ...readRun(path) }));
  refuseMixedProvenance(runs);
  const cells = [];
  const seen = new Set();
  for (const run of runs) {
    const byCase = new Map();
    for (const sample of run.samples) {
      if (!byCase.has(sample.case_id)) byCase.set(sample.case_id, []);
      byCase.get(sample.case_id).push(sample);
    }
    for (const record of run.cells) {
      if (seen.has(record.case_id)) throw new Error(`${record.case_id} appears in more than one run`);
      seen.add(record.case_id);
      const samples = byCase.get(record.case_id) ?? [];
      const of = (key) => finiteMedian(samples.map((s) => s[key]));
      cells.push({
        case_id: record.case_id,
        cell: record.cell,
        samples,
        stats: summarize(samples.map((s) => s.total_ms)),
        phases: {
          waiting_ms: of('rt_waiting_ms'),
          transfer_ms: of('rt_transfer_ms'),
          decode_ms: of('decode_ms'),
          // Per sample first (a scenario-5 sample computes twice), then the median.
          body_ms: of('body_ms'),
          compute_ms:
            finiteMedian(
              samples.map((s) => (Number.isFinite(s.compute_ms) ? s.compute_ms + (s.second_compute_ms ?? 0) : NaN)),
            ) ?? 0,
          server_sort_ms: of('server_sort_ms'),
          server_serialize_ms: of('server_serialize_ms'),
        },
        bytes: { transfer: of('transfer_size'), encoded: of('encoded_body_size'), decoded: of('decoded_body_size') },
      });
    }
  }
  return { runs, cells, judging: judgingOf(runs[0]?.context?.plan?.protocol?.stop) };
}

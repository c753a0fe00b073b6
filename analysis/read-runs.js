// Reads run directories (merged shards too) into cells with their samples and statistics, and
// each comparison group with the judgment it stopped on (groups.jsonl `judgment`, common/judge.js).
// The report shows those judgments; it does not judge again. It does recompute each one from the
// group's samples as a check, and refuses a run whose stored judgment the samples do not give.

import { median as statsMedian, summarize } from '#common/stats.js';
import { readRun, refuseMixedProvenance } from '#common/run-directory.js';
import { judgingOf } from '#common/comparison.js';
import { judgeGroup } from '#common/judge.js';

/** The one median (common/stats.js) of the finite values; null when there are none. */
const finiteMedian = (values) => {
  const finite = values.filter(Number.isFinite);
  return finite.length ? statsMedian(finite) : null;
};

/** A judgment as a results file holds it (NaN and ±Infinity become null in JSON). */
const asStored = (judgment) => JSON.parse(JSON.stringify(judgment));

/** Where two stored judgments first differ, as a path and the two values, or null. */
function firstDifference(a, b, path = 'judgment') {
  if (Object.is(a, b)) return null;
  if (typeof a === 'number' && typeof b === 'number') {
    return Math.abs(a - b) <= 1e-12 * Math.max(Math.abs(a), Math.abs(b)) ? null : `${path}: ${a} ≠ ${b}`;
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const found = firstDifference(a[key], b[key], `${path}.${key}`);
      if (found) return found;
    }
    return null;
  }
  return `${path}: ${JSON.stringify(a)} ≠ ${JSON.stringify(b)}`;
}

/** A judgment without `decided_by` on its comparisons and decision margins. */
function withoutDecidedBy(judgment) {
  const strip = ({ decided_by: _, ...rest }) => rest;
  return {
    ...judgment,
    comparisons: judgment.comparisons.map(strip),
    ...(judgment.decision && { decision: { ...judgment.decision, others: judgment.decision.others.map(strip) } }),
  };
}

/**
 * The judgment of one group: the stored one, checked against the judge's reading of the group's
 * samples; a group stored without one (a run made before judgments were stored) gets the judge's
 * reading, marked `judged_when_read`.
 */
function judgmentOf(record, cells, samples, stop, path) {
  // As it was judged: a run stored before the few-rounds test existed, without it; one stored
  // before the test's, the fastest's or the δ lines' rule version was recorded, with their first
  // versions.
  const fewRounds = record.judgment ? record.judgment.few_rounds === true : undefined;
  const fewRoundsVersion = record.judgment ? (record.judgment.few_rounds_rule ?? 1) : undefined;
  const fastestRule = record.judgment ? (record.judgment.fastest_rule ?? 1) : undefined;
  const marginRule = record.judgment ? (record.judgment.margin_rule ?? 1) : undefined;
  const judged = asStored(
    judgeGroup(cells, samples, stop, new Map(), { fewRounds, fewRoundsVersion, fastestRule, marginRule }),
  );
  if (!record.judgment) return { ...judged, judged_when_read: true };
  // A run stored before comparisons recorded what decided them: compared without that field.
  const recorded = record.judgment.comparisons?.some((c) => 'decided_by' in c) ?? true;
  const difference = firstDifference(record.judgment, recorded ? judged : withoutDecidedBy(judged));
  if (difference) {
    throw new Error(
      `${path}: the judgment stored for group ${record.group_id} is not what its samples give ` +
        `(${difference}); the run's samples or groups.jsonl were changed after the run`,
    );
  }
  return record.judgment;
}

/**
 * Every completed cell of the runs: {case_id, cell, samples, stats, phases, bytes}; every
 * completed group: {group_id, case_ids, rounds, stop, time (where its time went, or null for runs
 * made before it was recorded), budget (its share of a plan's total time, or null), judgment}; and how they were judged
 * (`judging`, {delta, looks}: their plan's stop rule — one rule, since runs with different
 * protocols are refused).
 */
export function readRuns(paths) {
  const runs = paths.map((path) => ({ path, ...readRun(path) }));
  refuseMixedProvenance(runs);
  const cells = [];
  const groups = [];
  const seen = new Set();
  for (const run of runs) {
    const byCase = new Map();
    for (const sample of run.samples) {
      if (!byCase.has(sample.case_id)) byCase.set(sample.case_id, []);
      byCase.get(sample.case_id).push(sample);
    }
    const runCells = new Map();
    for (const record of run.cells) {
      if (seen.has(record.case_id)) throw new Error(`${record.case_id} appears in more than one run`);
      seen.add(record.case_id);
      const samples = byCase.get(record.case_id) ?? [];
      const of = (key) => finiteMedian(samples.map((s) => s[key]));
      const cell = {
        case_id: record.case_id,
        group_id: record.group_id,
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
      };
      cells.push(cell);
      runCells.set(record.case_id, cell);
    }
    const stop = run.context?.plan?.protocol?.stop;
    for (const record of run.groups) {
      const members = record.cells.map((id) => runCells.get(id)).filter(Boolean);
      if (!members.length) continue;
      const samples = members.flatMap((m) =>
        m.samples.map((s) => ({ case_id: m.case_id, round: s.round, total_ms: s.total_ms })),
      );
      groups.push({
        group_id: record.group_id,
        case_ids: members.map((m) => m.case_id),
        rounds: record.rounds,
        stop: record.stop,
        time: record.time ?? null,
        budget: record.budget ?? null,
        judgment: judgmentOf(
          record,
          members.map((m) => m.cell),
          samples,
          stop,
          run.path,
        ),
      });
    }
  }
  return { runs, cells, groups, judging: judgingOf(runs[0]?.context?.plan?.protocol?.stop) };
}

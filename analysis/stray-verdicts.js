// How often does a verdict that resolved stay resolved? The stop rule judges every comparison
// after every round, and an interval looked at again and again strays past a δ line now and then
// on noise alone (optional stopping). `npm run stray-verdicts -- <run> [--json <file>]` replays
// each comparison a run's groups judged, look by look (a look: a round in which both its cells
// ran, judged on the samples up to it, as group-runner.js does), and counts, for a rule that
// settles a comparison once its verdict held at `looks` looks in a row (1 = at the first
// resolved verdict), how many settled while their group went on sampling them, how many of those
// had another verdict at a later look (open again, or equivalent) or turned the other way (a
// faster against b faster), and how many looks the rule waited beyond the first resolved one.
// It is the evidence for SETTLE_LOOKS (common/comparison.js).

import { VERDICTS, isResolved, sharedRounds, verdictUpTo } from '#common/comparison.js';
import { readRun } from '#common/run-directory.js';

/** The looks compared by default: the first resolved verdict, and 2 or 3 in a row. */
export const LOOKS = [1, 2, 3];

/** A comparison's verdict at each of its looks, oldest first (group-runner.js judges the same). */
export function verdictsByLook(samplesA, samplesB, delta, rule) {
  return sharedRounds(samplesA, samplesB).map((round) => verdictUpTo(samplesA, samplesB, round, delta, rule));
}

/**
 * The counts for one settle rule over comparisons' verdict sequences.
 *
 * @param sequences [[verdict per look]]
 * @param looks a verdict settles once it held at this many looks in a row
 * @returns {looks, settled, sampled_on (settled with later looks), changed_later (of those, another
 *     verdict at a later look — open, or equivalent — never the other way), opposite_later (a
 *     later look the other way: a faster against b faster), waited_looks (beyond the first
 *     resolved look, summed)}
 */
export function strayCounts(sequences, looks) {
  const counts = { looks, settled: 0, sampled_on: 0, changed_later: 0, opposite_later: 0, waited_looks: 0 };
  for (const seq of sequences) {
    const at = seq.findIndex(
      (v, i) => isResolved(v) && i >= looks - 1 && seq.slice(i - looks + 1, i + 1).every((w) => w === v),
    );
    if (at < 0) continue;
    counts.settled++;
    counts.waited_looks += at - seq.findIndex(isResolved);
    const later = seq.slice(at + 1);
    if (!later.length) continue;
    counts.sampled_on++;
    const opposite = { [VERDICTS.A_FASTER]: VERDICTS.B_FASTER, [VERDICTS.B_FASTER]: VERDICTS.A_FASTER }[seq[at]];
    if (later.includes(opposite)) counts.opposite_later++;
    else if (later.some((v) => v !== seq[at])) counts.changed_later++;
  }
  return counts;
}

/** Reads a run directory and counts, for each rule in `looksList`. */
export function strayVerdicts(path, looksList = LOOKS) {
  const run = readRun(path);
  const byCase = new Map();
  for (const s of run.samples) {
    if (!byCase.has(s.case_id)) byCase.set(s.case_id, []);
    byCase.get(s.case_id).push({ round: s.round, value: s.total_ms });
  }
  // The comparisons each group was judged on (its stored judgment; older runs kept them in `stop`),
  // for groups that stopped on verdicts (a stop rule with a δ).
  const sequences = run.groups
    .filter((g) => g.stop?.delta)
    .flatMap((g) =>
      (g.judgment ?? g.stop).comparisons.map((c) =>
        verdictsByLook(byCase.get(c.a) ?? [], byCase.get(c.b) ?? [], g.stop.delta, g.judgment?.margin_rule ?? 1),
      ),
    );
  return { run: path, comparisons: sequences.length, rules: looksList.map((looks) => strayCounts(sequences, looks)) };
}

/** The figures in sentences. */
export function describeStrays(result) {
  return [
    `${result.comparisons} comparisons replayed look by look`,
    ...result.rules.map(
      (r) =>
        `settled at ${r.looks} look${r.looks === 1 ? '' : 's'} in a row: ` +
        `${r.settled} settled, ${r.sampled_on} of them sampled on (their group had open ones); ` +
        `of those, ${r.changed_later} had another ` +
        `verdict at a later look (open, or equivalent), ${r.opposite_later} turned the other way; ` +
        `${r.waited_looks} looks waited in all`,
    ),
  ];
}

// The robust choice across situations, for the report's bottom line and the page's report view,
// where a reader ticks the situations that are theirs: the configuration whose worst slowdown
// against each situation's fastest is smallest (minimax regret). Read from the situations'
// answers (answer-words.js situationAnswer), so its ratios are the ones the report shows.

import { completeCell } from './cell.js';
import { DEFAULT_DELTA } from './comparison.js';
import {
  WORDS,
  configurationWords,
  network,
  objects,
  overProtocolWords,
  plus,
  situationAnswer,
} from './answer-words.js';

const cm = (cell) => (cell.cm ? `, CM${cell.cm}` : '');

/**
 * One situation as the robust choice reads it: its words, whether it sorts, and each
 * configuration's ratio to its fastest (1 for the fastest).
 *
 * @param decision a stored decision with fastest_case_id (analysis/answers.js decisions)
 * @param cellsById case id → {cell}
 * @param delta the run's δ
 * @returns {id (the fastest's case id), words, sorting, ratios: {configuration words → ratio}}
 */
export function situationRatios(decision, cellsById, delta) {
  const answer = situationAnswer(decision, delta);
  const cellOf = (id) => completeCell(cellsById.get(id).cell);
  const fastest = cellOf(answer.fastest);
  const ratios = { [configurationWords(fastest)]: 1 };
  // What each costs over the fastest, in milliseconds: a reader's budget is in time, not ratios.
  const extra = { [configurationWords(fastest)]: 0 };
  // The configurations whose ratio the run could not yet tell for certain.
  const open = [];
  for (const row of answer.rows) {
    if (!Number.isFinite(row.ratio)) continue;
    ratios[configurationWords(cellOf(row.case_id))] = row.ratio;
    extra[configurationWords(cellOf(row.case_id))] = row.extra_ms;
    if (row.word === WORDS.OPEN) open.push(configurationWords(cellOf(row.case_id)));
  }
  return {
    id: decision.group_id ?? answer.fastest,
    words: `${objects(fastest)} ${network(fastest.network)}${overProtocolWords(fastest)}${cm(fastest)}`,
    network: fastest.network,
    sorting: fastest.cm > 0,
    ratios,
    extra,
    open,
  };
}

/**
 * The configuration measured in every one of `situations` whose largest ratio to a situation's
 * fastest is smallest (ties: the lower geometric mean ratio), with that worst case named.
 *
 * @param situations situationRatios results
 * @returns {configuration, worst_ratio, worst_situation, fastest_in, situations, next (the
 *     next best's {configuration, worst_ratio}, or null), most_fastest (the one with the lowest
 *     time in more situations than the choice, with its worst, or null)} | null when no
 *     configuration was measured in every situation (or there are none)
 */
export function robustChoice(situations) {
  if (!situations.length) return null;
  const everywhere = Object.keys(situations[0].ratios).filter((c) => situations.every((s) => c in s.ratios));
  const scored = everywhere.map((configuration) => {
    const ratios = situations.map((s) => s.ratios[configuration]);
    const worst = Math.max(...ratios);
    const worstAt = situations[ratios.indexOf(worst)];
    const logMean = ratios.reduce((sum, r) => sum + Math.log(r), 0) / ratios.length;
    return {
      configuration,
      worst_ratio: worst,
      worst_situation: worstAt.words,
      // Whether that worst ratio is one the run could not yet tell for certain.
      worst_open: (worstAt.open ?? []).includes(configuration),
      worst_extra_ms: worstAt.extra?.[configuration] ?? null,
      // The most time it lost anywhere, which a small answer's worst ratio may hide.
      ...mostLost(situations, configuration),
      fastest_in: ratios.filter((r) => r === 1).length,
      situations: situations.length,
      logMean,
    };
  });
  if (!scored.length) return null;
  scored.sort((x, y) => x.worst_ratio - y.worst_ratio || x.logMean - y.logMean);
  const [best, next] = scored;
  const { logMean: _, ...choice } = best;
  // The one that lost the fewest milliseconds at most, where that is not the choice: a reader who
  // counts time rather than ratios needs it named.
  const timed = scored.filter((c) => Number.isFinite(c.most_lost_ms));
  const fewest = timed.length ? timed.reduce((a, b) => (b.most_lost_ms < a.most_lost_ms ? b : a)) : null;
  // The configuration with the lowest time in the most situations, where that is not the choice:
  // a reader who saw it first in most situations needs to know why it was not chosen.
  const leader = [...scored].sort((x, y) => y.fastest_in - x.fastest_in || x.worst_ratio - y.worst_ratio)[0];
  const most =
    leader !== best && leader.fastest_in > best.fastest_in
      ? {
          configuration: leader.configuration,
          fastest_in: leader.fastest_in,
          worst_ratio: leader.worst_ratio,
          worst_situation: leader.worst_situation,
        }
      : null;
  return {
    ...choice,
    next: next
      ? {
          configuration: next.configuration,
          worst_ratio: next.worst_ratio,
          worst_situation: next.worst_situation,
          most_lost_ms: next.most_lost_ms,
          most_lost_situation: next.most_lost_situation,
        }
      : null,
    most_fastest: most,
    fewest_lost:
      fewest && fewest !== best && fewest.most_lost_ms < best.most_lost_ms
        ? {
            configuration: fewest.configuration,
            most_lost_ms: fewest.most_lost_ms,
            most_lost_situation: fewest.most_lost_situation,
            worst_ratio: fewest.worst_ratio,
          }
        : null,
  };
}

/** The most milliseconds a configuration lost to a situation's fastest, and where. */
function mostLost(situations, configuration) {
  const timed = situations.filter((s) => Number.isFinite(s.extra?.[configuration]));
  if (!timed.length) return { most_lost_ms: null, most_lost_situation: null };
  const most = timed.reduce((a, b) => (b.extra[configuration] > a.extra[configuration] ? b : a));
  return { most_lost_ms: most.extra[configuration], most_lost_situation: most.words };
}

/** How much slower than the fastest a ratio is, in words: "3 % slower", "less than 1 % slower", "1.85× the time". */
export function slowdownWords(ratio, delta = DEFAULT_DELTA) {
  if (ratio >= 2) return `${ratio.toFixed(2)}× the fastest's time`;
  const exact = (ratio - 1) * 100;
  const percent = Math.round(exact);
  if (percent < 1) return 'less than 1 % slower';
  // On the δ line a whole percent would hide which side of it the ratio lies: "4.8 % slower".
  const onLine = percent === Math.round(delta * 100);
  return `${onLine ? exact.toFixed(1) : percent} % slower`;
}

/**
 * The robust choice as a bottom line's row: `answer` (the configuration, and the next best where
 * its worst is within δ of the choice's: "Protobuf with GZIP or JSON with GZIP") and `text` (its
 * worst case, whether that is certain yet, and why the one first in most situations was not
 * chosen): "at worst 22 % slower than the fastest, in 1,000 Books; not yet certain. Protobuf
 * uncompressed: the lowest time in 3 of 4, but 52 % slower in 1,000 Books." With `asides`, also
 * the most time it lost elsewhere and the one that lost the fewest milliseconds.
 */
export function choiceRow(choice, where = (words) => words, delta = 0.05, { first = true, asides = true } = {}) {
  if (!choice) return { answer: 'no single choice', text: 'no configuration was measured in every situation.' };
  const n = choice.situations;
  // A next best as good: within δ of the choice's worst, and, where the choice is within δ of the
  // fastest everywhere, so is it (the "or" must not name one that was not as fast).
  const close =
    choice.next &&
    choice.next.worst_ratio <= choice.worst_ratio * (1 + delta) &&
    (choice.next.worst_ratio <= 1 + delta || choice.worst_ratio > 1 + delta);
  const answer = close ? `${choice.configuration} or ${choice.next.configuration}` : choice.configuration;
  const than = (ratio) => (first && ratio < 2 ? ' than the fastest' : '');
  // Both at the same worst, in the same situation: said once, of each.
  const same =
    close &&
    slowdownWords(choice.next.worst_ratio) === slowdownWords(choice.worst_ratio) &&
    choice.next.worst_situation === choice.worst_situation;
  // With a next best as good, each is named with its own worst.
  const own = close && !same ? `${choice.configuration}: ` : '';
  // "(+29.2 ms there)": what the worst ratio costs in time; where another situation cost much
  // more time (half as much again), that one too, so that no reader takes the first for the most
  // it loses.
  const lostMore =
    asides &&
    Number.isFinite(choice.most_lost_ms) &&
    choice.most_lost_situation !== choice.worst_situation &&
    choice.most_lost_ms > 1.5 * choice.worst_extra_ms
      ? `; the most time it lost: ${plus(choice.most_lost_ms)}, in ${where(choice.most_lost_situation)}`
      : '';
  const extra = Number.isFinite(choice.worst_extra_ms) ? `${plus(choice.worst_extra_ms)} there` : null;
  // Within δ of the fastest at worst is "as fast" in the table's words: said so, then by how much
  // (and what it cost there: "as fast (4 % slower, +10.0 ms there)", "22 % slower (+10.0 ms there)").
  const slowdown = (ratio, cost = null) =>
    ratio <= 1 + delta
      ? `as fast (${slowdownWords(ratio, delta)}${cost ? `, ${cost}` : ''})`
      : `${slowdownWords(ratio, delta)}${than(ratio)}${cost ? ` (${cost})` : ''}`;
  const worst =
    choice.worst_ratio === 1
      ? `${own}the fastest ${n === 1 ? 'there' : n === 2 ? 'in both situations' : `in all ${n} situations`}`
      : `${own}${same ? 'each ' : ''}at worst ${slowdown(choice.worst_ratio, same ? null : extra)}` +
        `, in ${where(choice.worst_situation)}${same ? '' : lostMore}`;
  // The other of an "or" with its own worst, and the most time it lost where that is more.
  const nextLost =
    close &&
    Number.isFinite(choice.next.most_lost_ms) &&
    choice.next.most_lost_situation !== choice.next.worst_situation
      ? `; the most time it lost: ${plus(choice.next.most_lost_ms)}, in ${where(choice.next.most_lost_situation)}`
      : '';
  const next =
    close && !same
      ? `; ${choice.next.configuration}: ${slowdown(choice.next.worst_ratio)}, ` +
        `in ${where(choice.next.worst_situation)}${nextLost}`
      : '';
  const sure = choice.worst_open ? '; not yet certain' : '';
  // The one that lost the fewest milliseconds at most, where the choice lost more: the trade a
  // reader who counts time sees (unless it is the other of an "or", already named with its own).
  const fewest =
    asides && choice.fewest_lost && !(close && choice.fewest_lost.configuration === choice.next.configuration)
      ? ` Fewest milliseconds lost: ${choice.fewest_lost.configuration}, never more than ` +
        `${plus(choice.fewest_lost.most_lost_ms)} behind the fastest ` +
        `(in ${where(choice.fewest_lost.most_lost_situation)}), ` +
        `at worst ${slowdownWords(choice.fewest_lost.worst_ratio)}.`
      : '';
  // Already named beside the choice: its worst is said there.
  const most = close && choice.most_fastest?.configuration === choice.next.configuration ? null : choice.most_fastest;
  const why = most
    ? ` ${most.configuration}: the lowest time in ${most.fastest_in} of ${n}, but ` +
      `${slowdownWords(most.worst_ratio)} in ${where(most.worst_situation)}.`
    : '';
  return { answer, text: `${worst}${next}${sure}.${fewest}${why}` };
}

/**
 * The robust choice in words: "JSON with GZIP (at worst 6 % slower: 1,000 Videos at 10 Mbit/s)",
 * slower than each situation's fastest, or "JSON with GZIP (the fastest in all 4)"; `where`
 * shortens the worst situation's words where the reader already knows its network. The ratios
 * are the run's estimates, not bounds (the bottom line's lead says both once).
 */
export function choiceWords(choice, where = (words) => words, delta = 0.05, { first = true } = {}) {
  if (!choice) return 'no configuration was measured in every one of these situations';
  const n = choice.situations;
  const head =
    choice.worst_ratio === 1
      ? `${choice.configuration} (the fastest ${n === 1 ? 'there' : n === 2 ? 'in both' : `in all ${n}`}`
      : `${choice.configuration} (at worst ${slowdownWords(choice.worst_ratio)}` +
        `${first && choice.worst_ratio < 2 ? ' than the fastest' : ''}, in ${where(choice.worst_situation)}` +
        `${choice.worst_open ? ', not yet certain' : ''}`;
  // A next best whose worst is within δ of the choice's is named, with its own worst.
  const close = choice.next && choice.next.worst_ratio <= choice.worst_ratio * (1 + delta);
  const same = close
    ? `; next best ${choice.next.configuration}, at worst ${slowdownWords(choice.next.worst_ratio)}`
    : '';
  return `${head}${same})`;
}

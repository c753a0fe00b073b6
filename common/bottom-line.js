// The robust choice across situations, for the report's bottom line and the page's report view,
// where a reader ticks the situations that are theirs: the configuration whose worst slowdown
// against each situation's fastest is smallest (minimax regret). Read from the situations'
// answers (answer-words.js situationAnswer), so its ratios are the ones the report shows.

import { completeCell } from './cell.js';
import { DEFAULT_DELTA, byFewRounds } from './comparison.js';
import {
  WORDS,
  configurationWords,
  network,
  objects,
  overProtocolWords,
  percent,
  plus,
  ratioText,
  situationAnswer,
  timesWords,
} from './answer-words.js';

const cm = (cell) => (cell.cm ? `, CM${cell.cm}` : '');

/**
 * One situation as the robust choice reads it: its words, whether it sorts, and each
 * configuration's ratio to its fastest (1 for the fastest), its word there, and how far the
 * ratio could reach where the run ended before it was certain.
 *
 * @param decision a stored decision with fastest_case_id (analysis/answers.js decisions)
 * @param cellsById case id → {cell}
 * @param delta the run's δ
 * @returns {id (the fastest's case id), words, sorting, ratios, extra (ms over the fastest),
 *     verdicts (the four words), ci_high and ci_low (the ratio's bounds), open: configuration words →
 *     each, open the configurations not yet told apart}
 */
export function situationRatios(decision, cellsById, delta) {
  const answer = situationAnswer(decision, delta);
  const cellOf = (id) => completeCell(cellsById.get(id).cell);
  const fastest = cellOf(answer.fastest);
  const first = configurationWords(fastest);
  const ratios = { [first]: 1 };
  // What each costs over the fastest, in milliseconds: a reader's budget is in time, not ratios.
  const extra = { [first]: 0 };
  const verdicts = { [first]: WORDS.FASTEST };
  const ciHigh = {};
  const ciLow = {};
  // The configurations whose ratio the run could not yet tell for certain.
  const open = [];
  for (const row of answer.rows) {
    if (!Number.isFinite(row.ratio)) continue;
    const words = configurationWords(cellOf(row.case_id));
    ratios[words] = row.ratio;
    extra[words] = row.extra_ms;
    verdicts[words] = row.word;
    // The judged ratio's upper bound, on the scale of the ratio shown.
    if (Number.isFinite(row.ci_high) && row.judged_ratio > 0)
      ciHigh[words] = (row.ci_high * row.ratio) / row.judged_ratio;
    // And its lower bound, what a certain "slower" is certain of, as the table of every
    // configuration gives it: the few-rounds test's bound where that test decided (never beyond
    // the ratio shown), the CI's where the CI did.
    const few = byFewRounds(row) ? decision.others.find((o) => o.case_id === row.case_id)?.few_rounds : null;
    const low = byFewRounds(row) ? (few?.low > 1 ? Math.min(few.low, row.ratio) : NaN) : row.ci_low;
    if (Number.isFinite(low)) ciLow[words] = low;
    if (row.word === WORDS.OPEN) open.push(words);
  }
  return {
    id: decision.group_id ?? answer.fastest,
    words: `${objects(fastest)} ${network(fastest.network)}${overProtocolWords(fastest)}${cm(fastest)}`,
    network: fastest.network,
    sorting: fastest.cm > 0,
    ratios,
    extra,
    verdicts,
    ci_high: ciHigh,
    ci_low: ciLow,
    open,
  };
}

/**
 * A configuration's word in one situation: the stored one, or for situations read before words
 * were kept, the word its ratio and openness give.
 */
function wordIn(situation, configuration, delta) {
  const given = situation.verdicts?.[configuration];
  if (given) return given;
  const ratio = situation.ratios[configuration];
  if (ratio === 1) return WORDS.FASTEST;
  if ((situation.open ?? []).includes(configuration)) return WORDS.OPEN;
  return ratio <= 1 + delta ? WORDS.AS_FAST : WORDS.SLOWER;
}

/**
 * The configuration measured in every one of `situations` whose largest ratio to a situation's
 * fastest is smallest (ties: the lower geometric mean ratio), with that worst case named.
 *
 * @param situations situationRatios results
 * @returns {configuration, worst_ratio, worst_situation, worst_word, worst_extra_ms,
 *     worst_ci_high, slower_in (situations where it was certainly slower), most_lost_ms,
 *     most_lost_situation, fastest_in, situations, next (the next best, alike), most_fastest (the
 *     one with the lowest time in more situations than the choice, alike, or null), fewest_lost
 *     (the one that lost the fewest milliseconds at most, where that is less than the choice's,
 *     alike, or null)} | null when no configuration was measured in every situation (or there
 *     are none)
 */
export function robustChoice(situations, delta = DEFAULT_DELTA) {
  if (!situations.length) return null;
  const everywhere = Object.keys(situations[0].ratios).filter((c) => situations.every((s) => c in s.ratios));
  const scored = everywhere.map((configuration) => recordOf(situations, configuration, delta));
  if (!scored.length) return null;
  scored.sort((x, y) => x.worst_ratio - y.worst_ratio || x.logMean - y.logMean);
  const plain = (record) => {
    if (!record) return null;
    const { logMean: _, ...rest } = record;
    return rest;
  };
  const [best, next] = scored;
  // The one that lost the fewest milliseconds at most, where that is not the choice: a reader who
  // counts time rather than ratios needs it named.
  const timed = scored.filter((c) => Number.isFinite(c.most_lost_ms));
  const fewest = timed.length ? timed.reduce((a, b) => (b.most_lost_ms < a.most_lost_ms ? b : a)) : null;
  // The configuration with the lowest time in the most situations, where that is not the choice:
  // a reader who saw it first in most situations needs to know why it was not chosen.
  const leader = [...scored].sort((x, y) => y.fastest_in - x.fastest_in || x.worst_ratio - y.worst_ratio)[0];
  return {
    ...plain(best),
    next: plain(next),
    most_fastest: leader !== best && leader.fastest_in > best.fastest_in ? plain(leader) : null,
    fewest_lost: fewest && fewest !== best && fewest.most_lost_ms < best.most_lost_ms ? plain(fewest) : null,
  };
}

/**
 * One configuration across `situations` (measured in every one): its worst ratio to a situation's
 * fastest, where, in which word and at what cost, in how many it was certainly slower, the most
 * time it lost, and in how many it was the fastest (robustChoice's record of it).
 */
export function recordOf(situations, configuration, delta = DEFAULT_DELTA) {
  const ratios = situations.map((s) => s.ratios[configuration]);
  const worst = Math.max(...ratios);
  const worstAt = situations[ratios.indexOf(worst)];
  const word = wordIn(worstAt, configuration, delta);
  return {
    configuration,
    worst_ratio: worst,
    worst_situation: worstAt.words,
    worst_word: word,
    worst_extra_ms: worstAt.extra?.[configuration] ?? null,
    worst_ci_high: worstAt.ci_high?.[configuration] ?? null,
    worst_ci_low: worstAt.ci_low?.[configuration] ?? null,
    // How far it could be behind anywhere the run ended first, which need not be at its worst ratio.
    ...reach(situations, configuration, delta),
    slower_in: situations.filter((s) => wordIn(s, configuration, delta) === WORDS.SLOWER).length,
    // The most time it lost anywhere, which a small answer's worst ratio may hide.
    ...mostLost(situations, configuration),
    fastest_in: ratios.filter((r) => r === 1).length,
    situations: situations.length,
    logMean: ratios.reduce((sum, r) => sum + Math.log(r), 0) / ratios.length,
  };
}

/** The highest upper bound of a configuration's ratio where it was not yet certain, and where. */
function reach(situations, configuration, delta) {
  const open = situations.filter(
    (s) => wordIn(s, configuration, delta) === WORDS.OPEN && Number.isFinite(s.ci_high?.[configuration]),
  );
  if (!open.length) return { reach_ci_high: null, reach_situation: null };
  const most = open.reduce((a, b) => (b.ci_high[configuration] > a.ci_high[configuration] ? b : a));
  return { reach_ci_high: most.ci_high[configuration], reach_situation: most.words };
}

/** The most milliseconds a configuration lost to a situation's fastest, where, and its ratio there. */
function mostLost(situations, configuration) {
  const timed = situations.filter((s) => Number.isFinite(s.extra?.[configuration]));
  if (!timed.length) return { most_lost_ms: null, most_lost_situation: null, most_lost_ratio: null };
  const most = timed.reduce((a, b) => (b.extra[configuration] > a.extra[configuration] ? b : a));
  return {
    most_lost_ms: most.extra[configuration],
    most_lost_situation: most.words,
    most_lost_ratio: most.ratios[configuration],
  };
}

/** An upper bound to two decimals, rounded outward, as the table rounds a CI. */
const outward = (x) => Math.ceil(x * 100 - 1e-9) / 100;

/**
 * Where a configuration stood against a situation's fastest, in the four words with its ratio and,
 * as `cost`, what that cost in time: "as fast (1.04×, +0.20 ms)", "1.83× slower (+38.3 ms)",
 * "can't tell yet, looked 1.050× slower (+11.6 ms; could be up to 1.12×)" — the last with the
 * ratio's upper bound at 95 % confidence, so that an open worst case does not read as a small one.
 */
export function standingWords(ratio, word, delta = DEFAULT_DELTA, { cost = null, ciHigh = null } = {}) {
  if (word === WORDS.FASTEST || ratio === 1) return 'the fastest';
  const times = `${ratioText(ratio)}×`;
  if (word === WORDS.AS_FAST) return `as fast (${[times, cost].filter(Boolean).join(', ')})`;
  if (word === WORDS.SLOWER) return `${timesWords(ratio)}${cost ? ` (${cost})` : ''}`;
  const high = outward(ciHigh);
  const upTo = Number.isFinite(ciHigh) && high > ratio ? `could be up to ${high.toFixed(2)}×` : null;
  if (ratio <= 1 + delta) {
    const inside = [[times, cost].filter(Boolean).join(', '), upTo].filter(Boolean).join('; ');
    return `can't tell yet, looked as fast (${inside})`;
  }
  const extra = [cost, upTo].filter(Boolean).join('; ');
  return `can't tell yet, looked ${timesWords(ratio)}${extra ? ` (${extra})` : ''}`;
}

/**
 * A record's worst in a few words, inside a sentence, with where it was (`at`, optional): "1.83×
 * slower in 1,000 Videos", "as fast (1.04×)", "looked 1.06× slower in 10 Books (not yet certain)".
 */
export function worstBrief(record, delta, at = null) {
  const { worst_ratio: ratio, worst_word: word } = record;
  const where = at ? ` in ${at}` : '';
  if (word !== WORDS.OPEN) return `${standingWords(ratio, word, delta)}${where}`;
  const looked = ratio <= 1 + delta ? `looked as fast (${ratioText(ratio)}×)` : `looked ${timesWords(ratio)}`;
  return `${looked}${where} (not yet certain)`;
}

/**
 * A choice's worst situation in a few words (where to sort, where one side only was measured),
 * with how sure the run is of it and, where it was not yet certain somewhere, how far it could
 * reach: "10 Books: 1.04×, +0.20 ms (looked as fast, not yet certain); in 1,000 Videos it could
 * be up to 1.10×", "1,000 Videos at 10 Mbit/s: 1.83×, +38.3 ms (certainly slower); certainly slower
 * in 3 of 8 situations without sorting". An "A or B" gives each its own. `where` shortens the
 * situations' words; `unit` names what its situations are, where the run has others.
 */
export function worstCell(choice, where = (words) => words, delta = DEFAULT_DELTA, unit = '') {
  if (!choice) return 'no configuration was measured in every situation';
  const one = (record) => {
    const n = record.situations;
    if (record.worst_ratio === 1) return `the fastest in ${n === 1 ? 'its one situation' : `all ${n}`} (certain)`;
    const cost = Number.isFinite(record.worst_extra_ms) ? `, ${plus(record.worst_extra_ms)}` : '';
    // One number for one claim: the ratio shown, and that it is certainly slower (its bound is in the
    // table of every configuration).
    const word = { [WORDS.AS_FAST]: 'as fast, certain', [WORDS.SLOWER]: 'certainly slower' }[record.worst_word];
    const sure = word ?? `looked ${record.worst_ratio <= 1 + delta ? 'as fast' : 'slower'}, not yet certain`;
    // "of 8 situations without sorting", where the run has others: the count says which it is of.
    const count = record.slower_in ? `; certainly slower in ${record.slower_in} of ${n}${unit ? ` ${unit}` : ''}` : '';
    const head = `${where(record.worst_situation)}: ${ratioText(record.worst_ratio)}×${cost}`;
    return `${head} (${sure})${count}${reachWords(record, where)}`;
  };
  return asGoodNext(choice, delta)
    ? `${choice.configuration}: ${one(choice)}. ${choice.next.configuration}: ${one(choice.next)}.`
    : one(choice);
}

/**
 * The furthest a record's ratio could reach where the run was not yet certain, at 95 % confidence,
 * rounded outward as the table rounds a CI, and where, if not at its worst situation (`at`, else
 * null): {high, at}, or null where nothing open reaches past its worst ratio.
 */
export function reachBound(record) {
  const own = record.worst_word === WORDS.OPEN && Number.isFinite(record.worst_ci_high) ? record.worst_ci_high : null;
  const high = Math.max(own ?? 0, Number.isFinite(record.reach_ci_high) ? record.reach_ci_high : 0);
  if (!high || outward(high) <= outward(record.worst_ratio)) return null;
  const elsewhere =
    (own === null || outward(own) !== outward(high)) && record.reach_situation !== record.worst_situation;
  return { high: outward(high), at: elsewhere ? record.reach_situation : null };
}

/**
 * How far a record's ratio could reach where the run was not yet certain, at 95 % confidence:
 * "; it could be up to 1.10× there" at its worst situation, "; in 10 Videos it could be up to
 * 1.12×" elsewhere (the furthest); empty where nothing open reaches past its worst ratio.
 */
function reachWords(record, where) {
  const reach = reachBound(record);
  if (!reach) return '';
  // Said as a clause of its own, naming where it is elsewhere: one parenthesis, one situation.
  return reach.at
    ? `; in ${where(reach.at)} it could be up to ${reach.high.toFixed(2)}×`
    : `; it could be up to ${reach.high.toFixed(2)}× there`;
}

/**
 * Whether a choice's next best is as good, for an "A or B": its worst within δ of the choice's,
 * as measured and as the report prints the two (so that no reader who divides them finds the
 * rule broken) — the two are then tied, whether or not each was as fast as the fastest everywhere —;
 * but not where it lost half as much time again as the choice at most (the ratio weighs a small
 * answer as much as a large one: "+361 ms" beside "+32.3 ms" is not as good, whatever their ratios).
 */
export const asGoodNext = (choice, delta = DEFAULT_DELTA) =>
  Boolean(choice?.next) &&
  choice.next.worst_ratio <= choice.worst_ratio * (1 + delta) &&
  Number(ratioText(choice.next.worst_ratio)) <= Number(ratioText(choice.worst_ratio)) * (1 + delta) &&
  !(choice.next.most_lost_ms > 1.5 * choice.most_lost_ms);

/**
 * The robust choice as a bottom line's row: `answer` (the configuration, and the next best where
 * its worst is within δ of the choice's: "Protobuf with GZIP or JSON with GZIP") and `text`: for
 * each named, in how many situations it was certainly slower than the fastest and its worst case
 * in the four words ("Never certainly over 5 % slower than the fastest (4 situations); its worst,
 * 1,000 Books: can't tell yet, looked 1.050× slower (+11.6 ms; could be up to 1.12×)."), and why
 * the one first in most situations was not chosen; where another situation cost it much more
 * time, that one; and the one that lost the fewest milliseconds. Without `why`, not why the one
 * first in most situations was not chosen; `unit`: what its situations are called ("situations
 * without sorting", where the run has others).
 */
export function choiceRow(
  choice,
  where = (words) => words,
  delta = DEFAULT_DELTA,
  { why: whyNot = true, unit = 'situations' } = {},
) {
  if (!choice) return { answer: 'no single choice', text: 'no configuration was measured in every situation.' };
  const n = choice.situations;
  const close = asGoodNext(choice, delta);
  const answer = close ? `${choice.configuration} or ${choice.next.configuration}` : choice.configuration;
  // Where another situation cost much more time (half as much again) than the worst ratio's, that
  // one too, so that no reader takes the first for the most it loses.
  const lostMore = (record) =>
    Number.isFinite(record.most_lost_ms) &&
    record.most_lost_situation !== record.worst_situation &&
    (!Number.isFinite(record.worst_extra_ms) || record.most_lost_ms > 1.5 * record.worst_extra_ms)
      ? `; its worst by time, not ratio: ${plus(record.most_lost_ms)}, in ${where(record.most_lost_situation)}`
      : '';
  // Where another situation's bound reaches further than the worst one's, that one too, so that
  // "could be up to" is never less than the table shows elsewhere.
  const reachFurther = (record) =>
    Number.isFinite(record.reach_ci_high) &&
    record.reach_situation !== record.worst_situation &&
    outward(record.reach_ci_high) > outward(record.worst_ci_high ?? record.worst_ratio)
      ? `; could be up to ${outward(record.reach_ci_high).toFixed(2)}× in ${where(record.reach_situation)}`
      : '';
  const standing = (record) => {
    if (record.worst_ratio === 1) return `the fastest ${n === 1 ? 'there' : `in all ${n} ${unit}`}`;
    const counted = n === 1 ? 'its one situation' : `${n} ${unit}`;
    const slower =
      record.slower_in === 0
        ? `never certainly over ${percent(delta)} slower than the fastest (${counted})`
        : `certainly slower than the fastest in ${record.slower_in} of ${n} ${unit}`;
    const lost = lostMore(record);
    const cost = Number.isFinite(record.worst_extra_ms) ? plus(record.worst_extra_ms) : null;
    // A bound reaching further elsewhere is said instead of the worst's own.
    const further = reachFurther(record);
    const worst = standingWords(record.worst_ratio, record.worst_word, delta, {
      cost,
      ciHigh: further ? null : record.worst_ci_high,
    });
    return `${slower}; its worst, ${where(record.worst_situation)}: ${worst}${further}${lost}`;
  };
  // Each of an "or" with its own worst; the same words of both said once.
  // Each sentence names its configuration: the row's lead may give only its topic.
  const said = (record) => `${record.configuration}: ${standing(record)}.`;
  const each = !close
    ? said(choice)
    : standing(choice) === standing(choice.next)
      ? `${choice.configuration} and ${choice.next.configuration}, each: ${standing(choice)}.`
      : [choice, choice.next].map(said).join(' ');
  // The one that lost the fewest milliseconds at most, where the choice lost more: the trade a
  // reader who counts time sees (unless it is the other of an "or", already named with its own).
  const fewest =
    choice.fewest_lost && !(close && choice.fewest_lost.configuration === choice.next.configuration)
      ? ` Fewest milliseconds lost: ${choice.fewest_lost.configuration}, never more than ` +
        `${plus(choice.fewest_lost.most_lost_ms)} behind the fastest ` +
        `(in ${where(choice.fewest_lost.most_lost_situation)}); its worst: ${worstBrief(choice.fewest_lost, delta)}.`
      : '';
  // Already named beside the choice: its worst is said there.
  const most = close && choice.most_fastest?.configuration === choice.next.configuration ? null : choice.most_fastest;
  const why =
    most && whyNot
      ? ` ${most.configuration}: the lowest time in ${most.fastest_in} of ${n}, but ` +
        `${worstBrief(most, delta, where(most.worst_situation))}.`
      : '';
  return { answer, text: `${each}${fewest}${why}`.trim() };
}

/**
 * The robust choice in words: "JSON with GZIP (at worst 1.06× slower, in 1,000 Videos at 10
 * Mbit/s)", or "JSON with GZIP (the fastest in all 4)"; `where` shortens the worst situation's
 * words where the reader already knows its network.
 */
export function choiceWords(choice, where = (words) => words, delta = DEFAULT_DELTA) {
  if (!choice) return 'no configuration was measured in every one of these situations';
  const n = choice.situations;
  const head =
    choice.worst_ratio === 1
      ? `${choice.configuration} (the fastest ${n === 1 ? 'there' : n === 2 ? 'in both' : `in all ${n}`}`
      : `${choice.configuration} (at worst ${worstBrief(choice, delta, where(choice.worst_situation))}`;
  // A next best whose worst is within δ of the choice's is named, with its own worst.
  const close = choice.next && choice.next.worst_ratio <= choice.worst_ratio * (1 + delta);
  const same = close ? `; next best ${choice.next.configuration}, at worst ${worstBrief(choice.next, delta)}` : '';
  return `${head}${same})`;
}

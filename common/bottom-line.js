// The robust choice across situations, for the report's bottom line and the page's report view,
// where a reader ticks the situations that are theirs: the configuration that, in its worst
// situation, lost the fewest milliseconds to that situation's fastest (minimax regret, the regret
// in time: a reader's budget is in milliseconds). Read from the situations' answers
// (answer-words.js situationAnswer), so its times and ratios are the ones the report shows.

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
 * @returns {id (the fastest's case id), words, time_ms (the fastest's), sorting, ratios, extra (ms over the fastest),
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
    time_ms: answer.time_ms,
    object: fastest.object,
    count: fastest.count,
    cm: fastest.cm,
    protocol: fastest.protocol,
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
 * The situations whose data, N and sorting were measured on every one of `networks`: what a pick
 * for a network not known is chosen over, so that an N measured on one network only does not
 * decide it.
 */
export function onEveryNetwork(situations, networks) {
  const key = (s) => `${s.object}/${s.count}/${s.cm}`;
  const on = new Map();
  for (const s of situations) on.set(key(s), new Set([...(on.get(key(s)) ?? []), s.network]));
  return situations.filter((s) => networks.every((n) => on.get(key(s)).has(n)));
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
 * The configuration measured in every one of `situations` that lost the fewest milliseconds to a
 * situation's fastest in its worst one (ties: the smaller worst ratio); where a situation carries
 * no times, the one whose largest ratio to a situation's fastest is smallest (ties: the lower
 * geometric mean ratio). Its worst cases are named: by time and by ratio.
 *
 * @param situations situationRatios results
 * @returns {configuration, worst_ratio, worst_situation, worst_word, worst_extra_ms,
 *     worst_ci_high, slower_in (situations where it was certainly slower), most_lost_ms,
 *     most_lost_situation, most_lost_ratio, bound_ms (the most it could have lost at 95 %
 *     confidence), bound_situation, fastest_in, situations, next (the next best, alike),
 *     most_fastest (the one with the lowest time in more situations than the choice, alike, or
 *     null)} | null when no configuration was measured in every situation (or there are none)
 */
export function robustChoice(situations, delta = DEFAULT_DELTA) {
  if (!situations.length) return null;
  const everywhere = Object.keys(situations[0].ratios).filter((c) => situations.every((s) => c in s.ratios));
  const scored = everywhere.map((configuration) => recordOf(situations, configuration, delta));
  if (!scored.length) return null;
  const timed = scored.every((c) => Number.isFinite(c.most_lost_ms));
  scored.sort((x, y) =>
    timed
      ? x.most_lost_ms - y.most_lost_ms || x.worst_ratio - y.worst_ratio
      : x.worst_ratio - y.worst_ratio || x.logMean - y.logMean,
  );
  const plain = (record) => {
    if (!record) return null;
    const { logMean: _, ...rest } = record;
    return rest;
  };
  const [best, next] = scored;
  // The configuration with the lowest time in the most situations, where that is not the choice:
  // a reader who saw it first in most situations needs to know why it was not chosen.
  const leader = [...scored].sort((x, y) => y.fastest_in - x.fastest_in || x.most_lost_ms - y.most_lost_ms)[0];
  return {
    ...plain(best),
    next: plain(next),
    most_fastest: leader !== best && leader.fastest_in > best.fastest_in ? plain(leader) : null,
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
    // The most time it lost anywhere, which a small answer's worst ratio may hide, and the most it
    // could have lost where the run was not yet certain.
    ...mostLost(situations, configuration),
    ...boundMs(situations, configuration),
    fastest_in: ratios.filter((r) => r === 1).length,
    // Its word in each situation, so that what it lost anywhere is said with how sure that is.
    words_at: Object.fromEntries(situations.map((s) => [s.words, wordIn(s, configuration, delta)])),
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

/**
 * The most milliseconds a configuration could have lost to a situation's fastest at 95 %
 * confidence: where its ratio has an upper bound, the fastest's time × (that bound − 1), else what
 * it lost; and where. {bound_ms, bound_situation}, nulls where no situation carries times.
 */
function boundMs(situations, configuration) {
  const at = situations
    .filter((s) => Number.isFinite(s.extra?.[configuration]))
    .map((s) => {
      const high = s.ci_high?.[configuration];
      const reach = Number.isFinite(high) && Number.isFinite(s.time_ms) ? (high - 1) * s.time_ms : -Infinity;
      return { ms: Math.max(s.extra[configuration], reach), words: s.words };
    });
  if (!at.length) return { bound_ms: null, bound_situation: null };
  const most = at.reduce((a, b) => (b.ms > a.ms ? b : a));
  return { bound_ms: most.ms, bound_situation: most.words };
}

/** An upper bound to two decimals, rounded outward, as the table rounds a CI. */
const outward = (x) => Math.ceil(x * 100 - 1e-9) / 100;

/**
 * Where a configuration stood against a situation's fastest, in the four words with its ratio and,
 * as `cost`, what that cost in time: "as fast (1.04×, +0.20 ms)", "1.83× slower (+38.3 ms)",
 * "can't tell yet, looked 1.050× slower (+11.6 ms; its 95 % range reaches 1.12×)" — the last with the
 * ratio's upper bound at 95 % confidence, so that an open worst case does not read as a small one.
 */
export function standingWords(ratio, word, delta = DEFAULT_DELTA, { cost = null, ciHigh = null } = {}) {
  if (word === WORDS.FASTEST || ratio === 1) return 'the fastest';
  const times = `${ratioText(ratio)}×`;
  if (word === WORDS.AS_FAST) return `as fast (${[times, cost].filter(Boolean).join(', ')})`;
  if (word === WORDS.SLOWER) return `${timesWords(ratio)}${cost ? ` (${cost})` : ''}`;
  const high = outward(ciHigh);
  const upTo = Number.isFinite(ciHigh) && high > ratio ? `its 95 % range reaches ${high.toFixed(2)}×` : null;
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
 * "; its 95 % range reaches 1.10× there" at its worst situation, "; in 10 Videos its 95 % range reaches
 * 1.12×" elsewhere (the furthest); empty where nothing open reaches past its worst ratio.
 */
function reachWords(record, where) {
  const reach = reachBound(record);
  if (!reach) return '';
  // Said as a clause of its own, naming where it is elsewhere: one parenthesis, one situation.
  return reach.at
    ? `; in ${where(reach.at)} its 95 % range reaches ${reach.high.toFixed(2)}×`
    : `; its 95 % range reaches ${reach.high.toFixed(2)}× there`;
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
 * it is as good (asGoodNext): "Protobuf with GZIP or JSON with GZIP") and `text`: for each named,
 * the most time it lost to a situation's fastest, where, at what ratio and how sure, how far that
 * could reach where the run was not yet certain, in how many situations it was certainly slower,
 * and its worst ratio where that was elsewhere ("At most +11.6 ms behind the fastest, in 1,000
 * Books (1.050×, not yet certain; its 95 % range reaches +27.0 ms); never certainly over 5 % slower than
 * the fastest (4 situations)."); then why the one first in most situations was not chosen.
 * Without `why`, not that; `unit`: what its situations are called ("situations without sorting",
 * where the run has others).
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
  const standing = (record) => {
    if (record.worst_ratio === 1) return `the fastest ${n === 1 ? 'there' : `in all ${n} ${unit}`}`;
    const counted = n === 1 ? 'its one situation' : `${n} ${unit}`;
    const slower =
      record.slower_in === 0
        ? `never certainly over ${percent(delta)} slower than the fastest (${counted})`
        : `certainly slower than the fastest in ${record.slower_in} of ${n} ${unit}`;
    // Where the run carries no times, its worst ratio alone, and where another situation's bound
    // reaches further than the worst one's, that one instead, so that "its 95 % range reaches" is never
    // less than the table shows elsewhere.
    if (!Number.isFinite(record.most_lost_ms)) {
      const further =
        Number.isFinite(record.reach_ci_high) &&
        record.reach_situation !== record.worst_situation &&
        outward(record.reach_ci_high) > outward(record.worst_ci_high ?? record.worst_ratio)
          ? `; its 95 % range reaches ${outward(record.reach_ci_high).toFixed(2)}× in ${where(record.reach_situation)}`
          : '';
      const worst = standingWords(record.worst_ratio, record.worst_word, delta, {
        ciHigh: further ? null : record.worst_ci_high,
      });
      return `${slower}; its worst, ${where(record.worst_situation)}: ${worst}${further}`;
    }
    return `${mostLostWords(record, where, delta)}; ${slower}${worstRatioElsewhere(record, where)}`;
  };
  // Each of an "or" with its own worst; the same words of both said once.
  // Each sentence names its configuration: the row's lead may give only its topic.
  const said = (record) => `${record.configuration}: ${standing(record)}.`;
  const each = !close
    ? said(choice)
    : standing(choice) === standing(choice.next)
      ? `${choice.configuration} and ${choice.next.configuration}, each: ${standing(choice)}.`
      : [choice, choice.next].map(said).join(' ');
  // Already named beside the choice: its worst is said there.
  const most = close && choice.most_fastest?.configuration === choice.next.configuration ? null : choice.most_fastest;
  const why =
    most && whyNot
      ? ` ${most.configuration}: the lowest time in ${most.fastest_in} of ${n}, but ` +
        (Number.isFinite(most.most_lost_ms)
          ? `${plus(most.most_lost_ms)} behind in ${where(most.most_lost_situation)}.`
          : `${worstBrief(most, delta, where(most.worst_situation))}.`)
      : '';
  return { answer, text: `${each}${why}`.trim() };
}

/** A bound in ms said only where it reaches past what was measured, as a reader rounds them. */
export const reachesFurther = (bound, ms) => Number.isFinite(bound) && plus(bound) !== plus(ms) && bound > ms;

/**
 * The most time a record lost, in words: "+11.6 ms behind the fastest at worst as measured, in
 * 1,000 Books (1.050×, not yet certain; its 95 % range reaches +27.0 ms)"; where its bound reaches
 * further in another situation, that one is named.
 */
export function mostLostWords(record, where = (words) => words) {
  const at = record.most_lost_situation;
  const word = wordAt(record, at);
  const sure =
    word === WORDS.OPEN
      ? 'not yet certain'
      : word === WORDS.AS_FAST
        ? 'as fast, certain'
        : word === WORDS.SLOWER
          ? 'certainly slower'
          : null;
  const ratio = Number.isFinite(record.most_lost_ratio) ? `${ratioText(record.most_lost_ratio)}×` : null;
  // The bound said apart from what was measured, so that "at worst" and the range never read as
  // two maxima of one thing.
  const bound = reachesFurther(record.bound_ms, record.most_lost_ms)
    ? `its 95 % range reaches ${plus(record.bound_ms)}${
        record.bound_situation !== at ? ` in ${where(record.bound_situation)}` : ''
      }`
    : null;
  const inside = [[ratio, sure].filter(Boolean).join(', '), bound].filter(Boolean).join('; ');
  return `${plus(record.most_lost_ms)} behind the fastest at worst as measured, in ${where(at)}${
    inside ? ` (${inside})` : ''
  }`;
}

/** A record's word in one of its situations, where the record knows it (its worst ratio's). */
const wordAt = (record, at) => (at === record.worst_situation ? record.worst_word : (record.words_at?.[at] ?? null));

/** "; its worst ratio 1.20×, in 10 Books", where that is not where it lost the most time. */
const worstRatioElsewhere = (record, where) =>
  record.worst_situation !== record.most_lost_situation && record.worst_ratio > 1
    ? `; its worst ratio ${ratioText(record.worst_ratio)}×, in ${where(record.worst_situation)}`
    : '';

/**
 * The robust choice in words: "JSON with GZIP (never more than +1.98 ms behind the fastest, in
 * 1,000 Videos at 10 Mbit/s)", or "JSON with GZIP (the fastest in all 4)"; where the situations
 * carry no times, its worst ratio ("at worst 1.06× slower, in …"). `where` shortens the worst
 * situation's words where the reader already knows its network. A next best as good
 * (asGoodNext) is named with its own.
 */
export function choiceWords(choice, where = (words) => words, delta = DEFAULT_DELTA) {
  if (!choice) return 'no configuration was measured in every one of these situations';
  const n = choice.situations;
  const worst = (record) =>
    Number.isFinite(record.most_lost_ms)
      ? `never more than ${plus(record.most_lost_ms)} behind the fastest, in ${where(record.most_lost_situation)}`
      : `at worst ${worstBrief(record, delta, where(record.worst_situation))}`;
  const head =
    choice.worst_ratio === 1
      ? `${choice.configuration} (the fastest ${n === 1 ? 'there' : n === 2 ? 'in both' : `in all ${n}`}`
      : `${choice.configuration} (${worst(choice)}`;
  const same = asGoodNext(choice, delta) ? `; next best ${choice.next.configuration}, ${worst(choice.next)}` : '';
  return `${head}${same})`;
}

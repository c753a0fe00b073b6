// A measured situation and its answer in the words a web developer uses, shared by the report's
// opening (analysis/answer-first.js) and the page's "Compare configurations". Every number comes
// from a group's stored decision (common/judge.js) by one rule, so that a test can recompute it
// and the report, the table, the charts and summary.csv show the same:
//   time       the fastest configuration's median over all its samples (decision.median_ms); any
//              other's is that times its ratio to the fastest, the ratio the group judged (the
//              medians of the rounds both ran in), so a configuration that ran only in some rounds
//              is still compared as it was measured
//   k× slower  that ratio (time ÷ the fastest's time), k ≥ 1
//   +X ms      the time minus the fastest's time
// and four verdict words (WORDS), defined once: fastest; as fast (certain: within ±δ); k× slower
// (certain); can't tell yet (the run ended before it was certain, with the way it leaned:
// "looked 1.08× slower"). Certain is what the judge calls settled, and nothing less.

import { CATALOGUE, compressionLabel, formatLabel } from './catalogue.js';
import { completeCell, scenarioOf } from './cell.js';
import { VERDICTS } from './comparison.js';
import { NETWORKS } from './network-profiles.js';
import { overProtocol } from './protocols.js';

/** How many other configurations a situation's words name at most (the rest are counted). */
export const MOST_NAMED = 3;

/** δ as a reader sees it: 0.05 → "5 %". */
export const percent = (delta) => `${Number((delta * 100).toFixed(2))} %`;

/** A time in ms with sense for its size: 4.30 ms, 41.0 ms, 299 ms, 1,234 ms. */
export function ms(value) {
  if (!Number.isFinite(value)) return '—';
  const digits = Math.abs(value) < 10 ? 2 : Math.abs(value) < 100 ? 1 : 0;
  return `${value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })} ms`;
}

/** A difference of times, signed: +7.0 ms. */
export const plus = (value) => `${value >= 0 ? '+' : '−'}${ms(Math.abs(value))}`;

/** "1,000 Books", "10 Videos". */
export function objects(cell) {
  const kind = CATALOGUE.objects.find((o) => o.name === cell.object);
  const noun = kind ? kind.label.replace(/ \(.*\)$/, '') : cell.object;
  return `${cell.count.toLocaleString('en-US')} ${cell.count === 1 ? noun.replace(/s$/, '') : noun}`;
}

/** "at 10 Mbit/s", "unthrottled", "on WebPageTest LTE". */
export function network(name) {
  if (!name) return '';
  if (name === 'unthrottled') return 'unthrottled';
  if (name === '10mbit') return 'at 10 Mbit/s';
  return `on ${NETWORKS[name]?.title ?? name}`;
}

/** " over HTTP/2 with TLS" for a cell measured over a protocol other than cleartext HTTP/1.1, else "". */
export const overProtocolWords = (cell) => overProtocol(cell.protocol);

/** What CMk computes, in words: "sorting by each property 10 times (CM3)". */
export function computationWords(cm) {
  const model = CATALOGUE.computation_models.find((m) => m.level === cm);
  if (!model || cm === 0) return '';
  if (cm === 1) return 'sorting once by one property (CM1)';
  const times = model.repetitions === 1 ? 'once' : `${model.repetitions.toLocaleString('en-US')} times`;
  return `sorting by each property ${times} (${model.name})`;
}

/**
 * A situation as a reader says it: "1,000 Books at 10 Mbit/s, sorting by each property … (CM3)",
 * "10 Books unthrottled over HTTP/2 with TLS".
 */
export function situationWords(cell) {
  const computation = computationWords(cell.cm);
  const where = `${network(cell.network)}${overProtocol(cell.protocol)}`.trim();
  return `${objects(cell)}${where ? ` ${where}` : ''}${computation ? `, ${computation}` : ''}`;
}

/** The situations that differ only in N, as a reader says them: "Books at 10 Mbit/s, nothing sorted". */
export function situationFamilyWords(cell) {
  const noun = objects({ ...cell, count: 2 }).replace(/^2 /, '');
  const where = `${network(cell.network)}${overProtocol(cell.protocol)}`;
  return `${noun} ${where}, ${computationWords(cell.cm) || 'nothing sorted'}`;
}

/** A configuration in words: "JSON with GZIP", "Protobuf uncompressed, server sorting". */
export function configurationWords(cell) {
  const format = formatLabel(cell.format, cell.decoder);
  const compression =
    cell.compression === 'none' ? 'uncompressed' : `with ${compressionLabel(cell.compression, cell.level)}`;
  const computes = scenarioOf(cell).computes;
  const side = computes === 'none' ? '' : computes === 'server' ? ', server sorting' : ', browser sorting';
  return `${format} ${compression}${side}`;
}

/**
 * A ratio of times with its direction in words: `ratio` is time(x) / time(y), the CI likewise;
 * "JSON is 1.23× slower than Protobuf (95 % CI 1.10–1.31)", or "… 1.23× faster …" when below 1,
 * the CI turned the same way.
 */
export function relative(x, y, ratio, low = NaN, high = NaN) {
  const slower = ratio >= 1;
  const k = slower ? ratio : 1 / ratio;
  const [a, b] = slower ? [low, high] : [1 / high, 1 / low];
  const ci = Number.isFinite(a) && Number.isFinite(b) ? ` (95 % CI ${interval(a, b)})` : '';
  // "1.00×" or "1.05×" would hide which side of 1 or of a δ line it lies: a third decimal there.
  return `${x} is ${k < 1.005 ? k.toFixed(3) : ratioText(k)}× ${slower ? 'slower' : 'faster'} than ${y}${ci}`;
}

/**
 * A ratio's interval as a reader sees it, rounded outwards (never narrower than it is) to two
 * decimals, or three where two would put a bound on a ±5 % line it does not reach: "1.04–1.13",
 * "1.049–1.12".
 */
export function interval(low, high) {
  const round = (value, digits, up) => {
    const scale = 10 ** digits;
    // The small slack keeps 1.05 itself from rounding outwards to 1.06 by floating-point error.
    return (up ? Math.ceil(value * scale - 1e-9) : Math.floor(value * scale + 1e-9)) / scale;
  };
  const edges = [0.95, 1.05];
  const bound = (value, up) => {
    const two = round(value, 2, up);
    const onEdge = edges.some((e) => Math.abs(two - e) < 1e-9 && Math.abs(value - e) > 1e-9);
    return onEdge ? round(value, 3, up).toFixed(3) : two.toFixed(2);
  };
  return `${bound(low, false)}–${bound(high, true)}`;
}

/** "A, B and C". */
export function listWords(items) {
  return items.length > 1 ? `${items.slice(0, -1).join(', ')} and ${items.at(-1)}` : (items[0] ?? '');
}

export const countWords = (counts) =>
  listWords([...counts].sort((a, b) => a - b).map((n) => n.toLocaleString('en-US')));

/**
 * Where the run's measurements of some cells reach, in words: "Books, N = 10 and 1,000, at 10
 * Mbit/s, CM1 and CM3, uncompressed" (only what the cells share or span).
 */
export function scopeWords(cells, { cmWords = false } = {}) {
  const of = (key) => [...new Set(cells.map((c) => c[key]))];
  const kinds = CATALOGUE.objects
    .filter((o) => of('object').includes(o.name))
    .map((o) => o.label.replace(/ \(.*\)$/, ''));
  const compressions = [
    ...new Set(
      cells.map((c) => (c.compression === 'none' ? 'uncompressed' : compressionLabel(c.compression, c.level))),
    ),
  ];
  const levels = of('cm')
    .filter((cm) => cm > 0)
    .sort((a, b) => a - b);
  // With cmWords, each CM as what it sorts: "sorting once by one property (CM1)".
  // With cmWords, "sorting" is said once: "sorting once by one property (CM1) and by each … (CM3)".
  const cms = levels.map((cm, i) =>
    cmWords ? computationWords(cm).replace(i === 0 ? /^$/ : /^sorting /, '') : `CM${cm}`,
  );
  return [
    listWords(kinds),
    `N = ${countWords(of('count'))}`,
    listWords(of('network').map(network)),
    ...(cms.length ? [listWords(cms)] : []),
    listWords(compressions),
  ].join(', ');
}

/** The four verdict words: what a configuration is, against the fastest of its situation. */
export const WORDS = Object.freeze({
  FASTEST: 'fastest',
  AS_FAST: 'as fast',
  SLOWER: 'slower',
  OPEN: "can't tell yet",
});

/**
 * The four words as a reader is told them, once, above the answers (δ as a percentage): [the three
 * certain ones and what "certain" means, can't tell yet]. Nothing weaker than certain is worded as
 * certain.
 */
export function wordsDefined(delta, looks = null) {
  // The stop rule's looks in a row, where known: what "held" asks of a verdict (a check each time
  // every configuration has had its turn, which the Method says).
  const held = looks > 1 ? `at ${looks} checks in a row` : 'at the last check';
  return [
    `as fast: neither over ${percent(delta)} slower; ` +
      `k× slower: over ${percent(delta)} slower; certain: 95 % confident ` +
      `${held} or by a stricter early test`,
    `can't tell yet: the run ended first (its range may already say so, but not yet ${
      looks > 1 ? `at ${looks} checks in a row` : 'at the last check'
    }); "looked": which way it leaned; "95 % range": where it lies at 95 % confidence`,
  ];
}

/** A margin's word (an entry of decision.others, its ratio the other over the fastest). */
export function wordOf(other) {
  if (!other.settled) return WORDS.OPEN;
  if (other.verdict === VERDICTS.EQUIVALENT) return WORDS.AS_FAST;
  if (other.verdict === VERDICTS.B_FASTER) return WORDS.SLOWER;
  // Settled as faster than the fastest: only where "faster in the rounds both ran" ran in a
  // circle (judge.js FASTEST_RULE); nothing is certain about which is first there.
  return WORDS.OPEN;
}

/**
 * A ratio to two decimals, or more where two would land on 1.00 or on a ±5 % line (0.95, 1.05)
 * and so hide which side of it the ratio lies: "1.23", "1.046", "1.054", "1.0502"; inside a line
 * three at most ("1.050" for 1.04998: "as fast" includes the line).
 */
export function ratioText(ratio) {
  const two = ratio.toFixed(2);
  if (!['0.95', '1.00', '1.05'].includes(two)) return two;
  const inside = (two === '1.05' && ratio <= 1.05) || (two === '0.95' && ratio >= 0.95);
  if (inside) return ratio.toFixed(3);
  // As many decimals as it takes to leave the line itself ("1.04998" for 1.049980), at most six.
  for (let digits = 3; digits <= 6; digits++) {
    const text = ratio.toFixed(digits);
    if (Number(text) !== Number(two)) return text;
  }
  return two;
}

/** "1.25× slower", "1.02× faster": a ratio to the fastest with its direction, k ≥ 1. */
export const timesWords = (ratio) => (ratio >= 1 ? `${ratioText(ratio)}× slower` : `${ratioText(1 / ratio)}× faster`);

/** Which way an open margin leaned, at δ: "looked as fast", "looked 1.08× slower". */
export function leaning(ratio, delta) {
  if (!Number.isFinite(ratio)) return 'not compared';
  // Either way alike (rule 2's band: 1/(1 + δ) to 1 + δ): 1.052× faster is not "as fast".
  return Math.max(ratio, 1 / ratio) <= 1 + delta ? 'looked as fast' : `looked ${timesWords(ratio)}`;
}

/** Whether a decision's group visited every cell every round (rounds_rule 2): its times are own medians. */
export const ownMedians = (decision) => (decision.rounds_rule ?? 1) >= 2;

/**
 * A situation's answer in numbers, from its stored decision: every configuration's time on one
 * scale, its ratio to the lowest of those times and its extra time, and its word. The time is the
 * configuration's own median where its group visited every cell every round (`rounds_rule` 2,
 * from answers.js decisions), else the fastest's median × its judged ratio to the fastest (racing
 * measured cells over different rounds). The fastest named is the one with the lowest time:
 * the decision's fastest, unless the judged ratios ran in a circle (judge.js FASTEST_RULE) and one
 * of the others has a ratio below 1 — then that one, and the situation is `kind` 'open'.
 *
 * @param decision a stored decision (judge.js), or answers.js decisions' reading of it
 * @param delta the run's δ
 * @returns {fastest (case id), time_ms, kind ('fastest': every other certainly slower; 'tie':
 *     every other as fast or certainly slower, some as fast; 'open': anything else), rows: the
 *     others by time [{case_id, time_ms, ratio, extra_ms, word, judged_ratio, ci_low, ci_high}]}
 */
export function situationAnswer(decision, delta) {
  const fastestId = decision.fastest_case_id ?? decision.fastest;
  const judged = [
    { case_id: fastestId, judged_ratio: 1, word: WORDS.FASTEST, ci_low: 1, ci_high: 1 },
    ...decision.others.map((o) => ({
      case_id: o.case_id,
      judged_ratio: o.ratio,
      word: wordOf(o),
      ci_low: o.ci_low ?? NaN,
      ci_high: o.ci_high ?? NaN,
      rounds: o.rounds,
      decided_by: o.decided_by ?? null,
      own_ms: o.median_ms,
    })),
  ].map(({ own_ms: own, ...r }) => ({
    ...r,
    time_ms: ownMedians(decision) && own !== undefined ? own : decision.median_ms * r.judged_ratio,
  }));
  const finite = judged.filter((r) => Number.isFinite(r.time_ms));
  const first = finite.reduce((low, r) => (r.time_ms < low.time_ms ? r : low), judged[0]);
  const rows = judged
    .filter((r) => r !== first)
    .map((r) => ({
      ...r,
      ratio: r.time_ms / first.time_ms,
      extra_ms: r.time_ms - first.time_ms,
      word: r.word === WORDS.FASTEST ? WORDS.OPEN : r.word,
    }))
    .sort(
      (x, y) =>
        (Number.isFinite(x.time_ms) ? x.time_ms : Infinity) - (Number.isFinite(y.time_ms) ? y.time_ms : Infinity),
    );
  const kind =
    first.case_id !== fastestId || rows.some((r) => r.word === WORDS.OPEN)
      ? 'open'
      : rows.some((r) => r.word === WORDS.AS_FAST)
        ? 'tie'
        : 'fastest';
  return { fastest: first.case_id, time_ms: first.time_ms, kind, rows, delta };
}

/** One other configuration against the fastest, in words: "1.25× slower (+2.50 ms)". */
function costWords(row, delta) {
  const extra = plus(row.extra_ms);
  if (row.word === WORDS.AS_FAST) return `as fast (${extra})`;
  if (row.word === WORDS.SLOWER) return `${timesWords(row.ratio)} (${extra})`;
  return `can't tell yet, ${leaning(row.ratio, delta)} (${extra})`;
}

/**
 * "3 more, all slower"; "3 more: 2 slower, 1 can't tell yet"; where none of the others was named,
 * "All others slower", "Others: 2 slower, 1 can't tell yet".
 */
function restWords(left, all = false) {
  if (!left.length) return '';
  const count = (word) => left.filter((r) => r.word === word).length;
  const parts = [
    [count(WORDS.AS_FAST), 'as fast'],
    [count(WORDS.SLOWER), 'slower'],
    [count(WORDS.OPEN), "can't tell yet"],
  ].filter(([n]) => n > 0);
  if (parts.length === 1) {
    if (all) return left.length === 1 ? `The other ${parts[0][1]}.` : `All others ${parts[0][1]}.`;
    return `${left.length} more, ${left.length === 1 ? '' : 'all '}${parts[0][1]}.`;
  }
  return `${all ? 'Others' : `${left.length} more`}: ${parts.map(([n, word]) => `${n} ${word}`).join(', ')}.`;
}

export const capital = (text) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

/**
 * One situation's answer in words, with the numbers it shows (for tests, situationAnswer's):
 * the fastest's time, then up to `named` others — those as fast, then those the run could not yet
 * tell, then the closest slower ones and, with room, the slowest — and the rest counted. "No
 * clear winner" is said only of configurations as fast as the fastest. `text` starts with its
 * objects ("1,000 Books: …") for a list of its family (`family`, the situations that differ only
 * in N); `sentence` names the whole situation.
 *
 * @param decision a stored decision with fastest_case_id (answers.js decisions) or fastest
 * @param cellsById case id → {cell}
 * @param delta the run's δ
 * @param named how many other configurations to name at most
 */
export function situationParagraph(decision, cellsById, delta, named = MOST_NAMED) {
  const cellOf = (id) => completeCell(cellsById.get(id).cell);
  const answer = situationAnswer(decision, delta);
  const fastest = cellOf(answer.fastest);
  const { rows } = answer;
  const order = [WORDS.AS_FAST, WORDS.OPEN, WORDS.SLOWER];
  const ranked = [...rows].sort((x, y) => order.indexOf(x.word) - order.indexOf(y.word));
  let shown = ranked.slice(0, Math.max(named, 0));
  // With room for two or more, the slowest too: what choosing otherwise costs at most.
  const slowest = rows.at(-1);
  if (named > 1 && slowest && !shown.includes(slowest)) shown = [...shown.slice(0, named - 1), slowest];
  shown = rows.filter((r) => shown.includes(r));
  let left = rows.filter((r) => !shown.includes(r));
  const name = (id) => configurationWords(cellOf(id));
  const time = ms(answer.time_ms);
  let opening;
  let listed = shown;
  if (answer.kind === 'fastest') opening = `${name(answer.fastest)}, ${time}: fastest.`;
  else if (answer.kind === 'tie') {
    // The ones as fast in the same sentence as the fastest; the rest of those shown after it.
    const tied = shown.filter((r) => r.word === WORDS.AS_FAST);
    listed = shown.filter((r) => !tied.includes(r));
    const unnamed = rows.filter((r) => r.word === WORDS.AS_FAST && !tied.includes(r));
    const names = [
      `${name(answer.fastest)} (${time})`,
      ...tied.map((r) => `${name(r.case_id)} (${plus(r.extra_ms)})`),
      ...(unnamed.length ? [`${unnamed.length} more`] : []),
    ];
    left = left.filter((r) => !unnamed.includes(r));
    const joined = names.length > 2 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names.join(' and ');
    opening = `no clear winner: ${joined} are as fast.`;
  } else {
    // From one measurement of each (a group that ran one round): a first look, said so.
    const once = rows.length > 0 && rows.every((r) => r.rounds === 1);
    opening = `${name(answer.fastest)}, ${time}, looked fastest${once ? ' (one measurement each)' : ''}.`;
  }
  // The slowest, where named with others counted before it, last and called so: "2 more, all
  // slower" after it would read as slower than it.
  const last = listed.at(-1);
  const slowestLast = left.length > 0 && last === slowest && listed.length > 1;
  const said = (r) => `${capital(name(r.case_id))}: ${costWords(r, delta)}.`;
  const parts = (slowestLast ? listed.slice(0, -1) : listed).map(said);
  // named < 0: not even the others' count (an opening over its word limit).
  const rest = named < 0 ? '' : restWords(left, left.length === rows.length);
  const end = slowestLast ? `The slowest, ${name(last.case_id)}: ${costWords(last, delta)}.` : '';
  const body = [opening, ...parts, rest, end].filter(Boolean).join(' ');
  return {
    family: situationFamilyWords(fastest),
    text: `${objects(fastest)}: ${body}`,
    sentence: `${situationWords(fastest)}: ${body}`,
    numbers: {
      fastest: answer.fastest,
      fastest_ms: answer.time_ms,
      kind: answer.kind,
      others: shown.map((r) => ({
        case_id: r.case_id,
        time_ms: r.time_ms,
        extra_ms: r.extra_ms,
        ratio: r.ratio,
        word: r.word,
      })),
      counted: left.map((r) => ({ case_id: r.case_id, word: r.word })),
    },
  };
}

/** How much a CM sorts, as the report's grids and charts name it: "one sort", "10 sorts per property". */
export function cmAmount(level) {
  if (level === 1) return 'one sort';
  const repetitions = CATALOGUE.computation_models.find((m) => m.level === level)?.repetitions ?? 1;
  return `${repetitions.toLocaleString('en-US')} sort${repetitions === 1 ? '' : 's'} per property`;
}

/**
 * A line of the answers in short as a list item with its topic in bold and, where it gives its
 * verdict before " — ", that verdict as its text and the numbers after it as sub-items, a sentence
 * each: "At 10 Mbit/s (…): JSON with GZIP — measured at most +1.98 ms behind …. Next best: …" →
 * {lead: "At 10 Mbit/s (…)", text: "JSON with GZIP", sub: ["Measured at most +1.98 ms behind ….",
 * "Next best: …"]}. Split at the first ": " outside brackets; a line without one as it is.
 */
export function topicItem(line) {
  let depth = 0;
  for (let i = 0; i < line.length - 1; i++) {
    if (line[i] === '(') depth++;
    else if (line[i] === ')') depth--;
    else if (depth === 0 && line[i] === ':' && line[i + 1] === ' ') {
      const text = line.slice(i + 2);
      const dash = text.indexOf(' — ');
      if (dash < 0) return { lead: line.slice(0, i), text };
      const sub = capital(text.slice(dash + 3)).split(/(?<=\.) (?=[A-Z])/);
      return { lead: line.slice(0, i), text: text.slice(0, dash), sub };
    }
  }
  return line;
}

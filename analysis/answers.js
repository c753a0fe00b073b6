// What the report says: comparisons along each dimension, RQ1–RQ5 answered in sentences built
// from the data, the source study's conclusions (docs/method.md) marked against our measurements,
// and the fastest configuration for each measured situation. Comparisons and decisions are the ones
// each group stopped on (stored with it: common/judge.js), judged at the run's {delta, looks}.

import {
  VERDICTS,
  byFewRounds,
  fasterLine,
  hasInterval,
  isResolved,
  judgingOf,
  verdictOf,
} from '#common/comparison.js';
import { CELL_COLUMNS, caseId, completeCell, scenarioOf } from '#common/cell.js';
import { NO_CLEAR_WINNER } from '#common/judge.js';
import { LABELS, compressionLabel, defaultLevel, formatLabel } from '#common/catalogue.js';
import { configurationWords, listWords, ms, network, relative, scopeWords } from '#common/answer-words.js';
import { overProtocol } from '#common/protocols.js';

export { NO_CLEAR_WINNER };

/** A cell's format (and decoder, when not the default) as a reader sees it. */
const formatName = (cell) => formatLabel(cell.format, cell.decoder);
/**
 * A cell's compression as a reader sees it: "no compression", "GZIP", "Brotli 11" (a level other than the default), …
 */
const compressionName = (cell) =>
  cell.compression === 'none' ? 'uncompressed' : compressionLabel(cell.compression, cell.level);
/** A ratio as the report writes it: 1.234 → "1.23×". */
const times = (ratio) => `${ratio.toFixed(2)}×`;
/** How results are judged when no run says otherwise: the default stop rule's δ and looks. */
export const DEFAULT_JUDGING = Object.freeze(judgingOf(undefined));
/** Whether a cell's scenario computes nothing: the formats family (scenario 1). */
const nothingComputed = (cell) => scenarioOf(cell).family === 'formats';

/** Cells grouped by every dimension but `varying`. */
function groupsWithout(cells, varying) {
  const groups = new Map();
  for (const cell of cells) {
    const key = CELL_COLUMNS.filter((d) => !varying.includes(d))
      .map((d) => cell.cell[d])
      .join('/');
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(cell);
  }
  return [...groups.values()];
}

/**
 * Every comparison the run's groups judged (their stored judgments, analysis/read-runs.js):
 * ratio = median(a) / median(b) over the rounds both ran in, so a ratio above 1 means b is faster.
 * The pairs are the groups' own (common/cell.js): format (every pair, in catalogue order, with
 * default decoders), decoder (each against its format's default), compression, level, side (the
 * client against the server) and caching (a second request against the cached client). The
 * decision margins are left out: they are read with the decisions.
 *
 * @param cells the runs' cells (read-runs.js)
 * @param groups the runs' groups with their judgments (read-runs.js)
 */
export function comparisons(cells, groups) {
  const byId = new Map(cells.map((c) => [c.case_id, c]));
  return groups.flatMap((group) =>
    group.judgment.comparisons
      .filter((c) => c.dimension !== 'margin' && byId.has(c.a) && byId.has(c.b))
      .map((c) => ({
        ...c,
        ci_low: c.ci_low ?? NaN,
        ci_high: c.ci_high ?? NaN,
        // The δ lines its group was judged by (comparison.js MARGIN_RULE; 1 before it was recorded).
        margin_rule: group.judgment.margin_rule ?? 1,
        p: null,
        a: completeCell(byId.get(c.a).cell),
        b: completeCell(byId.get(c.b).cell),
        a_id: c.a,
        b_id: c.b,
      })),
  );
}

/**
 * The comparisons on the report's one scale (report.js shownFigures): where both cells have a time
 * the report shows (both in one decided situation), the ratio is of those two times, so that a
 * sentence about the pair and the table agree; the pair's own judgment (the medians of the rounds
 * both ran in, its CI and verdict) is kept under `judged`. Its interval is moved with the estimate
 * (the same bounds relative to it), and its verdict stands as certain only where the ratio shown
 * and the moved interval say the same (a verdict of the few-rounds test, which has no interval:
 * where the ratio does); otherwise the pair reads "can't tell yet". A pair outside a decided
 * situation (caching) keeps its own figures.
 *
 * @param all comparisons()
 * @param shown report.js shownFigures: case id → {time_ms, …}
 */
export function onOneScale(all, shown, delta) {
  return all.map((c) => {
    const [a, b] = [shown.get(c.a_id), shown.get(c.b_id)];
    if (!a || !b) return c;
    const ratio = a.time_ms / b.time_ms;
    const move = ratio / c.ratio;
    const below = fasterLine(delta, c.margin_rule);
    const side = ratio > 1 + delta ? VERDICTS.B_FASTER : ratio < below ? VERDICTS.A_FASTER : VERDICTS.EQUIVALENT;
    const moved = { ci_low: c.ci_low * move, ci_high: c.ci_high * move, rounds: c.rounds };
    const agrees = c.verdict === side && (byFewRounds(c) || verdictOf(moved, delta, c.margin_rule) === c.verdict);
    return {
      ...c,
      judged: { ratio: c.ratio, ci_low: c.ci_low, ci_high: c.ci_high, verdict: c.verdict, settled: c.settled },
      ratio,
      ci_low: moved.ci_low,
      ci_high: moved.ci_high,
      time_a_ms: a.time_ms,
      time_b_ms: b.time_ms,
      verdict: c.settled && !agrees ? VERDICTS.UNRESOLVED : c.verdict,
      settled: c.settled && agrees,
    };
  });
}

/**
 * What a judged comparison says, certain or not (answer-words.js): 'b' when b is certainly faster
 * (the group settled a CI wholly above 1 + δ), 'a' when a is, 'equivalent' when they are certainly
 * as fast, and 'tie' while it cannot tell yet (nothing settled, whatever the last CI).
 */
export function verdict(c) {
  if (!c.settled) return 'tie';
  return c.verdict === VERDICTS.B_FASTER
    ? 'b'
    : c.verdict === VERDICTS.A_FASTER
      ? 'a'
      : c.verdict === VERDICTS.EQUIVALENT
        ? 'equivalent'
        : 'tie';
}

/**
 * A judged comparison in words, one direction: "X is k× slower than Y (95 % CI …)" when certain,
 * "X is as fast as Y (…)", or "can't tell yet: X looked k× slower than Y (…)". `ratio`, `low`,
 * `high`: time(x) / time(y) and its CI.
 */
function compared(x, y, ratio, low, high, v, delta, early = false) {
  const words = relative(x, y, ratio, low, high);
  // "1.04× faster, 95 % CI 1.00–1.08": the ratio and its CI in the direction they read.
  const inBrackets = () => {
    const rest = words.slice(`${x} is `.length);
    return rest.endsWith(` than ${y}`)
      ? rest.slice(0, -` than ${y}`.length)
      : rest.replace(` than ${y} (`, ', ').replace(/\)$/, '');
  };
  // "As fast" with the ratio that makes it so: within δ either way, "1.04× faster" included.
  const within = `within ±${Math.round(delta * 100)} %: `;
  if (v === 'equivalent') return `${x} is as fast as ${y} (${within}${inBrackets()})`;
  if (v === 'tie') {
    const lean =
      Math.max(ratio, 1 / ratio) <= 1 + delta
        ? `${x} looked as fast as ${y} (${within}${inBrackets()})`
        : words.replace(' is ', ' looked ');
    // A CI clear of the δ lines that had not yet held for the looks the stop rule asks.
    return `can't tell yet: ${lean}${early ? ', not yet for long enough to be certain' : ''}`;
  }
  return words;
}

/** A comparison c (ratio a/b) in words with `x` naming a and `y` naming b. */
/** A comparison's interval where it can be judged (hasInterval: enough rounds), else none. */
const judgeable = (c) => !byFewRounds(c) && hasInterval(c);
/** Whether an open comparison's CI is already clear of the δ lines (it had not held long enough). */
const early = (c, delta) => !c.settled && judgeable(c) && isResolved(verdictOf(c, delta, c.margin_rule));
const comparedAB = (c, x, y, delta) =>
  judgeable(c)
    ? compared(x, y, c.ratio, c.ci_low, c.ci_high, verdict(c), delta, early(c, delta))
    : compared(x, y, c.ratio, NaN, NaN, verdict(c), delta);
/** The same, read the other way round: `x` names b, `y` names a. */
const comparedBA = (c, x, y, delta) =>
  judgeable(c)
    ? compared(x, y, 1 / c.ratio, 1 / c.ci_high, 1 / c.ci_low, flip(verdict(c)), delta, early(c, delta))
    : compared(x, y, 1 / c.ratio, NaN, NaN, flip(verdict(c)), delta);
const flip = (v) => (v === 'a' ? 'b' : v === 'b' ? 'a' : v);

/** δ as the report writes it: 0.05 → "5 %". */
export const percent = (delta) => `${Number((delta * 100).toFixed(2))} %`;
const sorted = (values) => [...new Set(values)].sort((a, b) => a - b);
/** "Books at 10 Mbit/s", "Books unthrottled over HTTP/2 with TLS". */
const where = (cell) =>
  `${LABELS.object(cell.object).replace(/ \(.*\)$/, '')} ${network(cell.network)}${overProtocol(cell.protocol)}`;

/** A cell's time as the opening shows it (report.js shownFigures), else its own median. */
const timeOf = (shown, c) => shown.get(c.case_id)?.time_ms ?? c.stats.median;

function rq1(cells, all, delta, shown) {
  const lines = [];
  // Formats against each other: the decoder goes with the format (a cell's decoder is its
  // format's default unless the plan names others), so it varies with it.
  for (const group of groupsWithout(
    cells.filter((c) => nothingComputed(c.cell)),
    ['format', 'decoder', 'count'],
  )) {
    const { cell } = group[0];
    const parts = sorted(group.map((c) => c.cell.count)).map((count) => {
      const atCount = group
        .filter((c) => c.cell.count === count)
        .sort((a, b) => timeOf(shown, a) - timeOf(shown, b))
        .map((c) => `${formatName(c.cell)} ${ms(timeOf(shown, c))}`);
      return `N=${count.toLocaleString('en-US')}: ${atCount.join(', ')}`;
    });
    const largest = Math.max(...group.map((c) => c.cell.count));
    const jsonOverProtobuf = all.find(
      (c) =>
        c.dimension === 'format' &&
        c.a.format === 'json' &&
        c.b.format === 'protobuf' &&
        c.a.count === largest &&
        nothingComputed(c.a) &&
        where(c.a) === where(cell) &&
        c.a.compression === cell.compression,
    );
    lines.push(
      `${where(cell)}, ${compressionName(cell)}, fastest first — ${parts.join('; ')}.` +
        (jsonOverProtobuf
          ? ` At N=${largest.toLocaleString('en-US')}: ${comparedAB(jsonOverProtobuf, 'JSON', 'Protobuf', delta)}.`
          : ''),
    );
  }
  return lines;
}

/**
 * RQ2: for every compression and level against no compression (scenario 1), per object,
 * network, format and N, whether it is faster, slower or neither, with the ratio's CI; then,
 * per situation, which compression wins (the fastest cell, and whether its margin over no
 * compression is clear).
 */
function rq2(cells, all, delta, shown) {
  const lines = [];
  const againstNone = all.filter(
    (c) => c.dimension === 'compression' && nothingComputed(c.a) && c.a.compression === 'none',
  );
  for (const group of groupsWithout(
    againstNone.map((c) => ({ cell: c.b, c })),
    ['count'],
  )) {
    const { cell } = group[0];
    const name = compressionName(cell);
    const parts = group
      .sort((a, b) => a.cell.count - b.cell.count)
      // Always "<compression> is k× faster/slower than no compression": ratio compressed/none.
      .map(({ c }) => `N=${c.a.count.toLocaleString('en-US')}: ${comparedBA(c, name, 'uncompressed', delta)}`);
    lines.push(`${where(cell)}, ${formatName(cell)}, ${name} against uncompressed — ${parts.join('; ')}.`);
  }
  const situations = groupsWithout(
    cells.filter((c) => nothingComputed(c.cell)),
    ['compression', 'level'],
  );
  for (const group of situations.filter(
    (g) => new Set(g.map((c) => `${c.cell.compression}-${c.cell.level}`)).size > 2,
  )) {
    const ranked = [...group].sort((a, b) => timeOf(shown, a) - timeOf(shown, b));
    const best = ranked[0];
    const none = group.find((c) => c.cell.compression === 'none');
    const pair =
      none && best !== none && againstNone.find((c) => caseId(c.a) === none.case_id && caseId(c.b) === best.case_id);
    lines.push(
      `${where(best.cell)}, ${formatName(best.cell)}, N=${best.cell.count} — fastest: ${compressionName(best.cell)} ` +
        `(${ms(timeOf(shown, best))})${
          pair ? `; ${comparedBA(pair, compressionName(best.cell), 'uncompressed', delta)}` : ''
        }; slowest: ${compressionName(ranked.at(-1).cell)} ` +
        `(${ms(timeOf(shown, ranked.at(-1)))}).`,
    );
  }
  return lines;
}

function sideLines(all, dimension, describe) {
  const lines = [];
  const chosen = all.filter((c) => c.dimension === dimension);
  for (const group of groupsWithout(
    chosen.map((c) => ({ cell: c.a, c })),
    ['cm', 'count'],
  )) {
    const { cell } = group[0];
    const parts = group
      .sort((a, b) => a.cell.count - b.cell.count || a.cell.cm - b.cell.cm)
      .map(({ c }) => `N=${c.a.count.toLocaleString('en-US')} CM${c.a.cm}: ${describe(c)}`);
    lines.push(`${where(cell)}, ${formatName(cell)}, ${compressionName(cell)} — ${parts.join('; ')}.`);
  }
  return lines;
}

/**
 * RQ5's thresholds: per network, objects, format and N, where each side wins clearly (the CI
 * of the ratio excludes 1), and the CM from which the side `takesOver` ('a' or 'b') wins and the
 * other never wins again at a higher measured CM. CMs whose comparison had too few rounds for a
 * CI (CM5 on 10,000 Books: one round) are named as "can't tell yet", as everywhere.
 */
function thresholds(all, dimension, bName, aName, takesOver, delta, what) {
  const lines = [];
  const chosen = all.filter((c) => c.dimension === dimension);
  const list = (cms) => (cms.length ? cms.map((cm) => `CM${cm}`).join(', ') : 'no CM');
  for (const group of groupsWithout(
    chosen.map((c) => ({ cell: c.a, c })),
    ['cm', 'count'],
  )) {
    const { cell } = group[0];
    for (const count of sorted(group.map((g) => g.cell.count))) {
      const byCm = group
        .filter((g) => g.cell.count === count)
        .sort((a, b) => a.cell.cm - b.cell.cm)
        .map(({ c }) => ({ cm: c.a.cm, verdict: verdict(c), judged: hasInterval(c) }));
      const unjudged = byCm.filter((v) => !v.judged).map((v) => v.cm);
      const note = unjudged.length ? `; ${list(unjudged)}: can't tell yet (too few measurements for a CI)` : '';
      const bWins = byCm.filter((v) => v.verdict === 'b').map((v) => v.cm);
      const aWins = byCm.filter((v) => v.verdict === 'a').map((v) => v.cm);
      const other = takesOver === 'a' ? 'b' : 'a';
      const from = byCm.findIndex((v, i) => v.verdict === takesOver && byCm.slice(i).every((w) => w.verdict !== other));
      const measured =
        byCm.length === 1
          ? `only CM${byCm[0].cm} was measured`
          : `${listWords(byCm.map((v) => `CM${v.cm}`))} were measured`;
      // A threshold holds from its CM up to the highest judged CM, and is said so;
      // CMs without a verdict above it are named in the note, not claimed.
      const lastJudged =
        from >= 0
          ? byCm
              .slice(from)
              .filter((v) => v.judged)
              .at(-1).cm
          : null;
      const isLast = lastJudged === byCm.at(-1).cm;
      const upTo =
        from < 0
          ? ''
          : lastJudged !== byCm[from].cm
            ? ` up to CM${lastJudged}${isLast ? ', the most measured' : ''}`
            : isLast
              ? ' (the most measured)'
              : '';
      const threshold =
        from >= 0
          ? `threshold: ${takesOver === 'a' ? aName : bName} from CM${byCm[from].cm}${upTo}`
          : `no threshold (${measured})`;
      const wins = [
        bWins.length ? `${bName} faster at ${list(bWins)}` : null,
        aWins.length ? `${aName} faster at ${list(aWins)}` : null,
      ].filter(Boolean);
      const head = `${where(cell)}, ${formatName(cell)}, N=${count.toLocaleString('en-US')}, ${what}`;
      lines.push(
        wins.length
          ? `${head}: ${wins.join(', ')} — ${threshold}${note}.`
          : `${head}: neither side certainly faster where ${measured}, so no threshold${note}.`,
      );
    }
  }
  return lines;
}

/** RQ1–RQ5 in sentences, each with its numbers; verdicts at the run's δ (`judging`). */
export function answerQuestions(cells, all, { delta } = DEFAULT_JUDGING, shown = new Map()) {
  return {
    RQ1: {
      question: 'How does the interchange format affect the response time?',
      answers: rq1(cells, all, delta, shown),
    },
    RQ2: {
      question: 'How does compression affect the response time?',
      answers: rq2(cells, all, delta, shown),
    },
    RQ3: {
      question: 'Where is computation faster, client or server?',
      // Always "sorting in the browser is k× slower/faster than on the server": ratio client/server.
      answers: sideLines(all, 'side', (c) => comparedAB(c, 'the browser sorting', 'the server sorting', delta)),
    },
    RQ4: {
      question: 'With client-side caching, how does an already cached dataset change the total time?',
      // Always "asking the server again is k× slower/faster than re-sorting the cached copy", each
      // the whole scenario's time (scenario 4 against 5): ratio second/cached.
      answers: sideLines(all, 'caching', (c) =>
        comparedAB(
          c,
          'asking the server again (two answers sorted by the server)',
          're-sorting the cached copy (one answer, sorted twice in the browser)',
          delta,
        ),
      ),
    },
    RQ5: {
      question: 'What amount of computation favours the client, and what the server?',
      answers: [
        ...thresholds(
          all,
          'caching',
          're-sorting the cached copy',
          'asking the server again',
          'a',
          delta,
          'data already cached (re-sorting it in the browser against asking the server again)',
        ),
        ...thresholds(
          all,
          'side',
          'the server',
          'the client',
          'b',
          delta,
          'nothing cached (the server sorts or the client does)',
        ),
      ],
    },
  };
}

/** The study this lab reproduces (docs/method.md), as the report names it. */
export const SOURCE_STUDY = Object.freeze({
  authors: 'Dino Opijac and John Mogensen',
  title: 'Improving response times over the HTTP-protocol: A comparative study of response times',
  where: 'bachelor thesis, Blekinge Institute of Technology',
  year: 2017,
  setup: 'Firefox 53 on Windows over HTTP/1.1 on a LAN, unthrottled or throttled to 10 Mbit/s',
});

/**
 * How a claim's comparisons are counted, in the report's words (answer-words.js): each one holds
 * when it is certain (the group settled it) with a verdict the claim allows, is contradicted when
 * it is certain with a verdict the claim excludes, and is open while the run cannot tell. A claim
 * names conditions (its parts); it is
 *   not measured here — no part measured;
 *   confirmed      — it holds in every one of its comparisons;
 *   holds so far   — it is contradicted in none and holds in at least half, the rest open;
 *   can't tell yet — it is contradicted in none and holds in fewer than half;
 *   refuted        — it is contradicted in more of them than it holds in;
 *   partly         — anything else (it holds in some and is contradicted in others);
 * and where some part was not measured, the verdict is of the measured parts only and says so
 * ("confirmed where measured"), naming what was not.
 */
export const conclusionRule = (delta) =>
  'A verdict judges which way each comparison went, not the sizes a claim gives ("about twice", ' +
  '"~1.2×"): those stand beside ours, under "the source measured" and "we measured", and a claim that ' +
  'gives one says "in direction". Each comparison a claim covers holds when it is certain and the claim ' +
  'allows its verdict, is contradicted when it is certain and the claim does not allow its verdict, and ' +
  'stays open while the run cannot tell (certain, as fast and k× slower as in "What to choose": as fast, ' +
  `neither over ${percent(delta)} slower). "X faster" needs X certainly faster, and X certainly as fast ` +
  'contradicts it; "X as fast or faster" also takes X certainly as fast. Confirmed: the claim holds in ' +
  "every comparison; holds so far: contradicted in none and holds in at least half, the rest can't tell " +
  "yet; can't tell yet: contradicted in none and holds in fewer than half; refuted: contradicted in " +
  'more than it holds in; partly: it holds in some and is contradicted in others. A claim that names ' +
  'several conditions is judged condition by condition, so that many comparisons of one cannot carry ' +
  'another: it is confirmed or refuted only where every condition is, and holds so far only where every ' +
  "condition holds so far or is confirmed (else can't tell yet, or partly where any condition is " +
  'contradicted); where its conditions went different ways, the verdict gives each one\'s ("by ' +
  'condition: …"). Where some condition was not measured, the verdict is for the measured ones only ("… ' +
  'where measured") and names the rest ("not measured here").';

/** How many of a part's contradictions were "as fast": " (1 of them as fast)", " (as fast)" or "". */
export const asFastWords = ({ contradicted, contradicted_as_fast: asFast }) =>
  !asFast ? '' : asFast === contradicted ? ' (as fast)' : ` (${asFast} of them as fast)`;

/** Whether a claim gives a size ("~1.2×", "up to 3.2×", "about twice"), which its verdict does not judge. */
const sized = (claim) => /\d(\.\d+)?×|about twice/.test(claim);

/** The verdict of a claim from its counts (see conclusionRule); `unmeasured` parts make it "… where measured". */
export function judgeClaim({ holds, contradicted, open }, unmeasured = 0) {
  const n = holds + contradicted + open;
  if (n === 0) return 'not measured here';
  const verdict =
    contradicted === 0
      ? holds === n
        ? 'confirmed'
        : holds >= n / 2
          ? 'holds so far'
          : CANT_TELL
      : contradicted > holds
        ? 'refuted'
        : 'partly';
  return unmeasured ? `${verdict} where measured` : verdict;
}

const CANT_TELL = "can't tell yet";

/**
 * The verdict of a claim from its parts' verdicts, each condition judged on its own so that one
 * part's many comparisons cannot carry another's: confirmed (or refuted) only where every part
 * is; partly where any part is partly or refuted but not all refuted; holds so far where every
 * part is confirmed or holds so far; else (some part can't tell yet) can't tell yet.
 */
export function poolClaim(partVerdicts) {
  const all = (v) => partVerdicts.every((p) => p === v);
  if (!partVerdicts.length) return 'not measured here';
  if (all('confirmed')) return 'confirmed';
  if (all('refuted')) return 'refuted';
  if (partVerdicts.some((p) => p === 'refuted' || p === 'partly')) return 'partly';
  return partVerdicts.every((p) => p === 'confirmed' || p === 'holds so far') ? 'holds so far' : CANT_TELL;
}

/**
 * How a comparison counts for a part of a claim: 'holds' when certain with a verdict the part
 * allows, 'contradicted' when certain with any other (certainly as fast contradicts "X faster"),
 * 'open' while it can't tell yet.
 */
function countsAs(c, part) {
  if (!c.settled) return 'open';
  return part.holds.includes(c.verdict) ? 'holds' : 'contradicted';
}

/**
 * The source study's conclusions (docs/method.md) as data records: which comparisons each covers
 * (`parts`, each a filter and what each verdict means for the claim), and the counts and verdict
 * that follow. Ratios are a/b as in comparisons().
 */
export function sourceConclusions(cells, all, { delta } = DEFAULT_JUDGING) {
  const pick = (dimension, filter) => all.filter((c) => c.dimension === dimension && filter(c));
  const formats = (a, b, filter) =>
    pick('format', (c) => c.a.format === a && c.b.format === b && nothingComputed(c.a) && filter(c.a));
  /** The source's GZIP: at the default level (its server's, zlib's 6). */
  const gzip = (cell) => cell.compression === 'gzip' && (cell.level ?? defaultLevel('gzip')) === defaultLevel('gzip');
  /** {holds: [verdicts], contradicts: [verdicts]}: anything else is open. */
  const claims = [
    {
      claim:
        'Bandwidth-limited, no GZIP: Protobuf has the lowest response time ' +
        '(JSON ~1.2× slower for Books; for Videos from 1.2× slower at 10 objects to ~1.8× slower at 10,000).',
      theirs: 'JSON 1.2× slower than Protobuf (Book); 1.2–1.8× slower (Video); XML slower than Protobuf',
      parts: [
        {
          what: 'JSON against Protobuf at 10 Mbit/s, no GZIP: Protobuf faster',
          x: 'JSON',
          y: 'Protobuf',
          comparisons: formats('json', 'protobuf', (c) => c.network === '10mbit' && c.compression === 'none'),
          holds: [VERDICTS.B_FASTER],
          contradicts: [VERDICTS.A_FASTER],
        },
        {
          what: 'JSON against Protobuf at 10 Mbit/s, no GZIP, 10,000 Videos: Protobuf faster',
          x: 'JSON',
          y: 'Protobuf',
          comparisons: formats(
            'json',
            'protobuf',
            (c) => c.network === '10mbit' && c.compression === 'none' && c.object === 'videos' && c.count === 10000,
          ),
          holds: [VERDICTS.B_FASTER],
          contradicts: [VERDICTS.A_FASTER],
        },
        {
          what: 'Protobuf against XML at 10 Mbit/s, no GZIP: Protobuf faster',
          x: 'Protobuf',
          y: 'XML',
          comparisons: formats('protobuf', 'xml', (c) => c.network === '10mbit' && c.compression === 'none'),
          holds: [VERDICTS.A_FASTER],
          contradicts: [VERDICTS.B_FASTER],
        },
      ],
    },
    {
      claim: 'With GZIP the size advantage vanishes and JSON is as fast or faster than Protobuf.',
      theirs: 'JSON as fast as Protobuf or faster',
      parts: [
        {
          what: 'JSON against Protobuf at 10 Mbit/s with GZIP: JSON faster or equivalent',
          x: 'JSON',
          y: 'Protobuf',
          comparisons: formats('json', 'protobuf', (c) => c.network === '10mbit' && gzip(c)),
          holds: [VERDICTS.A_FASTER, VERDICTS.EQUIVALENT],
          contradicts: [VERDICTS.B_FASTER],
        },
      ],
    },
    {
      claim:
        'Unthrottled: JSON beats Protobuf (Books, no GZIP: Protobuf up to ~3.2× slower at 10,000 objects) ' +
        'and both beat XML; XML is slowest everywhere.',
      theirs: 'JSON up to 3.2× faster than Protobuf (Book, no GZIP); JSON and Protobuf faster than XML',
      parts: [
        {
          what: 'JSON against Protobuf unthrottled, Books, no GZIP: JSON faster',
          x: 'JSON',
          y: 'Protobuf',
          comparisons: formats(
            'json',
            'protobuf',
            (c) => c.network === 'unthrottled' && c.compression === 'none' && c.object === 'books',
          ),
          holds: [VERDICTS.A_FASTER],
          contradicts: [VERDICTS.B_FASTER],
        },
        {
          what: 'JSON against Protobuf unthrottled, 10,000 Books, no GZIP: JSON faster',
          x: 'JSON',
          y: 'Protobuf',
          comparisons: formats(
            'json',
            'protobuf',
            (c) => c.network === 'unthrottled' && c.compression === 'none' && c.object === 'books' && c.count === 10000,
          ),
          holds: [VERDICTS.A_FASTER],
          contradicts: [VERDICTS.B_FASTER],
        },
        {
          what: 'JSON and Protobuf against XML, each compression on its own: XML slower',
          x: 'JSON or Protobuf',
          y: 'XML',
          comparisons: [...formats('json', 'xml', () => true), ...formats('protobuf', 'xml', () => true)],
          holds: [VERDICTS.A_FASTER],
          contradicts: [VERDICTS.B_FASTER],
        },
      ],
    },
    {
      claim: 'GZIP helps when bandwidth is the bottleneck and costs time when it is not.',
      theirs: 'uncompressed slower than GZIP at 10 Mbit/s, faster unthrottled',
      parts: [
        {
          what: 'uncompressed against GZIP at 10 Mbit/s, N ≥ 100: GZIP faster',
          x: 'uncompressed',
          y: 'GZIP',
          comparisons: pick(
            'compression',
            (c) =>
              nothingComputed(c.a) &&
              c.a.compression === 'none' &&
              gzip(c.b) &&
              c.a.network === '10mbit' &&
              c.a.count >= 100,
          ),
          holds: [VERDICTS.B_FASTER],
          contradicts: [VERDICTS.A_FASTER],
        },
        {
          what: 'uncompressed against GZIP unthrottled: GZIP slower',
          x: 'uncompressed',
          y: 'GZIP',
          comparisons: pick(
            'compression',
            (c) => nothingComputed(c.a) && c.a.compression === 'none' && gzip(c.b) && c.a.network === 'unthrottled',
          ),
          holds: [VERDICTS.A_FASTER],
          contradicts: [VERDICTS.B_FASTER],
        },
      ],
    },
    {
      claim:
        'Server computation is never slower; CM1–CM3 differ little; ' +
        'from CM4 the server wins clearly, more so with more objects.',
      theirs: 'the browser sorting as fast as the server or slower everywhere; slower from CM4',
      parts: [
        {
          what: 'the browser sorting against the server sorting at CM1–CM3: the server not slower',
          x: 'the browser sorting',
          y: 'the server sorting',
          comparisons: pick('side', (c) => c.a.cm <= 3),
          holds: [VERDICTS.B_FASTER, VERDICTS.EQUIVALENT],
          contradicts: [VERDICTS.A_FASTER],
        },
        {
          what: 'the browser sorting against the server sorting from CM4: the server faster',
          x: 'the browser sorting',
          y: 'the server sorting',
          comparisons: pick('side', (c) => c.a.cm >= 4),
          holds: [VERDICTS.B_FASTER],
          contradicts: [VERDICTS.A_FASTER],
        },
      ],
    },
    {
      claim:
        'Caching: for few objects and CM3 or less the cached client is about twice as fast ' +
        'as a second server request; at CM5 the second request wins.',
      theirs: 'a second request about 2× slower than sorting the cached copy (N ≤ 100, CM ≤ 3); faster at CM5',
      parts: [
        {
          what: 'a second request against the cached copy, N ≤ 100, CM2–CM3: the cached client faster',
          x: 'a second request',
          y: 'sorting the cached copy',
          comparisons: pick('caching', (c) => c.a.count <= 100 && c.a.cm <= 3),
          holds: [VERDICTS.B_FASTER],
          contradicts: [VERDICTS.A_FASTER],
        },
        {
          what: 'a second request against the cached copy at CM5: the second request faster',
          x: 'a second request',
          y: 'sorting the cached copy',
          comparisons: pick('caching', (c) => c.a.cm === 5),
          holds: [VERDICTS.A_FASTER],
          contradicts: [VERDICTS.B_FASTER],
        },
      ],
    },
  ];
  // The range of a part's ratios certainly apart (time of x ÷ time of y), one direction, then how
  // many were certainly as fast and how many it could not tell yet: neither stretches the range,
  // so that no "as fast" pair is counted as "1.01× faster".
  const range = ({ what, x, y, comparisons: list }) => {
    if (!list.length) return `${what.replace(/:.*$/, '')}: not measured here`;
    const settled = list.filter((c) => c.settled);
    const apart = settled.filter((c) => c.verdict !== VERDICTS.EQUIVALENT);
    const [same, open] = [settled.length - apart.length, list.length - settled.length];
    const rest = [same ? `as fast in ${same}` : null, open ? `can't tell yet in ${open}` : null].filter(Boolean);
    if (!apart.length) return `${x} against ${y}: ${rest.join('; ')}`;
    const after = rest.length ? `; ${rest.join('; ')}` : '';
    const [low, high] = [Math.min(...apart.map((c) => c.ratio)), Math.max(...apart.map((c) => c.ratio))];
    const span = (a, b) => (a.toFixed(2) === b.toFixed(2) ? times(a) : `${times(a)}–${times(b)}`);
    if (low >= 1) return `${x} ${span(low, high)} slower than ${y}${after}`;
    if (high <= 1) return `${x} ${span(1 / high, 1 / low)} faster than ${y}${after}`;
    return `${x} from ${times(1 / low)} faster to ${times(high)} slower than ${y}${after}`;
  };
  return claims.map(({ claim, theirs, parts }) => {
    const counted = parts.map((part) => {
      const verdicts = part.comparisons.map((c) => verdictOf(c, delta, c.margin_rule));
      const counted = part.comparisons.map((c) => countsAs(c, part));
      const holds = counted.filter((k) => k === 'holds').length;
      const contradicted = counted.filter((k) => k === 'contradicted').length;
      // Of those, the ones certainly as fast (within δ): a claim of a difference is contradicted
      // by no difference too, which a reader must not take for the other way round.
      const contradictedAsFast = part.comparisons.filter(
        (c, i) => counted[i] === 'contradicted' && c.verdict === VERDICTS.EQUIVALENT,
      ).length;
      const partCells = part.comparisons.flatMap((c) => [c.a, c.b]);
      // A condition on N ("N ≥ 100") with the N this run measured of it, so that no reader takes
      // the condition's bound for a measurement.
      const measuredN = [...new Set(partCells.map((c) => c.count))].sort((x, y) => x - y);
      const what =
        /\bN [≥≤]/.test(part.what) && measuredN.length
          ? part.what.replace(
              /(N [≥≤] [\d,]*\d)/,
              `$1, measured at N = ${listWords(measuredN.map((k) => k.toLocaleString('en-US')))}`,
            )
          : part.what;
      return {
        what,
        scope: partCells.length ? scopeWords(partCells) : 'not measured here',
        n: verdicts.length,
        holds,
        contradicted,
        contradicted_as_fast: contradictedAsFast,
        open: verdicts.length - holds - contradicted,
        ratios: range(part),
        holds_when: part.holds,
        contradicted_when: part.contradicts,
        comparisons: part.comparisons.map((c, i) => ({
          a: c.a_id,
          b: c.b_id,
          ratio: c.ratio,
          ci_low: c.ci_low,
          ci_high: c.ci_high,
          rounds: c.rounds,
          verdict: verdicts[i],
          counts_as: counted[i],
        })),
      };
    });
    const total = (key) => counted.reduce((sum, p) => sum + p[key], 0);
    const counts = { holds: total('holds'), contradicted: total('contradicted'), open: total('open') };
    const unmeasured = counted.filter((p) => p.n === 0).map((p) => p.what);
    const measuredCells = parts.flatMap((p) => p.comparisons.flatMap((c) => [c.a, c.b]));
    const n = counts.holds + counts.contradicted + counts.open;
    const partVerdicts = counted.filter((p) => p.n > 0).map((p) => judgeClaim(p));
    const pooled = poolClaim(partVerdicts);
    const verdict = unmeasured.length && partVerdicts.length ? `${pooled} where measured` : pooled;
    const scope = measuredCells.length ? `measured for ${scopeWords(measuredCells)}` : '';
    return {
      claim,
      theirs,
      ours: counted.map((p) => (p.n ? `${p.ratios} (${p.scope})` : p.ratios)).join('; '),
      part_verdicts: counted.map((p) => (p.n ? judgeClaim(p) : 'not measured here')),
      parts: counted,
      ...counts,
      n,
      verdict,
      unmeasured,
      scope,
      // Per condition, so that one part's many comparisons do not hide another's.
      counted: counted
        .map(
          (p) =>
            `${p.what.replace(/:.*$/, '')}: ` +
            (p.n
              ? `holds in ${p.holds} of ${p.n}, contradicted in ${p.contradicted}` +
                `${asFastWords(p)}, can't tell yet in ${p.open}`
              : 'not measured here'),
        )
        .join('; '),
      // A claim that gives sizes is judged in direction only, and says so beside its verdict.
      verdict_words: [
        sized(claim) && n ? `${verdict}, in direction` : verdict,
        // Where its measured conditions went different ways, each one's, so that a condition
        // confirmed is not read as open with the claim ("at 10 Mbit/s …: confirmed").
        new Set(partVerdicts).size > 1
          ? `by condition: ${counted
              .filter((p) => p.n > 0)
              .map((p) => `${p.what.replace(/:.*$/, '')}: ${judgeClaim(p)}`)
              .join(', ')}`
          : '',
        scope,
        ...unmeasured.map((what) => `not measured here: ${what.replace(/:.*$/, '')}`),
      ]
        .filter(Boolean)
        .join('; '),
    };
  });
}

/**
 * The few-rounds test's own bound on a ratio it decided, the other over the fastest: {low, high}
 * (either null where the test bounds one side only), from the group's stored comparison of the
 * two, or null where it is not stored.
 */
function fewRoundsBound(judgment, id, fastestId) {
  const pair = (judgment.comparisons ?? []).find(
    (c) => c.few_rounds && ((c.a === id && c.b === fastestId) || (c.a === fastestId && c.b === id)),
  );
  if (!pair) return null;
  const { low, high } = pair.few_rounds;
  if (pair.a === id) return { low, high };
  return { low: high === null ? null : 1 / high, high: low === null ? null : 1 / low };
}

/**
 * For each measured situation (objects, N, network, CM), the decision its group stopped on
 * (common/judge.js, stored with the group): the configurations from fastest to slowest, each
 * with its margin over the fastest, and the recommendation — the fastest when every other is
 * clearly slower and settled, else "no clear winner" among those not clearly slower. `settled`
 * says whether every margin settled; a margin left unsettled when the group's budget ran out has
 * a CI that spans a δ boundary or only just left it, where another run may decide the other way.
 * In words for a reader: configurations are named as the opening names them (answer-words.js
 * configurationWords); the group's id and why it stopped come along.
 *
 * @param cells the runs' cells (read-runs.js)
 * @param groups the runs' groups with their judgments (read-runs.js)
 */
export function decisions(cells, groups) {
  const byId = new Map(cells.map((c) => [c.case_id, c]));
  const label = (id) => configurationWords(completeCell(byId.get(id).cell));
  return groups
    .filter((group) => group.judgment.decision)
    .map((group) => {
      const { decision } = group.judgment;
      const fastest = byId.get(decision.fastest).cell;
      const others = decision.others.map((o) => ({
        ...o,
        configuration: label(o.case_id),
        ci_low: o.ci_low ?? NaN,
        ci_high: o.ci_high ?? NaN,
        ...(byFewRounds(o) && { few_rounds: fewRoundsBound(group.judgment, o.case_id, decision.fastest) }),
      }));
      const margin = others[0] ?? null;
      return {
        group_id: group.group_id,
        stop_reason: group.stop?.reason ?? null,
        margin_rule: group.judgment.margin_rule ?? 1,
        rounds_rule: group.stop?.rounds_rule ?? 1,
        object: fastest.object,
        count: fastest.count,
        network: fastest.network,
        cm: fastest.cm,
        protocol: completeCell(fastest).protocol,
        fastest: label(decision.fastest),
        fastest_case_id: decision.fastest,
        fastest_cell: completeCell(fastest),
        median_ms: decision.median_ms,
        recommendation: decision.recommendation === NO_CLEAR_WINNER ? NO_CLEAR_WINNER : label(decision.recommendation),
        no_clear_winner_among: decision.no_clear_winner_among.map(label),
        settled: decision.settled,
        margin: margin && {
          over: margin.configuration,
          ratio: margin.ratio,
          ci_low: margin.ci_low,
          ci_high: margin.ci_high,
        },
        others,
      };
    });
}

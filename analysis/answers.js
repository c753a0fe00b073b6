// What the report says: comparisons along each dimension, RQ1–RQ5 answered in sentences built
// from the data, the source study's conclusions (docs/method.md) marked against our measurements,
// and the fastest configuration for each measured situation. Comparisons and decisions are the ones
// each group stopped on (stored with it: common/judge.js), judged at the run's {delta, looks}.

import { MIN_ROUNDS_FOR_VERDICT, VERDICTS, ciLiesIn, hasInterval, judgingOf, verdictOf } from '#common/comparison.js';
import { CELL_COLUMNS, caseId, completeCell, scenarioOf } from '#common/cell.js';
import { NO_CLEAR_WINNER } from '#common/judge.js';
import { LABELS, compressionLabel, defaultLevel, formatLabel } from '#common/catalogue.js';
import { network, relative } from '#common/answer-words.js';
import { overProtocol } from '#common/protocols.js';

export { NO_CLEAR_WINNER };

/** A cell's format (and decoder, when not the default) as a reader sees it. */
const formatName = (cell) => formatLabel(cell.format, cell.decoder);
/**
 * A cell's compression as a reader sees it: "no compression", "GZIP", "Brotli 11" (a level other than the default), …
 */
const compressionName = (cell) =>
  cell.compression === 'none' ? 'no compression' : compressionLabel(cell.compression, cell.level);
/** A ratio as the report writes it: 1.234 → "1.23×". */
const times = (ratio) => `${ratio.toFixed(2)}×`;
/** How results are judged when no run says otherwise: the default stop rule's δ and looks. */
export const DEFAULT_JUDGING = Object.freeze(judgingOf(undefined));
/** What a comparison rests on: its rounds (a p-value only for runs without rounds). */
const support = (c) =>
  c.p === null || c.p === undefined ? `${c.rounds} rounds` : c.p < 0.001 ? 'p < 0.001' : `p = ${c.p.toFixed(3)}`;
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
        p: null,
        a: completeCell(byId.get(c.a).cell),
        b: completeCell(byId.get(c.b).cell),
        a_id: c.a,
        b_id: c.b,
      })),
  );
}

/**
 * 'b' when b is clearly faster (the CI wholly above 1 + δ), 'a' when a is (wholly below 1 − δ),
 * 'equivalent' when the CI lies wholly within ±δ, and 'tie' when the data cannot say.
 */
function verdict(c, delta) {
  const v = verdictOf(c, delta);
  return v === VERDICTS.B_FASTER
    ? 'b'
    : v === VERDICTS.A_FASTER
      ? 'a'
      : v === VERDICTS.EQUIVALENT
        ? 'equivalent'
        : 'tie';
}

/**
 * A judged comparison in words, one direction: "X is k× slower than Y (95 % CI …)" or "… faster
 * …", then whether that is clear. `ratio`, `low`, `high`: time(x) / time(y) and its CI.
 */
function compared(x, y, ratio, low, high, v, delta) {
  const words = relative(x, y, ratio, low, high);
  if (v === 'equivalent') return `${words}: equivalent, within ±${percent(delta)}`;
  if (v === 'tie') return `${words}: not a clear difference`;
  return Number.isFinite(low) ? words : `${words}, too few rounds to judge`;
}

/** A comparison c (ratio a/b) in words with `x` naming a and `y` naming b. */
const comparedAB = (c, x, y, delta) => compared(x, y, c.ratio, c.ci_low, c.ci_high, verdict(c, delta), delta);
/** The same, read the other way round: `x` names b, `y` names a. */
const comparedBA = (c, x, y, delta) =>
  compared(x, y, 1 / c.ratio, 1 / c.ci_high, 1 / c.ci_low, flip(verdict(c, delta)), delta);
const flip = (v) => (v === 'a' ? 'b' : v === 'b' ? 'a' : v);

/** δ as the report writes it: 0.05 → "5 %". */
export const percent = (delta) => `${Number((delta * 100).toFixed(2))} %`;
const sorted = (values) => [...new Set(values)].sort((a, b) => a - b);
/** "Books at 10 Mbit/s", "Books unthrottled over HTTP/2 with TLS". */
const where = (cell) =>
  `${LABELS.object(cell.object).replace(/ \(.*\)$/, '')} ${network(cell.network)}${overProtocol(cell.protocol)}`;

/**
 * How many times slower `slow` is than `fast`: from the run's comparison of the two when it made
 * one (the medians of the rounds both ran in, with the CI), else from the cells' own medians
 * (which, when one cell was measured in rounds the other was not, drift can bias).
 */
function slowerBy(all, fast, slow) {
  const [fastId, slowId] = [caseId(fast.cell), caseId(slow.cell)];
  const c =
    fastId === slowId
      ? null
      : all.find((k) => [caseId(k.a), caseId(k.b)].sort().join() === [fastId, slowId].sort().join());
  const [x, y] = [formatName(slow.cell), formatName(fast.cell)];
  if (!c) return `${relative(x, y, slow.stats.median / fast.stats.median)} by overall medians`;
  const [ratio, low, high] =
    caseId(c.a) === slowId ? [c.ratio, c.ci_low, c.ci_high] : [1 / c.ratio, 1 / c.ci_high, 1 / c.ci_low];
  return relative(x, y, ratio, low, high);
}

function rq1(cells, all, delta) {
  const lines = [];
  // Formats against each other: the decoder goes with the format (a cell's decoder is its
  // format's default unless the plan names others), so it varies with it.
  for (const group of groupsWithout(
    cells.filter((c) => nothingComputed(c.cell)),
    ['format', 'decoder', 'count'],
  )) {
    const { cell } = group[0];
    const winners = sorted(group.map((c) => c.cell.count)).map((count) => {
      const atCount = group.filter((c) => c.cell.count === count).sort((a, b) => a.stats.median - b.stats.median);
      return { count, fastest: atCount[0], slowest: atCount.at(-1) };
    });
    const parts = winners.map(
      (w) =>
        `N=${w.count}: ${formatName(w.fastest.cell)} (${w.fastest.stats.median.toFixed(1)} ms;` +
        ` ${slowerBy(all, w.fastest, w.slowest)})`,
    );
    const largest = winners.at(-1).count;
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
      `${where(cell)}, ${compressionName(cell)} — fastest: ${parts.join('; ')}.` +
        (jsonOverProtobuf
          ? ` At N=${largest}: ${comparedAB(jsonOverProtobuf, 'JSON', 'Protobuf', delta)}; ` +
            `${support(jsonOverProtobuf)}.`
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
function rq2(cells, all, delta) {
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
      .map(({ c }) => `N=${c.a.count}: ${comparedBA(c, name, 'no compression', delta)}`);
    lines.push(`${where(cell)}, ${formatName(cell)}, ${name} against no compression — ${parts.join('; ')}.`);
  }
  const situations = groupsWithout(
    cells.filter((c) => nothingComputed(c.cell)),
    ['compression', 'level'],
  );
  for (const group of situations.filter(
    (g) => new Set(g.map((c) => `${c.cell.compression}-${c.cell.level}`)).size > 2,
  )) {
    const ranked = [...group].sort((a, b) => a.stats.median - b.stats.median);
    const best = ranked[0];
    const none = group.find((c) => c.cell.compression === 'none');
    const pair =
      none && best !== none && againstNone.find((c) => caseId(c.a) === none.case_id && caseId(c.b) === best.case_id);
    const clear = pair ? verdict(pair, delta) : null;
    lines.push(
      `${where(best.cell)}, ${formatName(best.cell)}, N=${best.cell.count} — fastest: ${compressionName(best.cell)} ` +
        `(${best.stats.median.toFixed(1)} ms)${
          pair
            ? `; ${comparedBA(pair, compressionName(best.cell), 'no compression', delta)}${
                clear === 'b' ? ', clearly' : ''
              }`
            : ''
        }; slowest: ${compressionName(ranked.at(-1).cell)} ` +
        `(${ranked.at(-1).stats.median.toFixed(1)} ms).`,
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
      .map(({ c }) => `N=${c.a.count} CM${c.a.cm}: ${describe(c)}`);
    lines.push(`${where(cell)}, ${formatName(cell)}, ${compressionName(cell)} — ${parts.join('; ')}.`);
  }
  return lines;
}

/**
 * RQ5's thresholds: per network, objects, format and N, where each side wins clearly (the CI
 * of the ratio excludes 1), and the CM from which the side `takesOver` ('a' or 'b') wins and the
 * other never wins again at a higher measured CM. CMs whose comparison had too few rounds for a
 * CI (CM5 on 10,000 Books: one round) are named as not judged.
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
        .map(({ c }) => ({ cm: c.a.cm, verdict: verdict(c, delta), judged: hasInterval(c) }));
      const unjudged = byCm.filter((v) => !v.judged).map((v) => v.cm);
      const note = unjudged.length
        ? `; ${list(unjudged)} not judged (fewer than the ${MIN_ROUNDS_FOR_VERDICT} rounds a verdict needs)`
        : '';
      const bWins = byCm.filter((v) => v.verdict === 'b').map((v) => v.cm);
      const aWins = byCm.filter((v) => v.verdict === 'a').map((v) => v.cm);
      const other = takesOver === 'a' ? 'b' : 'a';
      const from = byCm.findIndex((v, i) => v.verdict === takesOver && byCm.slice(i).every((w) => w.verdict !== other));
      const measured =
        byCm.length === 1 ? `only CM${byCm[0].cm} was measured` : `CM${byCm[0].cm}–CM${byCm.at(-1).cm} were measured`;
      const threshold =
        from >= 0
          ? `threshold: ${takesOver === 'a' ? aName : bName} from CM${byCm[from].cm}`
          : `no threshold (${measured})`;
      const wins = [
        bWins.length ? `${bName} faster at ${list(bWins)}` : null,
        aWins.length ? `${aName} faster at ${list(aWins)}` : null,
      ].filter(Boolean);
      const head = `${where(cell)}, ${formatName(cell)}, N=${count}, ${what}`;
      lines.push(
        wins.length
          ? `${head}: ${wins.join(', ')} — ${threshold}${note}.`
          : `${head}: neither side clearly faster where ${measured}, so no threshold${note}.`,
      );
    }
  }
  return lines;
}

/** RQ1–RQ5 in sentences, each with its numbers; verdicts at the run's δ (`judging`). */
export function answerQuestions(cells, all, { delta } = DEFAULT_JUDGING) {
  return {
    RQ1: { question: 'How does the interchange format affect the response time?', answers: rq1(cells, all, delta) },
    RQ2: {
      question: 'How does compression (GZIP, and the others measured, at their levels) affect it?',
      answers: rq2(cells, all, delta),
    },
    RQ3: {
      question: 'Where is computation faster, client or server?',
      // Always "sorting in the browser is k× slower/faster than on the server": ratio client/server.
      answers: sideLines(all, 'side', (c) => comparedAB(c, 'the browser sorting', 'the server sorting', delta)),
    },
    RQ4: {
      question: 'With client-side caching, how does an already cached dataset change the total time?',
      // Always "a second request is k× slower/faster than sorting the cached copy": ratio second/cached.
      answers: sideLines(all, 'caching', (c) => comparedAB(c, 'a second request', 'sorting the cached copy', delta)),
    },
    RQ5: {
      question: 'What amount of computation favours the client, and what the server?',
      answers: [
        ...thresholds(
          all,
          'caching',
          'the cached client',
          'the second server request',
          'a',
          delta,
          'data already cached (sorting the cached copy against a second request)',
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
 * How a claim's comparisons are counted: each one holds when its 95 % CI lies wholly among the
 * ratios the claim allows (the verdicts a part lists under `holds`: "b faster" is a CI above
 * 1 + δ; "a faster or equivalent" a CI at or below 1 + δ — a not slower by more than δ — even
 * where it straddles 1 − δ), is contradicted when its CI lies wholly among the ratios the claim
 * excludes, and is open otherwise (equivalent where the claim needs a difference, or a CI across
 * the line between allowed and excluded). The claim is then
 *   not measured — no comparison covers it;
 *   confirmed    — it holds in at least half of them and is contradicted in none;
 *   refuted      — it is contradicted in more of them than it holds in;
 *   partly       — anything else (it holds in some, is contradicted in others, or mostly open).
 */
export const conclusionRule = (delta) =>
  `Each comparison a claim covers holds when its 95 % CI lies wholly among the ratios the claim allows, ` +
  `is contradicted when it lies wholly among those it excludes, ` +
  `and stays open otherwise (δ = ${percent(delta)}, the run's: ` +
  '"X faster" allows only a CI above 1 + δ, so an equivalent CI stays open; ' +
  '"X as fast or faster" allows any CI at or ' +
  'below 1 + δ, X not slower by more than δ). Not measured: no comparison; ' +
  'confirmed: holds in at least half and contradicted in none; refuted: contradicted in more than it holds in; ' +
  'partly: anything else.';

/** The verdict of a claim from its counts (see conclusionRule). */
export function judgeClaim({ holds, contradicted, open }) {
  const n = holds + contradicted + open;
  if (n === 0) return 'not measured';
  if (contradicted === 0 && holds >= n / 2) return 'confirmed';
  if (contradicted > holds) return 'refuted';
  return 'partly';
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
          what: 'JSON and Protobuf against XML everywhere: XML slower',
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
      theirs: 'no compression slower than GZIP at 10 Mbit/s, faster unthrottled',
      parts: [
        {
          what: 'no compression against GZIP at 10 Mbit/s, N ≥ 100: GZIP faster',
          x: 'no compression',
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
          what: 'no compression against GZIP unthrottled: GZIP slower',
          x: 'no compression',
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
      theirs: 'the browser sorting as fast as the server or slower everywhere; clearly slower from CM4',
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
          what: 'a second request against the cached copy, N ≤ 100, CM ≤ 3: the cached client faster',
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
  /** The range of a part's ratios (time of x ÷ time of y) in words, one direction. */
  const range = ({ x, y, comparisons: list }) => {
    if (!list.length) return `${x} against ${y}: not measured`;
    const [low, high] = [Math.min(...list.map((c) => c.ratio)), Math.max(...list.map((c) => c.ratio))];
    if (low >= 1) return `${x} ${times(low)}–${times(high)} slower than ${y}`;
    if (high <= 1) return `${x} ${times(1 / high)}–${times(1 / low)} faster than ${y}`;
    return `${x} from ${times(1 / low)} faster to ${times(high)} slower than ${y}`;
  };
  return claims.map(({ claim, theirs, parts }) => {
    const counted = parts.map((part) => {
      const verdicts = part.comparisons.map((c) => verdictOf(c, delta));
      const counted = part.comparisons.map((c) =>
        ciLiesIn(c, part.holds, delta) ? 'holds' : ciLiesIn(c, part.contradicts, delta) ? 'contradicted' : 'open',
      );
      const holds = counted.filter((k) => k === 'holds').length;
      const contradicted = counted.filter((k) => k === 'contradicted').length;
      return {
        what: part.what,
        n: verdicts.length,
        holds,
        contradicted,
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
    return {
      claim,
      theirs,
      ours: counted.map((p) => `${p.ratios}`).join('; '),
      parts: counted,
      ...counts,
      n: counts.holds + counts.contradicted + counts.open,
      verdict: judgeClaim(counts),
    };
  });
}

/** A configuration as the decision table names it: "Protobuf, GZIP", "JSON, no compression, client computes". */
export function configurationLabel(cell) {
  const computes = scenarioOf(cell).computes;
  return `${formatName(cell)}, ${compressionName(cell)}` + (computes === 'none' ? '' : `, ${computes} computes`);
}

/**
 * For each measured situation (objects, N, network, CM), the decision its group stopped on
 * (common/judge.js, stored with the group): the configurations from fastest to slowest, each
 * with its margin over the fastest, and the recommendation — the fastest when every other is
 * clearly slower and settled, else "no clear winner" among those not clearly slower. `settled`
 * says whether every margin settled; a margin left unsettled when the group's budget ran out has
 * a CI that spans a δ boundary or only just left it, where another run may decide the other way.
 * In words for a reader: configurations are labels (configurationLabel); the group's id and why
 * it stopped come along.
 *
 * @param cells the runs' cells (read-runs.js)
 * @param groups the runs' groups with their judgments (read-runs.js)
 */
export function decisions(cells, groups) {
  const byId = new Map(cells.map((c) => [c.case_id, c]));
  const label = (id) => configurationLabel(completeCell(byId.get(id).cell));
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
      }));
      const margin = others[0] ?? null;
      return {
        group_id: group.group_id,
        stop_reason: group.stop?.reason ?? null,
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

// What the report says: comparisons along each dimension, RQ1–RQ5 answered in sentences built
// from the data, the source study's conclusions (SPEC §8) marked against our measurements, and
// the fastest configuration for each measured situation. Everything is judged as the run's plan
// judged it while running ({delta, looks}: comparison.js judgingOf); the defaults otherwise.

import { compareCells } from '#common/compare.js';
import {
  MIN_ROUNDS_FOR_VERDICT,
  VERDICTS,
  ciLiesIn,
  groupComparisons,
  hasInterval,
  isResolved,
  judgingOf,
  steadyLooksOf,
  verdictOf,
} from '#common/comparison.js';
import { caseId } from '#common/schema.js';
import { LABELS, compressionLabel, defaultLevel, formatLabel } from '#common/catalogue.js';

/** A cell's format (and decoder, when not the default) as a reader sees it. */
const formatName = (cell) => formatLabel(cell.format, cell.decoder);
/** A cell's compression as a reader sees it: "no compression", "GZIP", "Brotli 11" (a level other than the default), … */
const compressionName = (cell) =>
  cell.compression === 'none' ? 'no compression' : compressionLabel(cell.compression, cell.level);
const DIMENSIONS = ['object', 'format', 'decoder', 'compression', 'level', 'count', 'scenario', 'cm', 'network'];
const x = (ratio) => `${ratio.toFixed(2)}×`;
const ci = (c) =>
  Number.isFinite(c.ci_low) && Number.isFinite(c.ci_high)
    ? `95% CI ${c.ci_low.toFixed(2)}–${c.ci_high.toFixed(2)}`
    : `no CI from ${c.rounds} round${c.rounds === 1 ? '' : 's'}`;
/** How results are judged when no run says otherwise: the default stop rule's δ and looks. */
export const DEFAULT_JUDGING = Object.freeze(judgingOf(undefined));
const p = (c) =>
  c.p === null || c.p === undefined ? `${c.rounds} rounds` : c.p < 0.001 ? 'p < 0.001' : `p = ${c.p.toFixed(3)}`;

/** Cells grouped by every dimension but `varying`. */
function groupsWithout(cells, varying) {
  const groups = new Map();
  for (const cell of cells) {
    const key = DIMENSIONS.filter((d) => !varying.includes(d))
      .map((d) => cell.cell[d])
      .join('/');
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(cell);
  }
  return [...groups.values()];
}

/**
 * Every comparison: ratio = median(a) / median(b), so a ratio above 1 means b is faster. The pairs
 * are those the study's comparison groups judge (common/comparison.js): format (every pair, in
 * catalogue order, with default decoders), decoder (each against its format's default),
 * compression, side (client, scenario 3, vs server, scenario 2) and caching (second request,
 * 4, vs cached client, 5).
 */
export function comparisons(cells) {
  const byId = new Map(cells.map((c) => [c.case_id, c]));
  return groupComparisons(cells.map((c) => c.cell)).map(({ dimension, a, b }) => {
    const [ca, cb] = [byId.get(caseId(a)), byId.get(caseId(b))];
    return { ...compareCells(ca, cb), dimension, a, b, a_id: ca.case_id, b_id: cb.case_id };
  });
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

/** The words for a comparison that names no winner. */
const neither = (v, delta) => (v === 'equivalent' ? `equivalent (within ±${percent(delta)})` : 'no clear difference');

/** δ as the report writes it: 0.05 → "5 %". */
export const percent = (delta) => `${Number((delta * 100).toFixed(2))} %`;
const sorted = (values) => [...new Set(values)].sort((a, b) => a - b);
const where = (cell) => `${LABELS.object(cell.object).replace(/ \(.*\)$/, '')}, ${cell.network}`;

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
  if (!c) return `${x(slow.stats.median / fast.stats.median)} slower`;
  const [ratio, low, high] =
    caseId(c.a) === slowId ? [c.ratio, c.ci_low, c.ci_high] : [1 / c.ratio, 1 / c.ci_high, 1 / c.ci_low];
  return `${x(ratio)} slower${hasInterval(c) ? `, 95% CI ${low.toFixed(2)}–${high.toFixed(2)}` : ''}`;
}

function rq1(cells, all) {
  const lines = [];
  // Formats against each other: the decoder goes with the format (a cell's decoder is its
  // format's default unless the plan names others), so it varies with it.
  for (const group of groupsWithout(
    cells.filter((c) => c.cell.scenario === 1),
    ['format', 'decoder', 'count'],
  )) {
    const { cell } = group[0];
    const winners = sorted(group.map((c) => c.cell.count)).map((count) => {
      const atCount = group.filter((c) => c.cell.count === count).sort((a, b) => a.stats.median - b.stats.median);
      return { count, fastest: atCount[0], slowest: atCount.at(-1) };
    });
    const parts = winners.map(
      (w) =>
        `N=${w.count}: ${formatName(w.fastest.cell)} (${w.fastest.stats.median.toFixed(1)} ms` +
        `, ${formatName(w.slowest.cell)} ${slowerBy(all, w.fastest, w.slowest)})`,
    );
    const largest = winners.at(-1).count;
    const jp = all.find(
      (c) =>
        c.dimension === 'format' &&
        c.a.format === 'json' &&
        c.b.format === 'protobuf' &&
        c.a.count === largest &&
        c.a.scenario === 1 &&
        where(c.a) === where(cell) &&
        c.a.compression === cell.compression,
    );
    lines.push(
      `${where(cell)}, ${compressionName(cell)} — fastest: ${parts.join('; ')}.` +
        (jp ? ` JSON/Protobuf at N=${largest}: ${x(jp.ratio)} (${ci(jp)}, ${p(jp)}).` : ''),
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
    (c) => c.dimension === 'compression' && c.a.scenario === 1 && c.a.compression === 'none',
  );
  for (const group of groupsWithout(
    againstNone.map((c) => ({ cell: c.b, c })),
    ['count'],
  )) {
    const { cell } = group[0];
    const name = compressionName(cell);
    const parts = group
      .sort((a, b) => a.cell.count - b.cell.count)
      .map(({ c }) => {
        const v = verdict(c, delta);
        // The CI of the ratio as the sentence reads it: none/compressed when faster, compressed/none when slower.
        const shown = v === 'a' ? `95% CI ${(1 / c.ci_high).toFixed(2)}–${(1 / c.ci_low).toFixed(2)}` : ci(c);
        return `N=${c.a.count}: ${v === 'b' ? `${x(c.ratio)} faster` : v === 'a' ? `${x(1 / c.ratio)} slower` : neither(v, delta)} (${shown})`;
      });
    lines.push(`${where(cell)}, ${formatName(cell)}, ${name} against no compression — ${parts.join('; ')}.`);
  }
  const situations = groupsWithout(
    cells.filter((c) => c.cell.scenario === 1),
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
            ? `, ${
                clear === 'b'
                  ? `clearly faster than no compression (${x(pair.ratio)}, ${ci(pair)})`
                  : `not clearly faster than no compression (${x(pair.ratio)}, ${ci(pair)})`
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
    RQ1: { question: 'How does the interchange format affect the response time?', answers: rq1(cells, all) },
    RQ2: {
      question: 'How does compression (GZIP, and the others measured, at their levels) affect it?',
      answers: rq2(cells, all, delta),
    },
    RQ3: {
      question: 'Where is computation faster, client or server?',
      answers: sideLines(all, 'side', (c) => {
        const v = verdict(c, delta);
        return v === 'b'
          ? `server ${x(c.ratio)} faster`
          : v === 'a'
            ? `client ${x(1 / c.ratio)} faster`
            : neither(v, delta);
      }),
    },
    RQ4: {
      question: 'With client-side caching, how does an already cached dataset change the total time?',
      answers: sideLines(all, 'caching', (c) => {
        const v = verdict(c, delta);
        return v === 'b'
          ? `cached client ${x(c.ratio)} faster than a second request`
          : v === 'a'
            ? `second request ${x(1 / c.ratio)} faster than the cached client`
            : neither(v, delta);
      }),
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
  `is contradicted when it lies wholly among those it excludes, and stays open otherwise (δ = ${percent(delta)}, the run's: ` +
  '"X faster" allows only a CI above 1 + δ, so an equivalent CI stays open; "X as fast or faster" allows any CI at or ' +
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
 * SPEC §8's conclusions as data records: which comparisons each covers (`parts`, each a filter
 * and what each verdict means for the claim), and the counts and verdict that follow. Ratios are
 * a/b as in comparisons().
 */
export function sourceConclusions(cells, all, { delta } = DEFAULT_JUDGING) {
  const V = VERDICTS;
  const pick = (dimension, filter) => all.filter((c) => c.dimension === dimension && filter(c));
  const formats = (a, b, filter) =>
    pick('format', (c) => c.a.format === a && c.b.format === b && c.a.scenario === 1 && filter(c.a));
  /** The source's GZIP: at the default level (its server's, zlib's 6). */
  const gzip = (cell) => cell.compression === 'gzip' && (cell.level ?? defaultLevel('gzip')) === defaultLevel('gzip');
  /** {holds: [verdicts], contradicts: [verdicts]}: anything else is open. */
  const claims = [
    {
      claim:
        'Bandwidth-limited, no GZIP: Protobuf has the lowest response time (Book ~1.2× faster than JSON; Video 1.2× at 10 up to ~1.8× at 10000 objects).',
      theirs: 'JSON/Protobuf 1.2× (Book); 1.2–1.8× (Video)',
      parts: [
        {
          what: 'JSON/Protobuf at 10 Mbit/s, no GZIP: Protobuf faster',
          comparisons: formats('json', 'protobuf', (c) => c.network === '10mbit' && c.compression === 'none'),
          holds: [V.B_FASTER],
          contradicts: [V.A_FASTER],
        },
        {
          what: 'Protobuf/XML at 10 Mbit/s, no GZIP: Protobuf faster',
          comparisons: formats('protobuf', 'xml', (c) => c.network === '10mbit' && c.compression === 'none'),
          holds: [V.A_FASTER],
          contradicts: [V.B_FASTER],
        },
      ],
    },
    {
      claim: 'With GZIP the size advantage vanishes and JSON is as fast or faster than Protobuf.',
      theirs: 'JSON/Protobuf ≤ 1',
      parts: [
        {
          what: 'JSON/Protobuf at 10 Mbit/s with GZIP: JSON faster or equivalent',
          comparisons: formats('json', 'protobuf', (c) => c.network === '10mbit' && gzip(c)),
          holds: [V.A_FASTER, V.EQUIVALENT],
          contradicts: [V.B_FASTER],
        },
      ],
    },
    {
      claim:
        'Unthrottled: JSON beats Protobuf (Book, no GZIP: up to ~3.2× at 10000 objects) and both beat XML; XML is slowest everywhere.',
      theirs: 'Protobuf/JSON up to 3.2×; XML slowest',
      parts: [
        {
          what: 'JSON/Protobuf unthrottled, Books, no GZIP: JSON faster',
          comparisons: formats(
            'json',
            'protobuf',
            (c) => c.network === 'unthrottled' && c.compression === 'none' && c.object === 'books',
          ),
          holds: [V.A_FASTER],
          contradicts: [V.B_FASTER],
        },
        {
          what: 'JSON/XML and Protobuf/XML everywhere: XML slower',
          comparisons: [...formats('json', 'xml', () => true), ...formats('protobuf', 'xml', () => true)],
          holds: [V.A_FASTER],
          contradicts: [V.B_FASTER],
        },
      ],
    },
    {
      claim: 'GZIP helps when bandwidth is the bottleneck and costs time when it is not.',
      theirs: 'none/GZIP > 1 at 10 Mbit/s, < 1 unthrottled',
      parts: [
        {
          what: 'none/GZIP at 10 Mbit/s, N ≥ 100: GZIP faster',
          comparisons: pick(
            'compression',
            (c) =>
              c.a.scenario === 1 &&
              c.a.compression === 'none' &&
              gzip(c.b) &&
              c.a.network === '10mbit' &&
              c.a.count >= 100,
          ),
          holds: [V.B_FASTER],
          contradicts: [V.A_FASTER],
        },
        {
          what: 'none/GZIP unthrottled: GZIP slower',
          comparisons: pick(
            'compression',
            (c) => c.a.scenario === 1 && c.a.compression === 'none' && gzip(c.b) && c.a.network === 'unthrottled',
          ),
          holds: [V.A_FASTER],
          contradicts: [V.B_FASTER],
        },
      ],
    },
    {
      claim:
        'Server computation is never slower; CM1–CM3 differ little; from CM4 the server wins clearly, more so with more objects.',
      theirs: 'client/server ≥ 1 everywhere; > 1 from CM4',
      parts: [
        {
          what: 'client/server at CM1–CM3: the server not slower',
          comparisons: pick('side', (c) => c.a.cm <= 3),
          holds: [V.B_FASTER, V.EQUIVALENT],
          contradicts: [V.A_FASTER],
        },
        {
          what: 'client/server from CM4: the server faster',
          comparisons: pick('side', (c) => c.a.cm >= 4),
          holds: [V.B_FASTER],
          contradicts: [V.A_FASTER],
        },
      ],
    },
    {
      claim:
        'Caching: for few objects and CM3 or less the cached client is about twice as fast as a second server request; at CM5 the second request wins.',
      theirs: 'second/cached ≈ 2 (N ≤ 100, ≤ CM3); < 1 at CM5',
      parts: [
        {
          what: 'second/cached, N ≤ 100, CM ≤ 3: the cached client faster',
          comparisons: pick('caching', (c) => c.a.count <= 100 && c.a.cm <= 3),
          holds: [V.B_FASTER],
          contradicts: [V.A_FASTER],
        },
        {
          what: 'second/cached at CM5: the second request faster',
          comparisons: pick('caching', (c) => c.a.cm === 5),
          holds: [V.A_FASTER],
          contradicts: [V.B_FASTER],
        },
      ],
    },
  ];
  const range = (list) =>
    list.length ? `${x(Math.min(...list.map((c) => c.ratio)))}–${x(Math.max(...list.map((c) => c.ratio)))}` : '—';
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
        ratios: range(part.comparisons),
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

/** The decision table's recommendation where no configuration is clearly the fastest. */
export const NO_CLEAR_WINNER = 'no clear winner';

/**
 * How many of a margin's last looks in a row (up to `looks`) had its verdict now, replayed from
 * the samples as the runner judged them; `looks` when the samples have no rounds (independent
 * draws: no looks to replay).
 */
function heldLooks(slower, fastest, verdict, delta, looks) {
  const [a, b] = [slower, fastest].map((c) => c.samples.map((s) => ({ round: s.round, value: s.total_ms })));
  if (![...a, ...b].every((s) => Number.isInteger(s.round))) return looks;
  return steadyLooksOf(a, b, { verdict, delta, looks });
}

/**
 * For each measured situation (object, N, network, CM), the configurations from fastest to
 * slowest, and the recommendation: the fastest, when its margin over every other is clear (the
 * other's ratio to it lies wholly above 1 + δ, and did so at the run's `looks` looks in a row,
 * as its group's stop rule asks of a settled verdict), else "no clear winner" between those
 * that are not clearly slower. `settled` says whether every margin was settled (clearly slower,
 * or equivalent within ±δ, at `looks` looks in a row); a margin left unsettled when its group's
 * budget ran out has a CI that spans a δ boundary or only just left it (a difference close to
 * δ, or too few or too noisy rounds for a narrow CI), where another run may well decide the
 * other way.
 */
export function decisions(cells, { delta, looks } = DEFAULT_JUDGING) {
  const situations = new Map();
  for (const c of cells.filter((cell) => cell.cell.scenario <= 3)) {
    const key = `${c.cell.object}/${c.cell.count}/${c.cell.network}/cm${c.cell.cm}`;
    if (!situations.has(key)) situations.set(key, []);
    situations.get(key).push(c);
  }
  const label = (c) =>
    `${formatName(c.cell)}, ${compressionName(c.cell)}` +
    (c.cell.cm > 0 ? `, ${c.cell.scenario === 2 ? 'server' : 'client'} computes` : '');
  return [...situations.entries()].map(([key, options]) => {
    const ranked = options.sort((a, b) => a.stats.median - b.stats.median);
    const [object, count, network, cm] = key.split('/');
    const others = ranked.slice(1).map((c) => {
      const margin = compareCells(c, ranked[0]);
      const verdict = verdictOf(margin, delta);
      const steady = isResolved(verdict) ? heldLooks(c, ranked[0], verdict, delta, looks) : 0;
      const settled = isResolved(verdict) && steady >= looks;
      return {
        configuration: label(c),
        times_slower: c.stats.median / ranked[0].stats.median,
        ratio: margin.ratio,
        ci_low: margin.ci_low,
        ci_high: margin.ci_high,
        rounds: margin.rounds,
        verdict,
        steady_looks: steady,
        settled,
        clearly_slower: verdict === VERDICTS.B_FASTER && settled,
      };
    });
    const tied = others.filter((o) => !o.clearly_slower).map((o) => o.configuration);
    const margin = others[0] ?? null;
    return {
      object,
      count: Number(count),
      network,
      cm: Number(cm.slice(2)),
      fastest: label(ranked[0]),
      median_ms: ranked[0].stats.median,
      recommendation: ranked.length === 1 ? label(ranked[0]) : tied.length ? NO_CLEAR_WINNER : label(ranked[0]),
      no_clear_winner_among: tied.length ? [label(ranked[0]), ...tied] : [],
      settled: others.every((o) => o.settled),
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

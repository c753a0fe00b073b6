// What the report says: comparisons along each dimension, RQ1–RQ5 answered in sentences built
// from the data, the source study's conclusions (SPEC §8) marked against our measurements, and
// the fastest configuration for each measured situation.

import { compareCells } from './compare.js';
import { DEFAULT_DELTA, VERDICTS, verdictOf } from '../client/comparison.js';

const FORMAT_NAMES = { json: 'JSON', xml: 'XML', protobuf: 'Protobuf' };
const DIMENSIONS = ['object', 'format', 'compression', 'count', 'scenario', 'cm', 'network'];
const x = (ratio) => `${ratio.toFixed(2)}×`;
const ci = (c) => `95% CI ${c.ci_low.toFixed(2)}–${c.ci_high.toFixed(2)}`;
const p = (c) => (c.p === null || c.p === undefined ? `${c.rounds} rounds` : c.p < 0.001 ? 'p < 0.001' : `p = ${c.p.toFixed(3)}`);

/** Cells grouped by every dimension but `varying`. */
function groupsWithout(cells, varying) {
  const groups = new Map();
  for (const cell of cells) {
    const key = DIMENSIONS.filter((d) => !varying.includes(d)).map((d) => cell.cell[d]).join('/');
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(cell);
  }
  return [...groups.values()];
}

function pairs(cells, dimension, orderedValues, filter = () => true) {
  const out = [];
  for (const group of groupsWithout(cells.filter(filter), [dimension])) {
    const byValue = new Map(group.map((c) => [c.cell[dimension], c]));
    for (let i = 0; i < orderedValues.length; i++) {
      for (let j = i + 1; j < orderedValues.length; j++) {
        const a = byValue.get(orderedValues[i]);
        const b = byValue.get(orderedValues[j]);
        if (a && b) out.push({ ...compareCells(a, b), dimension, a: a.cell, b: b.cell, a_id: a.case_id, b_id: b.case_id });
      }
    }
  }
  return out;
}

/**
 * Every comparison: ratio = median(a) / median(b), so a ratio above 1 means b is faster.
 * format: json vs protobuf, json vs xml, protobuf vs xml; compression: none vs gzip;
 * side: client (scenario 3) vs server (scenario 2); caching: second request (4) vs cached (5).
 */
export function comparisons(cells) {
  return [
    ...pairs(cells, 'format', ['json', 'protobuf', 'xml']),
    ...pairs(cells, 'compression', ['none', 'gzip']),
    ...pairs(cells, 'scenario', [3, 2], (c) => c.cell.scenario === 2 || c.cell.scenario === 3)
      .map((c) => ({ ...c, dimension: 'side' })),
    ...pairs(cells, 'scenario', [4, 5], (c) => c.cell.scenario === 4 || c.cell.scenario === 5)
      .map((c) => ({ ...c, dimension: 'caching' })),
  ];
}

/**
 * 'b' when b is clearly faster (the CI wholly above 1 + δ), 'a' when a is (wholly below 1 − δ),
 * 'equivalent' when the CI lies wholly within ±δ, and 'tie' when the data cannot say.
 */
function verdict(c) {
  const v = verdictOf(c, DEFAULT_DELTA);
  return v === VERDICTS.B_FASTER ? 'b' : v === VERDICTS.A_FASTER ? 'a' : v === VERDICTS.EQUIVALENT ? 'equivalent' : 'tie';
}

/** The words for a comparison that names no winner. */
const neither = (v) => (v === 'equivalent' ? `equivalent (within ±${DEFAULT_DELTA * 100} %)` : 'no clear difference');

const sorted = (values) => [...new Set(values)].sort((a, b) => a - b);
const where = (cell) => `${cell.object === 'books' ? 'Books' : 'Videos'}, ${cell.network}`;

function rq1(cells, all) {
  const lines = [];
  for (const group of groupsWithout(cells.filter((c) => c.cell.scenario === 1), ['format', 'count'])) {
    const { cell } = group[0];
    const winners = sorted(group.map((c) => c.cell.count)).map((count) => {
      const atCount = group.filter((c) => c.cell.count === count).sort((a, b) => a.stats.median - b.stats.median);
      return { count, fastest: atCount[0], slowest: atCount.at(-1) };
    });
    const parts = winners.map((w) => `N=${w.count}: ${FORMAT_NAMES[w.fastest.cell.format]} (${w.fastest.stats.median.toFixed(1)} ms`
      + `, ${FORMAT_NAMES[w.slowest.cell.format]} ${x(w.slowest.stats.median / w.fastest.stats.median)} slower)`);
    const largest = winners.at(-1).count;
    const jp = all.find((c) => c.dimension === 'format' && c.a.format === 'json' && c.b.format === 'protobuf'
      && c.a.count === largest && c.a.scenario === 1 && where(c.a) === where(cell) && c.a.compression === cell.compression);
    lines.push(`${where(cell)}, ${cell.compression === 'gzip' ? 'GZIP' : 'no GZIP'} — fastest: ${parts.join('; ')}.`
      + (jp ? ` JSON/Protobuf at N=${largest}: ${x(jp.ratio)} (${ci(jp)}, ${p(jp)}).` : ''));
  }
  return lines;
}

function rq2(all) {
  const lines = [];
  const gz = all.filter((c) => c.dimension === 'compression' && c.a.scenario === 1);
  for (const group of groupsWithout(gz.map((c) => ({ cell: c.a, c })), ['count'])) {
    const { cell } = group[0];
    const parts = group.sort((a, b) => a.cell.count - b.cell.count).map(({ c }) => {
      const v = verdict(c);
      return `N=${c.a.count}: ${v === 'b' ? `GZIP ${x(c.ratio)} faster` : v === 'a' ? `GZIP ${x(1 / c.ratio)} slower` : neither(v)}`;
    });
    lines.push(`${where(cell)}, ${FORMAT_NAMES[cell.format]}: ${parts.join('; ')}.`);
  }
  return lines;
}

function sideLines(all, dimension, describe) {
  const lines = [];
  const chosen = all.filter((c) => c.dimension === dimension);
  for (const group of groupsWithout(chosen.map((c) => ({ cell: c.a, c })), ['cm', 'count'])) {
    const { cell } = group[0];
    const parts = group.sort((a, b) => a.cell.count - b.cell.count || a.cell.cm - b.cell.cm)
      .map(({ c }) => `N=${c.a.count} CM${c.a.cm}: ${describe(c)}`);
    lines.push(`${where(cell)}, ${FORMAT_NAMES[cell.format]}, ${cell.compression === 'gzip' ? 'GZIP' : 'no GZIP'} — ${parts.join('; ')}.`);
  }
  return lines;
}

/**
 * RQ5's thresholds: per network, objects, format and N, where each side wins clearly (the CI
 * of the ratio excludes 1), and the CM from which the side `takesOver` ('a' or 'b') wins and the
 * other never wins again at a higher measured CM.
 */
function thresholds(all, dimension, bName, aName, takesOver) {
  const lines = [];
  const chosen = all.filter((c) => c.dimension === dimension);
  const list = (cms) => (cms.length ? cms.map((cm) => `CM${cm}`).join(', ') : 'no CM');
  for (const group of groupsWithout(chosen.map((c) => ({ cell: c.a, c })), ['cm', 'count'])) {
    const { cell } = group[0];
    for (const count of sorted(group.map((g) => g.cell.count))) {
      const byCm = group.filter((g) => g.cell.count === count).sort((a, b) => a.cell.cm - b.cell.cm)
        .map(({ c }) => ({ cm: c.a.cm, verdict: verdict(c) }));
      const bWins = byCm.filter((v) => v.verdict === 'b').map((v) => v.cm);
      const aWins = byCm.filter((v) => v.verdict === 'a').map((v) => v.cm);
      const other = takesOver === 'a' ? 'b' : 'a';
      const from = byCm.findIndex((v, i) => v.verdict === takesOver && byCm.slice(i).every((w) => w.verdict !== other));
      const measured = byCm.length === 1 ? `only CM${byCm[0].cm} was measured` : `CM${byCm[0].cm}–CM${byCm.at(-1).cm} were measured`;
      const threshold = from >= 0 ? `threshold: ${takesOver === 'a' ? aName : bName} from CM${byCm[from].cm}`
        : `no threshold (${measured})`;
      const wins = [bWins.length ? `${bName} faster at ${list(bWins)}` : null,
        aWins.length ? `${aName} faster at ${list(aWins)}` : null].filter(Boolean);
      lines.push(wins.length ? `${where(cell)}, ${FORMAT_NAMES[cell.format]}, N=${count}: ${wins.join(', ')} — ${threshold}.`
        : `${where(cell)}, ${FORMAT_NAMES[cell.format]}, N=${count}: neither side clearly faster where ${measured}, so no threshold.`);
    }
  }
  return lines;
}

/** RQ1–RQ5 in sentences, each with its numbers. */
export function answerQuestions(cells, all) {
  return {
    RQ1: { question: 'How does the interchange format affect the response time?', answers: rq1(cells, all) },
    RQ2: { question: 'How does GZIP affect it?', answers: rq2(all) },
    RQ3: { question: 'Where is computation faster, client or server?', answers: sideLines(all, 'side', (c) => {
      const v = verdict(c);
      return v === 'b' ? `server ${x(c.ratio)} faster` : v === 'a' ? `client ${x(1 / c.ratio)} faster` : neither(v);
    }) },
    RQ4: { question: 'With client-side caching, how does an already cached dataset change the total time?',
      answers: sideLines(all, 'caching', (c) => {
        const v = verdict(c);
        return v === 'b' ? `cached client ${x(c.ratio)} faster than a second request` : v === 'a'
          ? `second request ${x(1 / c.ratio)} faster than the cached client` : neither(v);
      }) },
    RQ5: { question: 'What amount of computation favours the client, and what the server?',
      answers: [...thresholds(all, 'caching', 'the cached client', 'the second server request', 'a'),
        ...thresholds(all, 'side', 'the server', 'the client', 'b')] },
  };
}

/** SPEC §8's conclusions, each confirmed, refuted or not measured, with our numbers beside theirs. */
export function sourceConclusions(cells, all) {
  const fmt = (a, b, filter) => all.filter((c) => c.dimension === 'format' && c.a.format === a && c.b.format === b
    && c.a.scenario === 1 && filter(c.a));
  const range = (list) => (list.length ? `${x(Math.min(...list.map((c) => c.ratio)))}–${x(Math.max(...list.map((c) => c.ratio)))}` : '—');
  const judge = (list, holds) => judgeParts([[list, holds]]);
  /**
   * A claim of several parts: refuted if a measured part fails; confirmed if every part was
   * measured and holds; "confirmed where measured" if the measured parts hold and some were not.
   */
  const judgeParts = (parts) => {
    const measured = parts.filter(([list]) => list.length > 0);
    if (measured.length === 0) return 'not measured';
    if (!measured.every(([list, holds]) => list.every(holds))) return 'refuted';
    return measured.length === parts.length ? 'confirmed' : 'confirmed where measured';
  };
  const rows = [];

  const slowNoGzip = fmt('json', 'protobuf', (c) => c.network === '10mbit' && c.compression === 'none');
  rows.push({ claim: 'Bandwidth-limited, no GZIP: Protobuf has the lowest response time (Book ~1.2× faster than JSON; Video 1.2× at 10 up to ~1.8× at 10000 objects).',
    theirs: 'JSON/Protobuf 1.2× (Book); 1.2–1.8× (Video)', ours: `JSON/Protobuf ${range(slowNoGzip)}`,
    verdict: judge(slowNoGzip, (c) => c.ratio > 1) });

  const slowGzip = fmt('json', 'protobuf', (c) => c.network === '10mbit' && c.compression === 'gzip');
  rows.push({ claim: 'With GZIP the size advantage vanishes and JSON is as fast or faster than Protobuf.',
    theirs: 'JSON/Protobuf ≤ 1', ours: `JSON/Protobuf ${range(slowGzip)}`, verdict: judge(slowGzip, (c) => c.ci_low <= 1) });

  const fastJson = fmt('json', 'protobuf', (c) => c.network === 'unthrottled' && c.compression === 'none' && c.object === 'books');
  const xmlSlowest = [...fmt('json', 'xml', (c) => true), ...fmt('protobuf', 'xml', (c) => true)];
  rows.push({ claim: 'Unthrottled: JSON beats Protobuf (Book, no GZIP: up to ~3.2× at 10000 objects) and both beat XML; XML is slowest everywhere.',
    theirs: 'Protobuf/JSON up to 3.2×; XML slowest', ours: `Protobuf/JSON ${fastJson.length ? range(fastJson.map((c) => ({ ratio: 1 / c.ratio }))) : '—'}; XML/other ${range(xmlSlowest.map((c) => ({ ratio: 1 / c.ratio })))}`,
    verdict: judgeParts([[fastJson, (c) => c.ratio < 1], [xmlSlowest, (c) => c.ratio < 1]]) });

  const gzip = all.filter((c) => c.dimension === 'compression' && c.a.scenario === 1);
  const gzipSlow = gzip.filter((c) => c.a.network === '10mbit');
  const gzipFast = gzip.filter((c) => c.a.network === 'unthrottled');
  rows.push({ claim: 'GZIP helps when bandwidth is the bottleneck and costs time when it is not.',
    theirs: 'none/GZIP > 1 at 10 Mbit/s, < 1 unthrottled', ours: `none/GZIP ${range(gzipSlow)} at 10 Mbit/s, ${range(gzipFast)} unthrottled`,
    verdict: judgeParts([[gzipSlow.filter((c) => c.a.count >= 100), (c) => c.ratio > 1], [gzipFast, (c) => c.ratio < 1.02]]) });

  const side = all.filter((c) => c.dimension === 'side');
  rows.push({ claim: 'Server computation is never slower; CM1–CM3 differ little; from CM4 the server wins clearly, more so with more objects.',
    theirs: 'client/server ≥ 1 everywhere', ours: `client/server ${range(side)}`, verdict: judge(side, (c) => c.ci_high >= 1) });

  const caching = all.filter((c) => c.dimension === 'caching');
  const fewLight = caching.filter((c) => c.a.count <= 100 && c.a.cm <= 3);
  const heavy = caching.filter((c) => c.a.cm === 5);
  rows.push({ claim: 'Caching: for few objects and CM3 or less the cached client is about twice as fast as a second server request; at CM5 the second request wins.',
    theirs: 'second/cached ≈ 2 (N small, ≤ CM3); < 1 at CM5', ours: `second/cached ${range(fewLight)} (N ≤ 100, ≤ CM3); ${range(heavy)} at CM5`,
    verdict: judgeParts([[fewLight, (c) => c.ratio > 1.3], [heavy, (c) => c.ratio < 1]]) });
  return rows;
}

/** For each measured situation (object, N, network, CM), the configurations from fastest to slowest. */
export function decisions(cells) {
  const situations = new Map();
  for (const c of cells.filter((cell) => cell.cell.scenario <= 3)) {
    const key = `${c.cell.object}/${c.cell.count}/${c.cell.network}/cm${c.cell.cm}`;
    if (!situations.has(key)) situations.set(key, []);
    situations.get(key).push(c);
  }
  return [...situations.entries()].map(([key, options]) => {
    const ranked = options.sort((a, b) => a.stats.median - b.stats.median);
    const label = (c) => `${FORMAT_NAMES[c.cell.format]}, ${c.cell.compression === 'gzip' ? 'GZIP' : 'no GZIP'}`
      + (c.cell.cm > 0 ? `, ${c.cell.scenario === 2 ? 'server' : 'client'} computes` : '');
    const [object, count, network, cm] = key.split('/');
    return { object, count: Number(count), network, cm: Number(cm.slice(2)),
      fastest: label(ranked[0]), median_ms: ranked[0].stats.median,
      others: ranked.slice(1).map((c) => ({ configuration: label(c), times_slower: c.stats.median / ranked[0].stats.median })) };
  });
}

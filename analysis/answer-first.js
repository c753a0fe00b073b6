// The report's opening: a bottom line true for this run (the robust choice across its situations,
// where compression pays, where sorting belongs, and what the run did not measure), the words it
// uses, defined before they are used, and then for each measured situation a short answer in plain
// words: the fastest configuration with its time and what the others cost (the words and their
// rules: common/answer-words.js, which the page's "Compare configurations" shares).

import { CATALOGUE, compressionLabel, defaultLevel, formatLabel } from '#common/catalogue.js';
import { completeCell, inFamily, scenarioOf } from '#common/cell.js';
import { DEFAULT_DELTA, VERDICTS } from '#common/comparison.js';
import {
  asGoodNext,
  choiceRow,
  choiceWords,
  mostLostWords,
  reachesFurther,
  onEveryNetwork,
  recordOf,
  robustChoice,
  situationRatios,
  worstBrief,
  worstCell,
} from '#common/bottom-line.js';
import {
  MOST_NAMED,
  WORDS,
  capital,
  computationWords,
  configurationWords,
  countWords,
  listWords,
  network,
  plus,
  ownMedians,
  ratioText,
  cmAmount,
  scopeWords,
  situationAnswer,
  situationParagraph,
  wordsDefined,
} from '#common/answer-words.js';
import { NETWORKS } from '#common/network-profiles.js';
import { verdict } from './answers.js';
import { configurationName, speedText } from './compression.js';
import { PROTOCOL_NAMES, protocolLabel } from '#common/protocols.js';

export { ms } from '#common/answer-words.js';

/** The source study's object counts (docs/method.md): what a run that measured fewer left out. */
export const SOURCE_COUNTS = Object.freeze([10, 100, 1000, 10000, 100000]);

/**
 * What the run did not measure, against the catalogue, the source's N and the lab's protocols and
 * networks: "CBOR and MessagePack; deflate, Brotli and zstd; CM2, CM4 and CM5; …".
 */
export function notMeasured(cells, { caching = true, defined = true } = {}) {
  const all = cells.map((c) => completeCell(c.cell));
  const has = (key, value) => all.some((c) => c[key] === value);
  // "XML (attributes)" → "XML with attributes": a label's bracket in words.
  const formats = CATALOGUE.formats
    .filter((f) => !has('format', f.name))
    .map((f) => formatLabel(f.name).replace(/ \((.*)\)$/, ' with $1'));
  const compressions = CATALOGUE.compressions
    .filter((c) => c.name !== 'none' && !has('compression', c.name))
    .map((c) => compressionLabel(c.name, defaultLevel(c.name)).replace(/ \(.*\)$| \d+$/g, ''));
  // The sorting groups' CMs (server against browser), apart from the caching groups'.
  const sorted = all.filter((c) => inFamily(c, 'side'));
  const cmModels = CATALOGUE.computation_models.filter((m) => m.level > 0 && !sorted.some((c) => c.cm === m.level));
  const cms = cmModels.map((m) => m.name);
  // What each left-out CM sorts, so that no CM is named undefined: "once, 100 times, 1,000 times".
  const sorts = cmModels.map((m) =>
    m.level === 1
      ? 'once by one property'
      : `${m.repetitions === 1 ? 'once' : `${m.repetitions.toLocaleString('en-US')} times`}`,
  );
  const counts = SOURCE_COUNTS.filter((n) => !has('count', n));
  // "HTTP/2 with TLS" → "HTTP/2": what tells them apart.
  const protocols = PROTOCOL_NAMES.filter((p) => !has('protocol', p)).map((p) =>
    p === 'http1.1-tls' ? 'TLS' : protocolLabel(p).replace(/ \(.*\)$| with TLS$/g, ''),
  );
  const networks = Object.entries(NETWORKS)
    .filter(([name]) => !has('network', name))
    .map(([, profile]) => profile.title.replace(/^(DevTools|WebPageTest) /, ''));
  // N measured on some networks only (nothing sorted): "N = 100,000 at 10 Mbit/s".
  const plain = all.filter((c) => inFamily(c, 'formats'));
  const plainCounts = [...new Set(plain.map((c) => c.count))].sort((a, b) => a - b);
  const partly = [...new Set(plain.map((c) => c.network))]
    .map((net) => {
      const missing = plainCounts.filter((n) => !plain.some((c) => c.network === net && c.count === n));
      return missing.length ? `N = ${missing.map((n) => n.toLocaleString('en-US')).join(', ')} ${network(net)}` : null;
    })
    .filter(Boolean);
  // The caching pairs' gaps, where the bottom line says what they measured.
  const cachedGaps = caching ? cmGaps(all.filter((c) => inFamily(c, 'caching'))) : [];
  const list = (items) => items.join(', ');
  return [
    formats.length ? list(formats) : null,
    compressions.length ? list(compressions) : null,
    sortingNotMeasured(
      all,
      sorted,
      !cms.length
        ? null
        : defined
          ? `${list(cms)} (by each property ${sorts.join(', ')})`.replace(
              '(by each property once by one property',
              '(once by one property',
            )
          : list(cms),
    ),
    cachedGaps.length ? `re-sorting cached data for ${list(cachedGaps)}` : null,
    counts.length ? `N = ${list(counts.map((n) => n.toLocaleString('en-US')))}` : null,
    ...partly,
    protocols.length ? list(protocols) : null,
    networks.length ? `networks ${list(networks)}` : null,
  ].filter(Boolean);
}

/**
 * What the sorting groups left out: the CMs none measured (`cms`, in words, or null), and of what
 * the run measured elsewhere, data, networks and N no sorting group had, and a CM measured at
 * fewer N than the others — "where to sort for CM2 (…), Videos, unthrottled, N = 100,000, CM4–CM5
 * at N = 10,000" — or null.
 */
function sortingNotMeasured(all, sorted, cms) {
  // Told apart from the caching pairs wherever the run has them, the caching line shown or not:
  // they sort too, and were measured where the sorting groups were not.
  const what = all.some((c) => inFamily(c, 'caching')) ? 'sorting (nothing cached)' : 'sorting';
  if (!sorted.length) return cms ? `${what} for ${cms}` : null;
  const values = (cells, key) => [...new Set(cells.map((c) => c[key]))];
  const left = (key) => values(all, key).filter((v) => !sorted.some((c) => c[key] === v));
  const objects = CATALOGUE.objects
    .filter((o) => left('object').includes(o.name))
    .map((o) => o.label.replace(/ \(.*\)$/, ''));
  const networks = left('network').map((n) => network(n));
  // "with GZIP": the compressions measured without sorting but not with it, so that no reader
  // takes the sorting answers for the compressed configurations chosen above.
  const compressions = left('compression').map((name) => compressionLabel(name));
  const counts = left('count').sort((a, b) => a - b);
  const nWords = (ns) => `at N = ${listWords(ns.map((n) => n.toLocaleString('en-US')))}`;
  const cmParts = cmGaps(sorted);
  // Each part a phrase of its own, "or" between them, so that "Videos, unthrottled" does not
  // read as two things left out altogether; the CMs, with commas of their own, last.
  const parts = [
    ...objects.map((o) => `of ${o}`),
    ...networks,
    ...(compressions.length ? [`with ${listWords(compressions)}`] : []),
    ...(counts.length ? [nWords(counts)] : []),
    ...cmParts,
    ...(cms ? [`for ${cms}`] : []),
  ];
  return parts.length ? `${what} ${parts.join(', or ')}` : null;
}

/**
 * The N each CM of `cells` lacks that others of them have, CMs next to each other that lack the
 * same N said together: ["CM4–CM5 at N = 10,000"].
 */
function cmGaps(cells) {
  const values = (key) => [...new Set(cells.map((c) => c[key]))];
  const ns = values('count');
  const perCm = [];
  for (const cm of values('cm').sort((a, b) => a - b)) {
    const lacks = ns.filter((n) => !cells.some((c) => c.cm === cm && c.count === n)).sort((a, b) => a - b);
    if (!lacks.length) continue;
    const last = perCm.at(-1);
    if (last && last.cms.at(-1) === cm - 1 && String(last.lacks) === String(lacks)) last.cms.push(cm);
    else perCm.push({ cms: [cm], lacks });
  }
  return perCm.map(
    ({ cms, lacks }) => `${cmNames(cms)} at N = ${listWords(lacks.map((n) => n.toLocaleString('en-US')))}`,
  );
}

/** CMs by name: "CM3", "CM1–CM3" where each one between is there, else "CM1 and CM3". */
function cmNames(cms) {
  const sorted = [...cms].sort((a, b) => a - b);
  const consecutive = sorted.every((cm, i) => i === 0 || cm === sorted[i - 1] + 1);
  if (sorted.length > 1 && consecutive) return `CM${sorted[0]}–CM${sorted.at(-1)}`;
  return listWords(sorted.map((cm) => `CM${cm}`));
}

/**
 * Where compression pays, as measured: per compression and network, how its comparisons against
 * uncompressed came out (nothing sorted, every format and N), in the four words: "GZIP against
 * uncompressed: at 10 Mbit/s it pays where told (certainly faster in 8 of 12, can't tell yet in
 * 4); …".
 *
 * @param comparisons answers.js comparisons on the report's one scale (onOneScale), or []
 */
export function compressionLine(comparisons) {
  const parts = compressionVerdicts(comparisons).map(
    ({ name, perNetwork }) =>
      `${name} against uncompressed: ${perNetwork.map((p) => `${network(p.net)} ${verdictWords(p)}`).join('; ')}`,
  );
  return parts.length ? parts.join('. ') : null;
}

/**
 * compressionLine's verdicts, per compression and network: [{name, perNetwork: [{net, gist, said,
 * n}]}] — the gist ("pays", "costs", "looked to pay", "looked to cost", "no difference",
 * "depends on format and N", or null while nothing is told), the counts in the order said
 * ([count, word]) and how many comparisons.
 */
export function compressionVerdicts(comparisons) {
  const pairs = comparisons.filter(
    (c) => c.dimension === 'compression' && inFamily(c.a, 'formats') && c.a.compression === 'none',
  );
  const byCompression = new Map();
  for (const c of pairs) {
    const name = compressionLabel(c.b.compression, c.b.level);
    if (!byCompression.has(name)) byCompression.set(name, new Map());
    const byNetwork = byCompression.get(name);
    if (!byNetwork.has(c.a.network)) byNetwork.set(c.a.network, []);
    byNetwork.get(c.a.network).push(c);
  }
  const parts = [...byCompression].map(([name, byNetwork]) => {
    const perNetwork = [...byNetwork].map(([net, list]) => {
      // The pair reads uncompressed over compressed: b faster is the compressed one faster.
      const count = (verdict) => list.filter((c) => c.settled && c.verdict === verdict).length;
      const open = list.filter((c) => !c.settled).length;
      // What the counts say to do: it pays where it was certainly faster and nowhere certainly
      // slower, which the words then say ("certainly slower in none"), as they say what is open.
      const [faster, slower] = [count(VERDICTS.B_FASTER), count(VERDICTS.A_FASTER)];
      const lead = slower && !faster ? 'certainly slower' : 'certainly faster';
      const said = [
        [faster, 'certainly faster'],
        [count(VERDICTS.EQUIVALENT), 'as fast'],
        [slower, 'certainly slower'],
        [open, "can't tell yet"],
      ]
        .filter(([n, w]) => n > 0 || (w === 'certainly slower' && faster) || (w === 'certainly faster' && slower))
        // What was counted first ("… in 5 of 12 comparisons"), the verdict that gives the gist
        // before the others, then the none, then the open.
        .sort(
          ([n, w], [m, v]) =>
            (w === "can't tell yet") - (v === "can't tell yet") || (n === 0) - (m === 0) || (v === lead) - (w === lead),
        );
      // As sure as a source conclusion is judged ("holds so far" from half its comparisons): it
      // pays or costs where at least half were certain and none went the other way; with fewer, it
      // looked to, and the words keep the open count.
      const half = (k) => 2 * k >= list.length;
      const gist =
        faster && !slower
          ? half(faster)
            ? 'pays'
            : 'looked to pay'
          : slower && !faster
            ? half(slower)
              ? 'costs'
              : 'looked to cost'
            : !faster && !slower && count(VERDICTS.EQUIVALENT)
              ? 'no difference'
              : faster && slower
                ? 'depends on format and N'
                : null;
      return { net, gist, said, n: list.length };
    });
    return { name, perNetwork };
  });
  return parts;
}

/**
 * One network's compression verdict in words: "it pays (certainly faster in 8 of 12 comparisons
 * and can't tell yet in 4)"; with `against` ("uncompressed"), as its own sentence says it: "pays
 * (certainly faster than uncompressed in 8 of 12 comparisons, can't tell yet in 4)".
 */
function verdictWords({ gist, said, n }, against = null) {
  if (gist === null) return "can't tell yet";
  const [[count, word], ...rest] = said;
  const than = against ? ` ${word === 'as fast' ? 'as' : 'than'} ${against}` : '';
  const items = [`${word}${than} in ${count} of ${n} comparisons`, ...rest.map(([c, w]) => `${w} in ${c || 'none'}`)];
  // In its own sentence the open count closes the list as one more item, not with "and".
  const list = against && rest.at(-1)?.[1] === "can't tell yet" ? items.join(', ') : listWords(items);
  const it = against || ['no difference'].includes(gist) ? '' : 'it ';
  return `${it}${gist} (${list})`;
}

/** Formats every configuration of which was certainly slower than the fastest wherever measured. */
function alwaysSlower(decisions, cellsById, delta) {
  const formatOf = (id) => completeCell(cellsById.get(id).cell).format;
  const formats = [...new Set([...cellsById.values()].map((c) => c.cell.format))];
  return formats
    .map((format) => {
      const where = decisions.filter((d) => d.others.some((o) => formatOf(o.case_id) === format));
      const slower = where.filter((d) => {
        const answer = situationAnswer(d, delta);
        return (
          formatOf(answer.fastest) !== format &&
          answer.rows.filter((r) => formatOf(r.case_id) === format).every((r) => r.word === WORDS.SLOWER)
        );
      });
      return where.length && slower.length === where.length ? { format, n: where.length } : null;
    })
    .filter(Boolean);
}

/**
 * A compression verdict's counts, as short as the gist says them: "certainly slower in 5 of 12
 * comparisons, faster in none" (the rest not yet certain, which the counts leave to be read).
 */
function gistCounts({ said, n }) {
  return said
    .filter(([, word]) => word !== "can't tell yet")
    .map(([count, word], i) =>
      i ? `${word.replace('certainly ', '')} in ${count || 'none'}` : `${word} in ${count} of ${n} comparisons`,
    )
    .join(', ');
}

/**
 * A pick in plain words, the verdict first and then its numbers: the most time it lost to a
 * situation's fastest as measured, in how many situations, where and at what ratio, and how far
 * its 95 % range reaches (the fastest's time × the ratio's upper bound − 1) where that is further:
 * "JSON with GZIP — measured at most +1.98 ms behind the fastest in all 4 situations (at worst
 * 1,000 Videos, 1.046×); allowing for noise, up to +2.56 ms".
 */
export function pickWords(choice, where, unit, tied = null) {
  const n = choice.situations;
  // Two the run could not tell apart are both the answer; the numbers then say whose they are.
  if (tied) {
    const rest = pickWords(choice, where, unit).slice(choice.configuration.length + 3);
    return `${choice.configuration} or ${tied} (not yet told apart) — ${choice.configuration}: ${rest}`;
  }
  const all = n === 1 ? 'its one situation' : `all ${n} situations`;
  if (choice.worst_ratio === 1)
    return `${choice.configuration} — the fastest in ${n === 2 ? 'both' : `all ${n}`} ${unit}`;
  if (!Number.isFinite(choice.most_lost_ms)) return `${choice.configuration} — ${worstBrief(choice, DEFAULT_DELTA)}`;
  const at = where(choice.most_lost_situation);
  const ratio = Number.isFinite(choice.most_lost_ratio) ? `, ${ratioText(choice.most_lost_ratio)}×` : '';
  const reach = reachesFurther(choice.bound_ms, choice.most_lost_ms)
    ? `; allowing for noise, up to ${plus(choice.bound_ms)}${
        choice.bound_situation !== choice.most_lost_situation ? ` (${where(choice.bound_situation)})` : ''
      }`
    : '';
  // What was measured and what noise allows, each named, so that the two never read as two maxima.
  return (
    `${choice.configuration} — measured at most ${plus(choice.most_lost_ms)} behind the fastest in ` +
    `${all} (at worst ${at}${ratio})${reach}`
  );
}

/**
 * The next best in a few words, and how it stood against the pick in the comparisons of the two
 * themselves, situation by situation, where the run compared them directly: "Next best: Protobuf
 * with GZIP, +7.14 ms behind at worst (1,000 Books); not yet told apart from JSON with GZIP
 * (can't tell yet in 4 of 4)."
 */
function nextWords(choice, where, comparisons = [], situations = []) {
  const next = choice.next;
  if (!next || !Number.isFinite(next.most_lost_ms)) return '';
  const at = where(next.most_lost_situation);
  // Where the two are the answer together (tiedWith), its counts only.
  if (tiedWith(choice, comparisons, situations)) {
    const list = countsList(pairCounts(choice.configuration, next.configuration, comparisons, situations));
    return ` ${next.configuration}: ${plus(next.most_lost_ms)} behind at worst (${at}; ${list}).`;
  }
  const against = pairWords(choice.configuration, next.configuration, comparisons, situations);
  return ` Next best: ${next.configuration}, ${plus(next.most_lost_ms)} behind at worst (${at})${against}.`;
}

/**
 * What choosing is worth in `situations`, by N: the most the slowest configuration lost to the
 * fastest at each N, so that a reader sees where the choice matters and where it hardly does:
 * " At stake: the slowest was behind by +2.22 ms at 10 objects and +258 ms at 1,000."
 */
function stakesWords(situations) {
  const counts = [...new Set(situations.map((s) => s.count))].filter(Number.isFinite).sort((a, b) => a - b);
  const most = counts.map((n) => {
    const lost = situations
      .filter((s) => s.count === n)
      .flatMap((s) => Object.values(s.extra ?? {}))
      .filter(Number.isFinite);
    return lost.length ? [n, Math.max(...lost)] : null;
  });
  if (!most.length || most.some((m) => m === null)) return '';
  const at = most.map(([n, ms], i) => `${plus(ms)} at ${n.toLocaleString('en-US')}${i ? '' : ' objects'}`);
  return ` At stake: the slowest was behind by ${listWords(at)}.`;
}

/** The next best where no comparison of it with the choice was certain either way; else null. */
function tiedWith(choice, comparisons, situations) {
  if (!choice.next || choice.worst_ratio === 1) return null;
  const count = pairCounts(choice.configuration, choice.next.configuration, comparisons, situations);
  return count && !count.slower && !count.faster ? choice.next.configuration : null;
}

/**
 * How `second` stood against `first` in their own comparisons in `situations` (where the two
 * differ in one dimension only, the run compared them directly): "; not yet told apart from JSON
 * with GZIP (as fast in 1, can't tell yet in 3 of 4)", or "; against JSON uncompressed: certainly
 * slower in 3, can't tell yet in 1 of 4";
 * empty where they were compared in no situation.
 */
function pairWords(first, second, comparisons, situations) {
  const count = pairCounts(first, second, comparisons, situations);
  if (!count) return '';
  const list = countsList(count);
  return count.slower || count.faster ? `; against ${first}: ${list}` : `; not yet told apart from ${first} (${list})`;
}

/** pairCounts in words, those that happened only: "certainly slower in 1, can't tell yet in 3 of 4". */
const countsList = (count) =>
  `${[
    [count.slower, 'certainly slower'],
    [count.faster, 'certainly faster'],
    [count.asFast, 'as fast'],
    [count.open, "can't tell yet"],
  ]
    .filter(([k]) => k > 0)
    .map(([k, w]) => `${w} in ${k}`)
    .join(', ')} of ${count.n}`;

/**
 * How `second` stood against `first` in their own comparisons in `situations`: {slower, faster,
 * asFast, open, n}, each as the second against the first; null where they were compared in none.
 */
function pairCounts(first, second, comparisons, situations) {
  const keyOf = (cell) => `${cell.object}/${cell.count}/${cell.network}/${cell.cm ?? 0}/${cell.protocol ?? ''}`;
  const keys = new Set(situations.map((s) => `${s.object}/${s.count}/${s.network}/${s.cm ?? 0}/${s.protocol ?? ''}`));
  const name = (cell) => configurationWords(completeCell(cell));
  const pairs = comparisons.filter((c) => {
    if (!keys.has(keyOf(c.a)) || keyOf(c.a) !== keyOf(c.b)) return false;
    const names = [name(c.a), name(c.b)];
    return names.includes(first) && names.includes(second) && first !== second;
  });
  if (!pairs.length) return null;
  // Each read as the second against the first: slower where the first was certainly faster.
  const count = { slower: 0, faster: 0, asFast: 0, open: 0 };
  for (const c of pairs) {
    const firstIsA = name(c.a) === first;
    const v = verdict(c);
    if (v === 'equivalent') count.asFast += 1;
    else if (v === 'tie') count.open += 1;
    else if ((v === 'a') === firstIsA) count.slower += 1;
    else count.faster += 1;
  }
  return { ...count, n: pairs.length };
}

/**
 * Where the networks' picks differ by compression only (compressed on the slower network), the
 * link speed below which compressing pays for that format, by data and N, from the break-even
 * rows (compression.js breakEvens): "Between these: GZIP pays for JSON below about 31.3–236 Mbit/s,
 * by data and N"; null where a row pays at every speed or never, or any check of it was
 * contradicted.
 */
export function linkSpeedLine(picks, breakEven) {
  if (picks.length !== 2 || !breakEven.length) return null;
  const named = (row, compression) =>
    configurationName({ ...row, compression, level: compression === 'none' ? null : row.level });
  for (const [slow, fast] of [picks, [...picks].reverse()]) {
    const rows = breakEven.filter(
      (r) => configurationName(r) === slow.choice.configuration && named(r, 'none') === fast.choice.configuration,
    );
    if (!rows.length) continue;
    const speeds = rows.map((r) => r.break_even_mbps);
    if (!speeds.every((v) => Number.isFinite(v) && v > 0)) return null;
    if (rows.some((r) => r.checks.some((c) => c.outcome === 'contradicted'))) return null;
    const [low, high] = [Math.min(...speeds), Math.max(...speeds)];
    const range =
      speedText(low) === speedText(high)
        ? speedText(low)
        : `${speedText(low).replace(/ Mbit\/s$/, '')}–${speedText(high)}`;
    const { compression, format } = rows[0];
    return (
      `Between these speeds: ${compressionLabel(compression)} pays for ${formatLabel(format)} below about ${range}, ` +
      'by data and N.'
    );
  }
  return null;
}

/**
 * Each format certainly slower than the fastest everywhere, with by how much its best
 * configuration was behind: "Avoid XML: certainly slower than the fastest in every situation
 * without sorting, its best by +0.40 ms (10 Videos unthrottled) to +120 ms (1,000 Books at 10
 * Mbit/s)."
 */
function avoidLines(plain, ratios, cellsById, delta, unit) {
  const formatOf = new Map(
    [...cellsById.values()].map((c) => [configurationWords(completeCell(c.cell)), c.cell.format]),
  );
  return alwaysSlower(plain, cellsById, delta).map(({ format }) => {
    const behind = ratios
      .map((s) => {
        const own = Object.entries(s.extra ?? {}).filter(
          ([words, ms]) => formatOf.get(words) === format && Number.isFinite(ms),
        );
        return own.length ? { ms: Math.min(...own.map(([, ms]) => ms)), words: s.words } : null;
      })
      .filter(Boolean);
    const every = `in every ${unit.replace(/^situations/, 'situation')}`;
    if (!behind.length) return `Avoid ${formatLabel(format)}: certainly slower than the fastest ${every}.`;
    // Its best configuration's least and most time lost: how much the advice matters.
    const [least, most] = [
      behind.reduce((a, b) => (b.ms < a.ms ? b : a)),
      behind.reduce((a, b) => (b.ms > a.ms ? b : a)),
    ];
    return (
      `Avoid ${formatLabel(format)}: certainly slower than the fastest ${every}, at best by ` +
      `${plus(least.ms)} (${least.words}) to ${plus(most.ms)} (${most.words}).`
    );
  });
}

/**
 * The answer in short, each line true for this run: per network the pick (the configuration that
 * lost the fewest milliseconds to a situation's fastest in its worst one), with what it lost, the
 * next best, and what each compression did there ("GZIP saved time here (certainly faster in 10
 * of 12 comparisons, slower in none, 2 not yet certain)"); with two networks, one pick for both
 * (bottomLine's) and, where the two picks differ by compression only, the link speed below which
 * it pays (the break-even rows). `avoid`: the formats certainly slower than the fastest
 * everywhere, which close the answers in short.
 */
export function answerLines(decisions, cellsById, delta, comparisons, breakEven = [], shaping = null) {
  const plain = decisions.filter((d) => d.cm === 0);
  if (!plain.length) return { lines: [], short: [], avoid: [] };
  const short = [];
  const ratios = plain.map((d) => situationRatios(d, cellsById, delta));
  const networks = [...new Set(ratios.map((s) => s.network))];
  // With more than two networks the bottom line has a row for compression.
  const verdicts = networks.length <= 2 ? compressionVerdicts(comparisons) : [];
  const unit = decisions.some((d) => d.cm > 0) ? 'situations without sorting' : 'situations';
  const picks = [];
  for (const name of networks) {
    const own = ratios.filter((s) => s.network === name);
    const choice = robustChoice(own, delta);
    if (!choice) continue;
    picks.push({ name, choice });
    const did = verdicts
      .map(({ name: compression, perNetwork }) => {
        const p = perNetwork.find((q) => q.net === name);
        return p?.gist ? `${compression} ${GIST_SAID[p.gist] ?? p.gist} here (${gistCounts(p)})` : null;
      })
      .filter(Boolean);
    const compression = did.length ? ` ${capital(listWords(did))}.` : '';
    const strip = (words) => words.replace(` ${network(name)}`, '');
    // Each network defined where it is first named, as the words below define it.
    const label = `${capital(network(name))} (${networkDefinition(name, shaping)})`;
    short.push(
      `${label}: ${pickWords(choice, strip, unit, tiedWith(choice, comparisons, own))}.` +
        `${stakesWords(own)}${nextWords(choice, strip, comparisons, own)}${compression}`,
    );
  }
  // One pick for both networks, over the data and N measured on both (bottomLine's), with the next
  // best, and between them the link speed where compression pays.
  const common = onEveryNetwork(ratios, networks);
  const both = networks.length === 2 ? robustChoice(common, delta) : null;
  if (both) {
    const scope = common.length < ratios.length ? ' (where both were measured)' : '';
    // Its next best is the networks' own, said above.
    short.push(`Both networks, one pick${scope}: ${pickWords(both, (w) => w, unit)}.`);
  }
  const between = linkSpeedLine(picks, breakEven);
  if (between) short.push(between);
  return { lines: [], short, avoid: avoidLines(plain, ratios, cellsById, delta, unit) };
}

/**
 * Where a situation's answer is not yet certain (`open`), the command that settles more
 * (time-spent.js longerRun):
 * "Not yet certain: a longer run settles more (PLAN=quick MINUTES=15 npm run study, twice this
 * run's time)."
 */
function notYetCertain(open, longer) {
  if (!open) return [];
  return [`Not yet certain: a longer run settles more${longer ? ` (${longer})` : ''}.`];
}

/** A compression's gist as a pick's line says it: in time saved or cost. */
const GIST_SAID = Object.freeze({
  pays: 'saved time',
  'looked to pay': 'looked to save time',
  costs: 'cost time',
  'looked to cost': 'looked to cost time',
});

/** A network's words without "at"/"on": "10 Mbit/s", "unthrottled", "WebPageTest LTE". */
const networkName = (name) => network(name).replace(/^(at|on) /, '');

/**
 * The robust choice among the situations without sorting, as the bottom line's rows, each said in
 * full by the answer above the words (answerLines: `inAnswer`): with one or two networks a row per
 * network, then with two one choice for both (`both`, which the bottom line gives after where to
 * sort); with more, a row naming each network's choice and one for compression, which the answer
 * does not say.
 */
function withoutSortingRows(delta, situations, comparisons) {
  const networks = [...new Set(situations.map((s) => s.network))];
  const plain = robustChoice(onEveryNetwork(situations, networks), delta);
  const answerOf = (choice) => choiceRow(choice, undefined, delta).answer;
  const rows = [];
  let both = null;
  if (networks.length <= 2) {
    for (const name of networks) {
      const choice = robustChoice(
        situations.filter((s) => s.network === name),
        delta,
      );
      rows.push({ lead: `${capital(network(name))}: ${answerOf(choice)}`, inAnswer: true });
    }
    if (networks.length === 2) both = { lead: `Both networks, one pick: ${answerOf(plain)}`, inAnswer: true };
  } else {
    const perNetwork = networks.map((name) => {
      const choice = robustChoice(
        situations.filter((s) => s.network === name),
        delta,
      );
      const strip = (words) => words.replace(` ${network(name)}`, '');
      return `${networkName(name)}: ${choiceWords(choice, strip, delta)}`;
    });
    rows.push({
      lead: 'Without sorting',
      text: `${perNetwork.join('; ')}. All ${networks.length} networks: ` + `${choiceWords(plain, undefined, delta)}.`,
      inAnswer: true,
    });
    const compression = compressionLine(comparisons);
    if (compression) rows.push({ lead: 'Compression', text: `${compression}.` });
  }
  return { choice: plain, rows, both };
}

/**
 * Where sorting belongs: the best configuration of each side, by its worst ratio to the fastest;
 * how often the better side was certainly faster, as fast, or not yet told apart from the other's
 * best, situation by situation; and what the sorting groups measured.
 */
function sortingLine(decisions, cellsById, situations, delta, comparisons = [], brief = BRIEF[0]) {
  const cellOf = (id) => completeCell(cellsById.get(id).cell);
  const runNetworks = new Set([...cellsById.values()].map((c) => completeCell(c.cell).network));
  const sortingDecisions = decisions.filter((d) => d.cm > 0);
  const sortingCells = sortingDecisions
    .flatMap((d) => [d.fastest_case_id, ...d.others.map((o) => o.case_id)])
    .map(cellOf);
  const side = (computes) => {
    const own = situations.map((s) => ({
      ...s,
      ratios: Object.fromEntries(Object.entries(s.ratios).filter(([c]) => c.endsWith(`, ${computes} sorting`))),
    }));
    const choice = robustChoice(own, delta);
    if (!choice) return choice;
    // The side's configuration with the lowest time of the side in the most situations, where that
    // is not its best: what a reader who compares the side's rows sees first.
    const lowestIn = (configuration) =>
      own.filter((s) => s.ratios[configuration] === Math.min(...Object.values(s.ratios))).length;
    const [leader] = Object.keys(own[0].ratios)
      .filter((c) => own.every((s) => c in s.ratios))
      .sort((x, y) => lowestIn(y) - lowestIn(x));
    const leads = leader && leader !== choice.configuration && lowestIn(leader) > lowestIn(choice.configuration);
    return {
      ...choice,
      side_leader: leads ? { ...recordOf(own, leader, delta), lowest_in: lowestIn(leader) } : null,
    };
  };
  const [server, browser] = [side('server'), side('browser')];
  // One network for every sorting situation: the worst cases need not name it.
  const networks = [...new Set(situations.map((s) => s.network))];
  const where = networks.length === 1 ? (words) => words.replace(` ${network(networks[0])}`, '') : (words) => words;
  // The lead defines the CMs measured: the scope need not.
  const measured = scopeWords(sortingCells.map((c) => ({ ...c, cm: 0 })));
  // Compressions the run measured without sorting but not with it: "uncompressed only", so that
  // no reader takes the sorting answers' best for a choice against the compressed ones above.
  const sortedCompressions = new Set(sortingCells.map((c) => c.compression));
  const only =
    sortedCompressions.size === 1 &&
    [...cellsById.values()].some((c) => !sortedCompressions.has(completeCell(c.cell).compression));
  // What the lead's topic does not say already (uncompressed, nothing cached).
  // Without asides the scope is left to the lead (uncompressed), the answer's N and what was not
  // measured, which names the sorting groups' gaps.
  const scope = brief.asides ? `Measured for ${only ? measured.replace(/, [^,]+$/, '') : measured}.` : '';
  const sentences = (...parts) =>
    parts
      .map((p) => p.trim())
      .filter(Boolean)
      .join(' ');
  // The lead says what the answer was measured with, where the answers above it had more: its
  // answer in short must not read as one for the compressed configurations chosen above.
  // The data and networks too, where the sorting groups measured fewer than the run: "Where to
  // sort (Books at 10 Mbit/s, uncompressed, nothing cached)".
  const ofRun = (key) => new Set([...cellsById.values()].map((c) => completeCell(c.cell)[key]));
  const sortedOf = (key) => [...new Set(sortingCells.map((c) => c[key]))];
  const sortedNames = CATALOGUE.objects
    .filter((o) => sortedOf('object').includes(o.name))
    .map((o) => o.label.replace(/ \(.*\)$/, ''));
  const kinds = sortedOf('object').length < ofRun('object').size ? listWords(sortedNames) : '';
  const nets = sortedOf('network').length < ofRun('network').size ? listWords(sortedOf('network').map(network)) : '';
  // One kind of data sorted: the grids count it by name ("1,000 Books"), which needs no N.
  const sortedUnit = sortedOf('object').length === 1 && sortedNames.length === 1 ? sortedNames[0] : null;
  const data = [kinds, nets].filter(Boolean).join(' ');
  const topicScope = [data, only ? 'uncompressed' : '', 'nothing cached'].filter(Boolean).join(', ');
  // Each answer's lead, and its grid's: the rule the grid says, after what was measured.
  const ruled = (grid) => `Where to sort (${topicScope}): ${grid.rule}`;
  const scoped = (lead) => lead.replace(/^Where to sort/, `Where to sort (${topicScope})`);
  if (!server || !browser) {
    const choice = robustChoice(situations, delta);
    const { answer, text } = choiceRow(choice, where, delta);
    return {
      lead: scoped(`Where to sort: ${answer}`),
      text: sentences(scope, capital(text)),
      worst: worstCell(choice, where, delta),
    };
  }
  const [serverBest, browserBest] = [server, browser].map((c) => sideNames(c, delta));
  const bests =
    serverBest === browserBest
      ? `The best format on both sides${only ? ' (as sorted: uncompressed)' : ''}: ${serverBest}.`
      : `Best on the server (fewest ms lost at worst): ${sideBest(server, where, delta, brief.why)}. ` +
        `Best in the browser (fewest ms lost at worst): ${sideBest(browser, where, delta, brief.why)}.`;
  // Server against browser for the same format, compression, data and N (RQ3's comparisons): each
  // verdict names what it holds for, and a CM is given to a side only where most of them say so.
  const pairs = comparisons.filter((c) => c.dimension === 'side');
  if (pairs.length) {
    const tally = new Tally();
    // The pair reads browser (a) over server (b): b faster is the server faster.
    for (const c of pairs) {
      tally.add(c.a.cm, outcomeOfPair(c), c.a.count, null, leanOf(c, delta), c.rounds <= 1);
    }
    const counts = tally.words(
      {
        certain: 'the server certainly faster',
        other: 'the browser certainly faster',
        tie: 'as fast',
        open: "can't tell yet",
      },
      ' comparisons',
    );
    const cached = brief.caching ? cachingWords(comparisons, runNetworks, delta, brief.caching === 'grid') : null;
    const each = perCellWords(pairs.map((c) => completeCell(c.a)));
    // One rule for the answer in short and the grid's lead: the grid's own, CM by CM.
    const grid = gridOf(tally.byCm, 'server', SORT_GRID, { corner: 'Sorting', unit: sortedUnit });
    return {
      lead: ruled(grid),
      text: sentences(scope, brief.asides ? bests : ''),
      worst: counts,
      // Its scope is the answer in short's, just above.
      grid: { ...grid, lead: `Where to sort, by CM and N (counts: ${each}):` },
      plain: `Where to sort (${topicScope}): ${grid.plain}`,
      ...(cached && { sub: [cached] }),
    };
  }
  const serverBetter = server.worst_ratio <= browser.worst_ratio;
  const computes = serverBetter ? 'server' : 'browser';
  // Per situation: the better side's best against the other side's best, in the four words.
  const tally = new Tally();
  for (const d of sortingDecisions) {
    const answer = situationAnswer(d, delta);
    const rows = [{ case_id: answer.fastest, word: WORDS.FASTEST }, ...answer.rows];
    const sideOf = (r) => scenarioOf(cellOf(r.case_id)).computes;
    const mine = rows.find((r) => sideOf(r) === computes);
    const theirs = rows.find((r) => sideOf(r) !== computes);
    if (!mine || !theirs) continue;
    // Whichever of the two is the situation's fastest, the other's word says how they compare.
    const [leader, follower] = mine.word === WORDS.FASTEST ? [mine, theirs] : [theirs, mine];
    const outcome =
      follower.word === WORDS.AS_FAST
        ? 'tie'
        : follower.word !== WORDS.SLOWER || leader.word !== WORDS.FASTEST
          ? 'open'
          : leader === mine
            ? 'certain'
            : 'other';
    tally.add(d.cm, outcome, cellOf(mine.case_id).count);
  }
  const counts = tally.words(
    { certain: 'certainly faster', tie: 'as fast', other: 'certainly slower', open: "can't tell yet" },
    ' situations',
  );
  const cached = brief.caching ? cachingWords(comparisons, runNetworks, delta, brief.caching === 'grid') : null;
  const each = perCellWords(
    sortingDecisions.map((d) => cellOf(d.fastest_case_id)),
    'situation',
  );
  const grid = gridOf(tally.byCm, computes, SORT_GRID, { corner: 'Sorting', unit: sortedUnit });
  return {
    lead: ruled(grid),
    text: sentences(scope, brief.asides ? bests : ''),
    worst: `the ${computes} ${counts}`,
    grid: {
      ...grid,
      lead: `Where to sort, by CM and N (counts: ${each}, the ${computes}'s best against the other side's):`,
    },
    plain: `Where to sort (${topicScope}): ${grid.plain}`,
    ...(cached && { sub: [cached] }),
  };
}

/**
 * RQ4 in the sorting row: for a second sorting of data the browser already holds, whether to
 * re-sort the cached copy or ask the server again, per CM as where to sort is said, with what it
 * was measured for: " Data already in the browser, sorted again (JSON uncompressed, Books, N = 10
 * and 100, both networks): re-sort the cached copy for CM2–CM4 (…); ask the server again for CM5 (…)."
 * Empty where the run has no caching pairs; `runNetworks`: the run's, so that all are named so.
 */
function cachingWords(comparisons, runNetworks, delta, asGrid = true) {
  const pairs = comparisons.filter((c) => c.dimension === 'caching');
  if (!pairs.length) return null;
  const tally = new Tally();
  // The pair reads asking again (a) over the cached copy (b): b faster is the cached copy faster.
  for (const c of pairs) {
    tally.add(c.a.cm, outcomeOfPair(c), c.a.count, c.a.network, leanOf(c, delta), c.rounds <= 1);
  }
  const cells = pairs.map((c) => completeCell(c.a));
  // "JSON uncompressed, Books, N = 10 and 1,000, both networks": the run's networks named as such.
  const of = (key) => [...new Set(cells.map((c) => c[key]))];
  const kinds = CATALOGUE.objects
    .filter((o) => of('object').includes(o.name))
    .map((o) => o.label.replace(/ \(.*\)$/, ''));
  const networks = of('network');
  const every = networks.length > 1 && networks.length === runNetworks.size;
  // What was cached goes in the lead, where and at which N below it (or in the lead, as a sentence).
  const cached = listWords([...new Set(cells.map((c) => configurationWords({ ...c, cm: 0, scenario: 1 })))]);
  const what = `${cached}, ${listWords(kinds)}`;
  const nets = every ? (networks.length === 2 ? 'both networks' : 'every network') : listWords(networks.map(network));
  const measured = `N = ${countWords(of('count'))}, ${nets}`;
  const each = perCellWords(cells);
  const grid = gridOf(tally.byCm, 'cached', CACHE_GRID, {
    corner: 'Sorted again',
    unit: kinds.length === 1 ? kinds[0] : null,
  });
  return {
    lead: `Data already in the page (decoded and kept; ${what}; ${nets}), sorted again: ${grid.rule}`,
    plain: `Data already in the page, sorted again (${what}; ${nets}): ${grid.plain}`,
    text: asGrid ? `Measured at ${measured}.` : '',
    ...(asGrid && {
      grid: {
        ...grid,
        lead: `Decoded data kept in the page, sorted again (${what}; ${nets}), by CM and N. Counts: ${each}:`,
      },
    }),
    worst: tally.words(
      {
        certain: 'the cached copy certainly faster',
        other: 'asking again certainly faster',
        tie: 'as fast',
        open: "can't tell yet",
      },
      ' comparisons',
    ),
  };
}

/**
 * A pair read b over a (the server over the browser, the cached copy over asking again): `certain`
 * where b was certainly faster, `other` where a was, `tie` as fast, `open` can't tell yet.
 */
const outcomeOfPair = (c) => ({ b: 'certain', a: 'other', equivalent: 'tie', tie: 'open' })[verdict(c)];

/** Which way a pair leaned, where it is open, in outcomeOfPair's names: its ratio (a over b) at δ. */
const leanOf = (c, delta) =>
  verdict(c) !== 'tie' || !Number.isFinite(c.ratio)
    ? null
    : c.ratio > 1 + delta
      ? 'certain'
      : c.ratio < 1 / (1 + delta)
        ? 'other'
        : 'tie';

/**
 * Server-against-browser outcomes, per CM (and within it per N, `byN`) and in all: certain, other
 * (certainly slower), tie, open.
 */
class Tally {
  byCm = new Map();
  total = { certain: 0, tie: 0, open: 0, other: 0 };

  add(cm, outcome, count, net = null, lean = null, once = false) {
    // `nets`: the networks each outcome came from, for answers that differ by network; `leans`:
    // which way the open ones leaned (an outcome's name), for a grid's "looked"; `once`: how many
    // open ones leaned on one measurement each.
    const empty = () => ({
      certain: 0,
      tie: 0,
      open: 0,
      other: 0,
      nets: { certain: new Set(), other: new Set() },
      leans: { certain: 0, other: 0, tie: 0 },
      once: 0,
    });
    const note = (of) => {
      of[outcome] += 1;
      if (outcome === 'open' && lean) of.leans[lean] += 1;
      if (outcome === 'open' && once) of.once += 1;
      if (net !== null && of.nets[outcome]) of.nets[outcome].add(net);
    };
    if (!this.byCm.has(cm)) this.byCm.set(cm, { ...empty(), byN: new Map() });
    const of = this.byCm.get(cm);
    note(of);
    if (count !== undefined) {
      if (!of.byN.has(count)) of.byN.set(count, empty());
      note(of.byN.get(count));
    }
    this.total[outcome] += 1;
  }

  /** The outcomes in words, in `words`' order, the first with the count of all: "… in 5 of 20, as fast in 1". */
  words(words, unit = '') {
    const n = Object.values(this.total).reduce((a, b) => a + b, 0);
    return Object.entries(words)
      .filter(([key]) => this.total[key] > 0)
      .map(([key, word], i) => `${word} in ${this.total[key]}${i === 0 ? ` of ${n}${unit}` : ''}`)
      .join(', ');
  }
}

const stripSide = (configuration) => configuration.replace(/, (server|browser) sorting$/, '');

/** A side's best by name, without the side: "Protobuf uncompressed", or two as good: "A or B". */
const sideNames = (choice, delta) =>
  asGoodNext(choice, delta)
    ? `${stripSide(choice.configuration)} or ${stripSide(choice.next.configuration)}`
    : stripSide(choice.configuration);

/**
 * A side's best configuration with the most time it lost to a situation's fastest: "Protobuf
 * uncompressed, at most +2.10 ms behind the fastest, in 10 Books, CM2 (1.03×, not yet certain)";
 * two as good, each with its own; with `whyNot`, the one with the lowest time in more of the
 * side's situations and why it is not the best, so that a reader who sees it first in most rows
 * knows why.
 */
function sideBest(choice, where, delta, whyNot = true) {
  const name = stripSide(choice.configuration);
  if (choice.worst_ratio === 1) return `${name}, the fastest in all ${choice.situations}`;
  const lost = (record) =>
    Number.isFinite(record.most_lost_ms)
      ? mostLostWords(record, where)
      : `at worst ${worstBrief(record, delta, where(record.worst_situation))}`;
  const head = asGoodNext(choice, delta)
    ? `${name}, ${lost(choice)}; or ${stripSide(choice.next.configuration)}, ${lost(choice.next)}`
    : `${name}, ${lost(choice)}`;
  const most = whyNot ? choice.side_leader : null;
  const why = most
    ? ` (${stripSide(most.configuration)}: the side's lowest time in ${most.lowest_in} of ${choice.situations}, ` +
      `but ${lost(most)})`
    : '';
  return `${head}${why}`;
}

/**
 * A grid cell's answer from its comparisons (certain or open, and which way each open one
 * leaned): a side where it was certainly faster in at least one and no comparison was certainly
 * faster, or leaned faster, for the other (`certain`, `other`); "either side" (`tie`) where at
 * least one was certainly as fast and none was certain, or leaned, either way; `depends` where
 * each side was certainly faster somewhere; `open` ("can't tell yet") for the rest. One rule for
 * every cell of both grids: an answer never goes against a certain comparison, nor against a
 * lean where any is certain (where none is, gridOf's cells ask more of a lean).
 */
function gridOutcome(c, leans) {
  if (c.certain && c.other) return 'depends';
  if (c.certain && !leans.other) return 'certain';
  if (c.other && !leans.certain) return 'other';
  if (c.tie && !c.certain && !c.other && !leans.certain && !leans.other) return 'tie';
  return 'open';
}

/**
 * The grids under the answers in short: for each CM (a row) and N (a column) the answer of its
 * comparisons and how many of them say so — "the server (2 of 3 certain)" —, so that a reader
 * finds their own amount of sorting and N in one place rather than in a chain of exceptions.
 * `who`: each side's words as an answer and as the subject of a count (SORT_GRID, CACHE_GRID);
 * `unit`: the data's name where the grid has one kind, so that a column says "1,000 Books", not N.
 */
export function gridOf(byCm, computes, who, { lead, corner, unit = null }) {
  const other = Object.keys(who).find((side) => side !== computes && side !== 'depends');
  const ns = [...new Set([...byCm.values()].flatMap((c) => [...c.byN.keys()]))].sort((a, b) => a - b);
  const cellAnswer = (c) => {
    const n = c.certain + c.other + c.tie + c.open;
    const leans = { certain: 0, other: 0, tie: 0, ...c.leans };
    // Which way the open ones leaned: "looked: the server faster in 2, as fast in 1", and where
    // they leaned on one measurement each, so that no reader takes such a lean for a trend.
    const looked = [
      leans.certain ? `${who[computes].subject} faster in ${leans.certain}` : null,
      leans.other ? `${who[other].subject} faster in ${leans.other}` : null,
      leans.tie ? `as fast in ${leans.tie}` : null,
    ].filter(Boolean);
    const once = c.once
      ? `, ${c.once === c.open ? (c.open > 1 ? 'each ' : '') : `${c.once} `}from one measurement`
      : '';
    const told = [
      c.certain ? `${who[computes].subject} certainly faster in ${c.certain}` : null,
      c.other ? `${who[other].subject} certainly faster in ${c.other}` : null,
      c.tie ? `as fast in ${c.tie}` : null,
    ].filter(Boolean);
    const ofN = (items) => `${items.join(', ')}${items.length > 1 ? ',' : ''} of ${n}`;
    const lean = (first) =>
      looked.length ? `${first ? '' : '; '}looked: ${first ? ofN(looked) : looked.join(', ')}${once}` : '';
    const counts = told.length ? `${ofN(told)}${lean(false)}` : lean(true) || `none of ${n} certain`;
    const key = gridOutcome(c, leans);
    if (key === 'certain' || key === 'other') {
      const [side, k] = key === 'certain' ? [computes, c.certain] : [other, c.other];
      const tied = c.tie ? `, as fast in ${c.tie}` : '';
      // An answer most of whose comparisons are certain (faster, or as fast); with half or fewer,
      // not yet certain, in the cell as in the rule.
      const sure = 2 * (k + c.tie) > n;
      return {
        text: `${who[side].answer}${sure ? '' : ', not yet certain'} (${k} of ${n} certain${tied}${lean(false)})`,
        side: who[side].answer,
        sure,
      };
    }
    if (key === 'tie') {
      const sure = 2 * c.tie > n;
      return {
        text: `either side${sure ? '' : ', not yet certain'} (${c.tie} of ${n} as fast${lean(false)})`,
        side: 'either side',
        sure,
      };
    }
    // None certain but all leaning one way, or as fast: that way, not yet certain, so that three
    // leaning alike read as an answer as one certain with two leaning alike does.
    // Leans on one measurement each are no answer: a single time, perhaps a cold one.
    const none = !c.certain && !c.other && !c.tie && c.once < c.open;
    let leaning = none ? gridOutcome({ certain: leans.certain, other: leans.other, tie: leans.tie }, {}) : 'open';
    // A side only where more leaned its way than leaned as fast: one lean past the line beside two
    // as fast is no answer yet.
    if (leaning === 'certain' || leaning === 'other') {
      if (leans[leaning] <= leans.tie) leaning = 'tie';
    }
    if (leaning !== 'open' && leaning !== 'depends') {
      const [answer, k, what] = {
        certain: [who[computes].answer, leans.certain, 'faster'],
        other: [who[other].answer, leans.other, 'faster'],
        tie: ['either side', leans.tie, 'as fast'],
      }[leaning];
      // The rest leaned as fast (a side's answer), or a side's way (either side), or nowhere a ratio tells.
      const sides = [
        leans.certain ? `${leans.certain} ${who[computes].subject} faster` : null,
        leans.other ? `${leans.other} ${who[other].subject} faster` : null,
      ].filter(Boolean);
      const rest =
        leaning !== 'tie' ? (leans.tie ? `, ${leans.tie} as fast` : '') : sides.map((x) => `, ${x}`).join('');
      return {
        text: `${answer}, not yet certain (${k} of ${n} looked ${what}${rest}${once})`,
        side: answer,
        sure: false,
      };
    }
    if (key === 'depends') {
      // An answer that says where each side won (by network) needs no counts where all are certain.
      const answer = typeof who.depends === 'function' ? who.depends(c) : who.depends;
      if (typeof who.depends === 'function' && c.certain + c.other === n)
        return { text: `${answer} (each certain)`, side: answer, sure: true };
      return { text: `${answer} (${counts})`, side: answer, sure: true };
    }
    return { text: `can't tell yet (${counts})`, side: "can't tell yet", sure: true };
  };
  const cms = [...byCm.keys()].sort((a, b) => a - b);
  const answers = new Map(
    cms.map((cm) => [
      cm,
      new Map(ns.filter((n) => byCm.get(cm).byN.has(n)).map((n) => [n, cellAnswer(byCm.get(cm).byN.get(n))])),
    ]),
  );
  return {
    lead,
    rule: gridRule(answers, ns, unit),
    plain: plainRule(answers, ns, unit),
    table: {
      header: [
        corner,
        ...ns.map((n) => (unit ? `${n.toLocaleString('en-US')} ${unit}` : `N = ${n.toLocaleString('en-US')}`)),
      ],
      rows: cms.map((cm) => [
        `CM${cm} (${cmAmount(cm)})`,
        ...ns.map((n) => answers.get(cm).get(n)?.text ?? 'not measured'),
      ]),
    },
  };
}

/**
 * A grid in one line, CM by CM: each CM's answer, or its answers with the N each holds at, and CMs
 * with the same words together — "CM1: either side; CM3: the server at N = 1,000, either side at
 * N = 10". A cell's answer is said as the grid says it, "(not yet certain)" where the grid does
 * (where half or fewer of the cell's comparisons are certain, or none is and all lean alike), so
 * that the rule is never surer than a cell under it; a CM measured at fewer N than the grid's
 * names its N. `answers`: CM → N → {side, sure} (the N its CM measured); `ns`: the grid's N;
 * `unit`: what N counts where the grid has one kind of data ("1,000 Books"), else "N = 1,000".
 */
/**
 * A grid's rule in plain words, by how much is sorted rather than by CM, for the opening's "In
 * short": each CM's answer where its N measured agree (what the run could not yet tell left
 * aside), CMs next to each other with the same answer together ("either side up to 1 sort per
 * property; the server from 100 sorts per property"), a CM whose N disagree with each N's answer
 * ("at 10 sorts per property, the server at 1,000 Books, either side at 10 Books"); "(not all
 * certain)" after any part one of whose cells is not yet certain or could not yet be told.
 */
function plainRule(answers, ns, unit = null) {
  const nWords = (list) => {
    const counts = listWords(list.map((n) => n.toLocaleString('en-US')));
    return unit ? `${counts} ${unit}` : `N = ${counts}`;
  };
  const levels = CATALOGUE.computation_models.filter((m) => m.level > 0).map((m) => m.level);
  const parts = [];
  for (const [cm, cells] of answers) {
    const told = [...cells].filter(([, a]) => a.side !== "can't tell yet");
    const sure = told.length === cells.size && told.every(([, a]) => a.sure);
    const sides = [...new Set(told.map(([, a]) => a.side))];
    let words;
    if (!sides.length) words = "can't tell yet";
    else if (sides.length === 1)
      // At the N it was measured at, where that is fewer than the grid's: no answer beyond the data.
      words = cells.size < ns.length ? `${sides[0]} at ${nWords([...cells.keys()])}` : sides[0];
    else {
      // Each side at its N, a side before "either side".
      const rank = (side) => ({ 'either side': 1 })[side] ?? 0;
      words = sides
        .sort((a, b) => rank(a) - rank(b))
        .map((side) => `${side} at ${nWords(told.filter(([, a]) => a.side === side).map(([n]) => n))}`)
        .join(', ');
    }
    // CMs measured one after the other with the same answer together.
    const last = parts.at(-1);
    if (sides.length <= 1 && last && !last.depends && last.words === words) {
      last.cms.push(cm);
      last.sure &&= sure;
    } else parts.push({ cms: [cm], words, sure, depends: sides.length > 1 });
  }
  // "one sort, 10 and 1,000 sorts per property"; over levels with none between them left out,
  // "from 100 sorts per property" to the last, "up to 1 sort per property" from the first.
  const amount = ({ cms }) => {
    const [first, end] = [cms[0], cms.at(-1)];
    if (cms.length === 1) return cmAmount(first);
    const whole = levels.indexOf(end) - levels.indexOf(first) === cms.length - 1;
    if (whole && end === levels.at(-1)) return `from ${cmAmount(first)}`;
    if (whole && first === levels[0]) return `up to ${cmAmount(end)}`;
    const each = cms.map(cmAmount);
    const perProperty = each.filter((a) => / per property$/.test(a));
    const numbers = perProperty.map((a) => a.replace(/ sorts? per property$/, ''));
    const rest = each.filter((a) => !/ per property$/.test(a));
    const unitWords = numbers.length === 1 && numbers[0] === '1' ? 'sort' : 'sorts';
    const grouped = numbers.length ? [`${listWords(numbers)} ${unitWords} per property`] : [];
    return [...rest, ...grouped].join(', ');
  };
  return parts
    .map((part) => {
      const much = amount(part);
      const how = /^(from|up to) /.test(much) ? much : `for ${much}`;
      const said = part.depends ? `${how.replace(/^for /, 'at ')}, ${part.words}` : `${part.words} ${how}`;
      return `${said}${part.sure ? '' : ' (not all certain)'}`;
    })
    .join('; ');
}

function gridRule(answers, ns, unit = null) {
  const nWords = (list) => {
    const counts = listWords(list.map((n) => n.toLocaleString('en-US')));
    return unit ? `${counts} ${unit}` : `N = ${counts}`;
  };
  const rowWords = (cells) => {
    const byAnswer = new Map();
    for (const [n, { side, sure }] of cells) {
      const said = sure ? side : `${side} (not yet certain)`;
      if (!byAnswer.has(said)) byAnswer.set(said, { side, sure, ns: [] });
      byAnswer.get(said).ns.push(n);
    }
    if (byAnswer.size === 1) {
      const [[said]] = byAnswer;
      return cells.size < ns.length ? `${said} at ${nWords([...cells.keys()])}` : said;
    }
    // A side first (a certain one before one not yet certain), then "either side", then what the
    // run could not yet tell.
    const rank = ({ side, sure }) => (({ 'either side': 2, "can't tell yet": 4 })[side] ?? 0) + (sure ? 0 : 1);
    return [...byAnswer]
      .sort(([, a], [, b]) => rank(a) - rank(b))
      .map(([said, at]) => `${said} at ${nWords(at.ns)}`)
      .join(', ');
  };
  const rows = [];
  for (const [cm, cells] of answers) {
    const words = rowWords(cells);
    const last = rows.at(-1);
    if (last?.words === words) last.cms.push(cm);
    else rows.push({ cms: [cm], words });
  }
  return rows.map(({ cms, words }) => `${cmNames(cms)}: ${words}`).join('; ');
}

/** The caching grid's: re-sorting the cached copy against asking the server again. */
const CACHE_GRID = Object.freeze({
  cached: { answer: 're-sort the cached copy', subject: 'the cached copy' },
  again: { answer: 'ask the server again', subject: 'asking again' },
  depends: (counts) => CACHED.depends(counts),
});

/** The sorting grid's words for each side, and where each side won somewhere. */
export const SORT_GRID = Object.freeze({
  server: { answer: 'the server', subject: 'the server' },
  browser: { answer: 'the browser', subject: 'the browser' },
  depends: 'it depends on format',
});

/**
 * What varies among the comparisons a grid's cell counts, in words: "one per format", so that
 * "2 of 3" says what the 3 are. `cells`: each comparison's cell (one side of it), with the CM and N.
 */
function perCellWords(cells, unit = 'comparison') {
  const names = { format: 'format', compression: 'compression', object: 'data', network: 'network' };
  const varies = Object.keys(names).filter((key) => {
    const byCell = new Map();
    for (const c of cells) {
      const at = `${c.cm}/${c.count}`;
      if (!byCell.has(at)) byCell.set(at, new Set());
      byCell.get(at).add(c[key]);
    }
    return [...byCell.values()].some((values) => values.size > 1);
  });
  return varies.length ? `a ${unit} per ${listWords(varies.map((key) => names[key]))}` : `one ${unit}`;
}

/** What a second sorting of data already in the browser does, in the caching answer. */
export const CACHED = Object.freeze({
  cached: 're-sort the cached copy',
  again: 'ask the server again',
  // Each side won on some network: which, where the networks do not overlap.
  depends: ({ nets }) => {
    const [cached, again] = [[...nets.certain], [...nets.other]];
    if (!cached.length || !again.length || cached.some((n) => again.includes(n))) return 'it depends on the network';
    const on = (names) => listWords(names.map(network));
    return `re-sort the cached copy ${on(cached)} but ask the server again ${on(again)}`;
  },
});

/**
 * How much the bottom line says beyond its answers, fullest first; each level leaves out one more
 * thing, the least needed to act first (the RQ sections keep all of it): why the configuration
 * first in most of a side's situations was not chosen (`why`); the asides — the sorting groups'
 * scope (the grid's lead says it was uncompressed, and what was not measured names the rest) and
 * the words for the CMs not measured (`asides`); what to do with data already in the browser
 * (`caching`), an answer of its own, as a grid by CM and N and in short, then in short only; the
 * grids (`grids`: the answers in short say them in words); and last what to do with data in the
 * browser in short too.
 * The opening takes the first that fits its words (answerFirst).
 */
export const BRIEF = Object.freeze(
  [
    { why: true, caching: 'grid', asides: true, grids: true },
    { why: false, caching: 'grid', asides: true, grids: true },
    { why: false, caching: 'grid', asides: false, grids: true },
    { why: false, caching: 'short', asides: false, grids: true },
    { why: false, caching: 'short', asides: false, grids: false },
    { why: false, caching: false, asides: false, grids: false },
  ].map(Object.freeze),
);

/**
 * The bottom line: at most five lines, each true for this run — the configuration to choose
 * without sorting (the robust choice, per network and across them) and what to avoid, where
 * compression pays, where sorting belongs, and what the run did not measure.
 *
 * @param decisions answers.js decisions
 * @param cellsById case id → the run's cell
 * @param judging {delta}
 * @param comparisons answers.js comparisons on the report's one scale (for compression)
 * @returns {lines: [{lead, text}], plain, sorting, situations}: the robust choices and each
 *     situation's ratios (bottom-line.js situationRatios), for the page
 */
export function bottomLine(decisions, cellsById, { delta }, comparisons = [], { brief = BRIEF[0] } = {}) {
  const ratios = decisions.map((d) => situationRatios(d, cellsById, delta));
  const plainSituations = ratios.filter((s) => !s.sorting);
  const sortingSituations = ratios.filter((s) => s.sorting);
  const lines = [];
  const without = plainSituations.length ? withoutSortingRows(delta, plainSituations, comparisons) : null;
  if (without) lines.push(...without.rows);
  if (!without) {
    const compression = compressionLine(comparisons);
    if (compression) lines.push({ lead: 'Compression', text: `${compression}.` });
  }
  if (sortingSituations.length) {
    lines.push(sortingLine(decisions, cellsById, sortingSituations, delta, comparisons, brief));
  }
  if (without?.both) lines.push(without.both);
  // The words define every CM (cmScale): what was not measured names them only.
  // The N a CM's caching pairs lack are the caching grid's "not measured" cells: not said again.
  const missing = notMeasured([...cellsById.values()], { caching: false, defined: false });
  if (missing.length) lines.push({ lead: 'Not measured here', text: `${missing.join('; ')}.` });
  return { lines, plain: without?.choice ?? null, sorting: robustChoice(sortingSituations, delta), situations: ratios };
}

/**
 * How much sorting each CM is, from the catalogue: "CM1: one sort by one property; CM2–CM5: each
 * property sorted 1, 10, 100, 1,000 times".
 */
function cmScale() {
  const [first, ...rest] = CATALOGUE.computation_models.filter((m) => m.level > 0);
  const times = rest.map((m) => m.repetitions.toLocaleString('en-US')).join(', ');
  const span = `${rest[0].name}–${rest.at(-1).name}`;
  return `${first.name}: one sort by one property; ${span}: each property sorted ${times} times`;
}

/**
 * What a network is, in a few words: "browser and server on one machine", "each way, no added
 * delay (Chromium's throttling)", "1.60 Mbit/s each way, 150 ms round trip (the Linux kernel)".
 */
export function networkDefinition(name, shaping) {
  if (name === 'unthrottled') return 'browser and server on one machine';
  const how = shaping === 'netns' ? 'the Linux kernel' : shaping === 'cdp' ? "Chromium's throttling" : null;
  const profile = NETWORKS[name];
  if (!profile?.downBps) return 'a network this run names';
  const rate = `${(profile.downBps / 1e6).toFixed(profile.downBps < 1e7 ? 2 : 0)} Mbit/s`;
  const delay = profile.rttMs ? `, ${profile.rttMs} ms round trip` : ', no added delay';
  return `${networkName(name) === rate ? '' : `${rate} `}each way${delay}${how ? `, ${how}` : ''}`;
}

/**
 * The words the opening uses, defined before it uses them (five lines): the networks measured
 * and how they were made, what a situation and a configuration are, what a time covers and how
 * it is taken, the verdict words, and "certain".
 *
 * @param options {shaping ('cdp' or 'netns'), roundsRule (the lowest of the groups'
 *     stop.rounds_rule: from 2 every time is the configuration's own median)}
 */
export function glossary(cells, { delta, looks = null }, { shaping, roundsRule = 2 } = {}) {
  const names = [...new Set(cells.map((c) => c.cell.network))];
  const networkLine = names.map((name) => `${networkName(name)}: ${networkDefinition(name, shaping)}`).join('; ');
  const [certain, open] = wordsDefined(delta, looks);
  const time = `${
    roundsRule >= 2 ? 'its median' : "the fastest's median; another's, that × its ratio to it measured side by side"
  }; compare within a situation only (each measured at its own time)`;
  return [
    networkLine,
    `situation: data (Books or Videos), N (objects per answer), network, sorting (${cmScale()}); ` +
      'configuration: format, ' +
      'compression, sorting side; comparison: two configurations, measured in turns',
    `time: request start to data decoded (and sorted) in the browser; ${time}`,
    certain,
    open,
  ];
}

/**
 * How long the opening may be, counting every word a reader sees from the title to the contents
 * (the title, the first line and the heading as `title` words where the report does not count
 * them: answerFirst's titleWords): 25 words a situation beyond the first 297 (a larger run has
 * more to say in its bottom line), and at most 1,460, so that a quick plan's opening (12
 * situations) stays under 600 words and a thesis plan's under 1,500; a bottom line longer than
 * that leaves out what BRIEF lists. The situations, one by one, follow the contents.
 */
export const OPENING_WORDS = Object.freeze({ perSituation: 25, fixed: 297, most: 1460, title: 25 });

/** The section after the opening that answers each situation on its own, and what it says first. */
export const SITUATIONS_HEADING = 'Situation by situation';
export const SITUATIONS_NOTE =
  "Each situation's fastest configuration, then every other that was as fast or that the run could not yet " +
  'tell apart from it, the next slower ones up to three named in all, and the slowest; the rest, certainly ' +
  'slower, counted. Every × is a time over the ' +
  'situation\'s fastest, in the words of "What to choose". Its choices are the ones whose worst case was ' +
  'smallest; within one situation another configuration can be the fastest. Compare times within a ' +
  'situation only: each situation was measured at its own time.';

/** The leads of the opening's lists, as the report and the page show them. */
export const OPENING_LEADS = Object.freeze({
  short: 'In short (each pick: least time lost in its worst situation, nothing sorted):',
  answer: 'In numbers:',
  sure: 'How sure:',
  words: 'Words used:',
  bottom: 'Also:',
});

/**
 * The bottom line as the opening shows it: its answers, each one line in plain words (`short`:
 * "At 10 Mbit/s: Protobuf with GZIP."); the answers the answer list does not say already
 * (answerLines: where to sort, data already in the page), each a sentence for that list or, by
 * CM and N, a grid of its own; and, below the words, each row not said above under its topic
 * alone, with what the run measured for it (`lines`). A row answers where its lead is "topic:
 * answer" (bottomLine's rows); the others (what was not measured) come only below.
 */
function presented(bottom) {
  const topicOf = (line) => {
    const at = line.lead.indexOf(': ');
    return at < 0 ? null : line.lead.slice(0, at);
  };
  // Below the answers, a topic without what its answer already said of it in brackets.
  const topicOnly = ({ worst, ...line }) =>
    topicOf(line) ? { ...line, lead: topicOf(line).replace(/ \([^)]*\)/g, '') } : line;
  // A row's answer and those of the rows under it (what to do with data already in the page).
  const answering = bottom.lines.flatMap((line) => [line, ...(line.sub ?? [])]).filter(topicOf);
  // An answer by CM and N is a grid of its own under the answers; below the words, what the
  // grid's lead says already (where and how much was measured) is not said again.
  const below = ({ sub: all = [], grid, ...line }) => {
    const sub = all.filter((s) => !s.grid && s.text);
    return { ...topicOnly(line), ...(sub.length && { sub: sub.map(topicOnly) }) };
  };
  return {
    short: answering.map((line) => `${line.lead}.`),
    // In plain words, by how much is sorted (the words that define the CMs come after): where to
    // sort and what to do with data already in the page, for "In short".
    plain: answering.filter((line) => line.plain).map((line) => `${line.plain}.`),
    // Those neither the answer list nor "In short" says, as sentences of the list: the answer, each
    // CM with how much it sorts, and its counts where no grid gives them.
    sentences: answering
      .filter((line) => !line.inAnswer && !line.plain)
      .map((line) => `${cmsGlossed(line.lead)}${line.worst && !line.grid ? ` (${line.worst})` : ''}.`),
    grids: answering.filter((line) => line.grid).map((line) => line.grid),
    // A row said in full above (its answer and worst case) is left out.
    lines: bottom.lines
      .filter((line) => !line.inAnswer)
      .map(below)
      .filter((line) => line.text || line.sub),
  };
}

/**
 * A text's CMs each with how much it sorts, the first time each is named: "CM1 (one sort): either
 * side; CM4–CM5 (100 and 1,000 sorts per property): the server".
 */
export function cmsGlossed(text) {
  const named = new Set();
  const levelOf = (name) => CATALOGUE.computation_models.find((m) => m.name === name)?.level;
  const perProperty = (level) => / per property$/.test(cmAmount(level));
  return text.replace(/\b(CM\d)(?:–(CM\d))?\b(?! \()/g, (all, first, last) => {
    if (named.has(all)) return all;
    named.add(all);
    const [a, b] = [levelOf(first), levelOf(last)];
    if (!a || (last && !b)) return all;
    if (!last) return `${first} (${cmAmount(a)})`;
    // "100 to 1,000 sorts per property"; "one sort to 10 sorts per property".
    const from = perProperty(a) && perProperty(b) ? cmAmount(a).replace(/ sorts? per property$/, '') : cmAmount(a);
    return `${all} (${from} to ${cmAmount(b)})`;
  });
}

/** A Markdown table's rules as its words: a "|" around each cell of each line, and its "|---|" line. */
const tableRules = ({ header, rows }) => Array((rows.length + 1) * (header.length + 1) + 1).fill('|');

const wordCount = (texts) => texts.join(' ').split(/\s+/).filter(Boolean).length;

/**
 * The opening section — the bottom line (as long as OPENING_WORDS allows) and the words — and,
 * for the section after it, the situations' answers grouped into families of situations that
 * differ only in N, each naming up to three other configurations.
 *
 * @param decisions answers.js decisions (the stored judgments)
 * @param cells the runs' cells (read-runs.js)
 * @param judging the run's {delta, looks}
 * @param options {comparisons: answers.js comparisons on the report's one scale (for the bottom
 *     line), shaping: the run's ('cdp' or 'netns', for the words), titleWords: how many words
 *     the report's title, first line and heading take of the opening's)}
 */
export function answerFirst(
  decisions,
  cells,
  judging,
  { comparisons = [], breakEven = [], longer = null, shaping, titleWords = OPENING_WORDS.title } = {},
) {
  const cellsById = new Map(cells.map((c) => [c.case_id, c]));
  const roundsRule = decisions.every(ownMedians) ? 2 : 1;
  const words = glossary(cells, judging, { shaping, roundsRule });
  const answers = answerLines(decisions, cellsById, judging.delta, comparisons, breakEven, shaping);
  // Where the answers in short define each network as they name it, the words do not again.
  const networksDefined = answers.short.length > 0;
  const open = decisions.some((d) => situationAnswer(d, judging.delta).rows.some((r) => r.word === WORDS.OPEN));
  answers.avoid.push(...notYetCertain(open, longer));
  const budget =
    Math.min(OPENING_WORDS.most, OPENING_WORDS.fixed + OPENING_WORDS.perSituation * decisions.length) - titleWords;
  // What the reader sees in the opening: the leads, the bottom line, the words, and the report's
  // title and first line (about OPENING_WORDS.title).
  const fixedOf = (b, brief) => {
    const { grids: all, lines, sentences, plain } = presented(b);
    const grids = brief.grids ? all : [];
    const short = [...answers.short, ...plain, ...answers.avoid];
    return [
      ...Object.values(OPENING_LEADS),
      ...answers.lines,
      ...short,
      ...sentences,
      // Each grid's words, and its Markdown rules, which a count of report.md's words takes for words.
      ...grids.map((g) => g.table).flatMap((t) => [...t.header, ...t.rows.flat(), ...tableRules(t)]),
      ...grids.map((g) => g.lead),
      ...lines.flatMap((l) => [l, ...(l.sub ?? [])]).map((l) => `${l.lead}: ${l.text}`),
      ...words.slice(networksDefined ? 1 : 0),
    ];
  };
  // The bottom line in full, or, where it is longer than the opening may be, without its asides
  // (BRIEF): the RQ sections say them.
  let bottom = { lines: [] };
  let chosen = BRIEF[0];
  for (const brief of BRIEF) {
    if (!decisions.length) break;
    bottom = bottomLine(decisions, cellsById, judging, comparisons, { brief });
    chosen = brief;
    if (wordCount(fixedOf(bottom, brief)) <= budget) break;
  }
  // The bottom line's sorting row defines the CMs measured: the families name them only, and
  // "sorting CM1" beside them tells the others apart without "nothing sorted".
  const defined = bottom.lines.some((l) => l.lead.startsWith('Where to sort'));
  const familyShort = (family) =>
    defined
      ? CATALOGUE.computation_models
          .filter((m) => m.level > 0)
          .reduce(
            (words, m) => words.replace(`, ${computationWords(m.level)}`, `, sorting ${m.name}`),
            family.replace(/, nothing sorted$/, ''),
          )
      : family;
  // Each situation, after the opening: its fastest, every other as fast or not yet told apart
  // from it, and the slowest by name (at least MOST_NAMED), the rest counted.
  const situations = decisions.map((d) => {
    const near = situationAnswer(d, judging.delta).rows.filter((r) => r.word !== WORDS.SLOWER).length;
    const p = situationParagraph(d, cellsById, judging.delta, Math.max(MOST_NAMED, near + 1));
    return { ...p, family: familyShort(p.family) };
  });
  const families = familiesOf(situations);
  const shown = presented(bottom);
  // The formats to avoid close the answers in short.
  const short = [...answers.short, ...shown.plain, ...answers.avoid];
  return {
    // "In numbers" only where a line below has some: what was not measured alone is the scope.
    leads: {
      ...OPENING_LEADS,
      ...(shown.lines.every((l) => l.lead === 'Not measured here') && { bottom: 'Scope:' }),
    },
    // The answers in a few plain words each, first: each network's pick, the one for both, the
    // formats to avoid, where to sort and data in the page (answerLines, the grids' plainRule).
    short,
    // The answers in numbers, a sentence per case (answerLines, then the bottom line's others).
    answer: [...answers.lines, ...shown.sentences],
    in_short: shown.short,
    // The answers by CM and N (where to sort, data already in the page), each a grid under the answer.
    // Where the opening has no room for them, the grids are left out: the answers in short say
    // them in words, and the RQ sections give each comparison.
    in_short_grids: chosen.grids ? shown.grids : [],
    bottom_line: shown.lines,
    robust: { plain: bottom.plain ?? null, sorting: bottom.sorting ?? null },
    situation_ratios: bottom.situations ?? [],
    // The verdict words, right under the answer that first uses them; the rest of the words after
    // the grids.
    words: words.slice(networksDefined ? 1 : 0, -2),
    sure: words.slice(-2),
    situations,
    // Each situation with every configuration named, for one asked about on its own (the page).
    full_sentences: decisions.map((d) => situationParagraph(d, cellsById, judging.delta).sentence),
    // The situations' own section, after the opening: its heading and what it says first.
    situations_section: { heading: SITUATIONS_HEADING, note: SITUATIONS_NOTE },
    families,
    paragraphs: families.map(familyText),
  };
}

/**
 * The situations grouped by family (situations that differ only in N), in the order first met:
 * [{family, texts}], which the report shows as the family's line with one item per N.
 */
function familiesOf(situations) {
  const families = new Map();
  for (const s of situations) {
    if (!families.has(s.family)) families.set(s.family, []);
    families.get(s.family).push(s.text);
  }
  return [...families].map(([family, texts]) => ({ family, texts }));
}

/** A family as one paragraph of text (report-data.json's `opening.paragraphs`). */
const familyText = ({ family, texts }) => `${family}. ${texts.join(' ')}`;

// The report's opening: a bottom line true for this run (the robust choice across its situations,
// where compression pays, where sorting belongs, and what the run did not measure), the words it
// uses, defined before they are used, and then for each measured situation a short answer in plain
// words: the fastest configuration with its time and what the others cost (the words and their
// rules: common/answer-words.js, which the page's "Compare configurations" shares).

import { CATALOGUE, compressionLabel, defaultLevel, formatLabel } from '#common/catalogue.js';
import { completeCell, inFamily, scenarioOf } from '#common/cell.js';
import { choiceWords, robustChoice, situationRatios, slowdownWords } from '#common/bottom-line.js';
import {
  MOST_NAMED,
  WORDS,
  configurationWords,
  listWords,
  network,
  objects,
  scopeWords,
  situationAnswer,
  situationParagraph,
  wordsDefined,
} from '#common/answer-words.js';
import { NETWORKS } from '#common/network-profiles.js';
import { PROTOCOL_NAMES, protocolLabel } from '#common/protocols.js';
import { speedText } from './compression.js';

export { ms } from '#common/answer-words.js';

/** The source study's object counts (docs/method.md): what a run that measured fewer left out. */
export const SOURCE_COUNTS = Object.freeze([10, 100, 1000, 10000, 100000]);

/**
 * What the run did not measure, against the catalogue, the source's N and the lab's protocols and
 * networks: "CBOR and MessagePack; deflate, Brotli and zstd; CM2, CM4 and CM5; …".
 */
export function notMeasured(cells) {
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
  const cms = CATALOGUE.computation_models
    .filter((m) => m.level > 0 && !sorted.some((c) => c.cm === m.level))
    .map((m) => m.name);
  const counts = SOURCE_COUNTS.filter((n) => !has('count', n));
  const protocols = PROTOCOL_NAMES.filter((p) => !has('protocol', p)).map((p) =>
    protocolLabel(p).replace(/ \(.*\)$/, ''),
  );
  const networks = Object.entries(NETWORKS)
    .filter(([name]) => !has('network', name))
    .map(([, profile]) => profile.title.replace(/^(DevTools|WebPageTest) /, ''));
  const list = (items) => items.join(', ');
  return [
    formats.length ? list(formats) : null,
    compressions.length ? list(compressions) : null,
    cms.length ? `${list(cms)} sorting` : null,
    counts.length ? `N = ${list(counts.map((n) => n.toLocaleString('en-US')))}` : null,
    protocols.length ? list(protocols) : null,
    networks.length ? `slower links (${list(networks)})` : null,
  ].filter(Boolean);
}

/**
 * Where compression pays, from the break-even rows (compression.js breakEvens) of one format:
 * "for JSON, GZIP pays on links slower than about 30.7 Mbit/s (10 Videos) to 183 Mbit/s (1,000
 * Videos)"; null without rows.
 */
function compressionLine(breakEven, format) {
  const rows = breakEven.filter((r) => r.format === format && r.break_even_mbps !== null);
  if (!rows.length) return null;
  const byCompression = new Map();
  for (const r of rows) {
    const name = compressionLabel(r.compression, r.level);
    if (!byCompression.has(name)) byCompression.set(name, []);
    byCompression.get(name).push(r);
  }
  const where = (r) => objects({ object: r.object, count: r.count });
  const parts = [...byCompression].map(([name, list]) => {
    const sorted = [...list].sort((x, y) => x.break_even_mbps - y.break_even_mbps);
    const [low, high] = [sorted[0], sorted.at(-1)];
    if (high.break_even_mbps === 0) return `${name} never pays (it saves no bytes)`;
    if (low.break_even_mbps === Infinity) return `${name} pays at every speed measured`;
    if (low === high)
      return `${name} pays on links slower than about ${speedText(low.break_even_mbps)} (${where(low)})`;
    // Where it pays at every speed, that is said apart: "slower than" a speed would not be.
    const upper =
      high.break_even_mbps === Infinity
        ? `, and at any speed for ${where(high)}`
        : ` to ${speedText(high.break_even_mbps)} (${where(high)})`;
    return `${name} pays on links slower than about ${speedText(low.break_even_mbps)} (${where(low)})${upper}`;
  });
  return `for ${formatLabel(format)}, ${listWords(parts)}`;
}

/**
 * Without break-even rows (no unthrottled compression against none, or no body sizes): per
 * network, in how many situations without sorting the fastest was compressed.
 */
function compressedCounts(decisions, cellsById, delta) {
  if (!decisions.length) return null;
  const byNetwork = new Map();
  for (const d of decisions) {
    const fastest = completeCell(cellsById.get(situationAnswer(d, delta).fastest).cell);
    if (!byNetwork.has(d.network)) byNetwork.set(d.network, []);
    byNetwork.get(d.network).push(fastest.compression !== 'none');
  }
  const parts = [...byNetwork].map(
    ([name, compressed]) => `${compressed.filter(Boolean).length} of ${compressed.length} ${network(name)}`,
  );
  return `the fastest was compressed in ${listWords(parts)}`;
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

/** A network's words without "at"/"on": "10 Mbit/s", "unthrottled", "WebPageTest LTE". */
const networkName = (name) => network(name).replace(/^(at|on) /, '');

/**
 * The robust choice among the situations without sorting: per network where there are several
 * (the reader's network decides), then one for all of them; the formats to avoid.
 */
function withoutSortingLine(decisions, cellsById, delta, situations) {
  const plain = robustChoice(situations);
  const networks = [...new Set(situations.map((s) => s.network))];
  const perNetwork =
    networks.length > 1
      ? networks.map((name) => {
          const choice = robustChoice(situations.filter((s) => s.network === name));
          const strip = (words) => words.replace(` ${network(name)}`, '');
          const label = name === 'unthrottled' ? 'unthrottled (one machine)' : network(name);
          return `${label}: ${choiceWords(choice, strip)}`;
        })
      : [];
  const avoid = alwaysSlower(
    decisions.filter((d) => d.cm === 0),
    cellsById,
    delta,
  ).map(({ format }) => formatLabel(format));
  const all = networks.length === 2 ? 'both networks' : `all ${networks.length} networks`;
  const text =
    networks.length > 1
      ? `${perNetwork.join('; ')}. One choice for ${all}: ${choiceWords(plain)}.`
      : `${choiceWords(plain)}.`;
  return {
    choice: plain,
    text: `${text}${avoid.length ? ` ${listWords(avoid)}: certainly slower than the fastest everywhere.` : ''}`,
  };
}

/**
 * Where sorting belongs: the best configuration of each side, by its worst ratio to the fastest;
 * how often the better side was certainly faster, as fast, or not yet told apart from the other's
 * best, situation by situation; and what the sorting groups measured.
 */
function sortingLine(decisions, cellsById, situations, delta) {
  const cellOf = (id) => completeCell(cellsById.get(id).cell);
  const sortingDecisions = decisions.filter((d) => d.cm > 0);
  const sortingCells = sortingDecisions
    .flatMap((d) => [d.fastest_case_id, ...d.others.map((o) => o.case_id)])
    .map(cellOf);
  const side = (computes) =>
    robustChoice(
      situations.map((s) => ({
        ...s,
        ratios: Object.fromEntries(Object.entries(s.ratios).filter(([c]) => c.endsWith(`, ${computes} sorting`))),
      })),
    );
  const [server, browser] = [side('server'), side('browser')];
  // One network for every sorting situation: the worst cases need not name it.
  const networks = [...new Set(situations.map((s) => s.network))];
  const where = networks.length === 1 ? (words) => words.replace(` ${network(networks[0])}`, '') : (words) => words;
  const scope = `Measured only for ${scopeWords(sortingCells, { cmWords: true })}.`;
  if (!server || !browser) return `${scope} ${choiceWords(robustChoice(situations), where)}.`;
  const serverBetter = server.worst_ratio <= browser.worst_ratio;
  const [better, worse, place, computes] = serverBetter
    ? [server, browser, 'on the server', 'server']
    : [browser, server, 'in the browser', 'browser'];
  // Per situation: the better side's best against the other side's best, in the four words.
  const outcomes = { certain: 0, tie: 0, open: 0 };
  for (const d of sortingDecisions) {
    const answer = situationAnswer(d, delta);
    const rows = [{ case_id: answer.fastest, word: WORDS.FASTEST }, ...answer.rows];
    const sideOf = (r) => scenarioOf(cellOf(r.case_id)).computes;
    const first = rows.find((r) => sideOf(r) === computes);
    const other = rows.find((r) => sideOf(r) !== computes);
    if (!first || !other) continue;
    if (first.word !== WORDS.FASTEST) outcomes.open += 1;
    else if (other.word === WORDS.SLOWER) outcomes.certain += 1;
    else if (other.word === WORDS.AS_FAST) outcomes.tie += 1;
    else outcomes.open += 1;
  }
  const n = outcomes.certain + outcomes.tie + outcomes.open;
  const counts = [
    `certainly faster in ${outcomes.certain} of ${n} situations`,
    ...(outcomes.tie ? [`as fast in ${outcomes.tie}`] : []),
    ...(outcomes.open ? [`can't tell yet in ${outcomes.open}`] : []),
  ];
  const otherSide = computes === 'server' ? 'browser' : 'server';
  return (
    `${scope} Sort ${place}: ${choiceWords(better, where)}; the ${otherSide}'s best at worst ` +
    `${slowdownWords(worse.worst_ratio)} (${where(worse.worst_situation)}). The ${computes} was ` +
    `${listWords(counts)}.`
  );
}

/**
 * The bottom line: at most five lines, each true for this run — the configuration to choose
 * without sorting (the robust choice, per network and across them) and what to avoid, where
 * compression pays, where sorting belongs, and what the run did not measure.
 *
 * @param decisions answers.js decisions
 * @param cellsById case id → the run's cell
 * @param judging {delta}
 * @param breakEven compression.js breakEvens rows
 * @returns {lines: [{lead, text}], plain, sorting, situations}: the robust choices and each
 *     situation's ratios (bottom-line.js situationRatios), for the page
 */
export function bottomLine(decisions, cellsById, { delta }, breakEven = []) {
  const ratios = decisions.map((d) => situationRatios(d, cellsById, delta));
  const plainSituations = ratios.filter((s) => !s.sorting);
  const sortingSituations = ratios.filter((s) => s.sorting);
  const lines = [];
  let plain = null;
  if (plainSituations.length) {
    const line = withoutSortingLine(decisions, cellsById, delta, plainSituations);
    plain = line.choice;
    lines.push({ lead: 'Without sorting', text: line.text });
  }
  const chosenFormat = plain
    ? [...cellsById.values()]
        .map((c) => completeCell(c.cell))
        .find((c) => c.cm === 0 && configurationWords(c) === plain.configuration)?.format
    : null;
  const compression =
    (chosenFormat ? compressionLine(breakEven, chosenFormat) : null) ??
    compressedCounts(
      decisions.filter((d) => d.cm === 0),
      cellsById,
      delta,
    );
  if (compression) lines.push({ lead: 'Compression', text: `${compression}.` });
  if (sortingSituations.length)
    lines.push({ lead: 'Sorting', text: sortingLine(decisions, cellsById, sortingSituations, delta) });
  const missing = notMeasured([...cellsById.values()]);
  if (missing.length) lines.push({ lead: 'Not measured here', text: `${missing.join('; ')}.` });
  return { lines, plain, sorting: robustChoice(sortingSituations), situations: ratios };
}

/**
 * The words the opening uses, defined before it uses them (five lines): the networks measured,
 * what a situation and a configuration are, what a time covers and how it is read, the four
 * verdict words, and "certain".
 */
export function glossary(cells, { delta }) {
  const names = [...new Set(cells.map((c) => c.cell.network))];
  const networkLine = names
    .map((name) => {
      if (name === 'unthrottled') return 'unthrottled: browser and server on one machine';
      const profile = NETWORKS[name];
      if (!profile?.downBps) return `${networkName(name)}: a network this run names`;
      const rate = `${(profile.downBps / 1e6).toFixed(profile.downBps < 1e7 ? 2 : 0)} Mbit/s`;
      const delay = profile.rttMs ? ` and ${profile.rttMs} ms round trip` : '';
      return `${networkName(name)}: a ${rate} link each way${delay}`;
    })
    .join('; ');
  const [verdicts, certain] = wordsDefined(delta);
  return [
    networkLine,
    'situation: the data, N (objects per answer), the network and the sorting; configuration: format, ' +
      'compression and which side sorts',
    "time: the median from request start to data decoded (and sorted) in the browser; another's is the " +
      "fastest's × its ratio to it. Compare within a situation only",
    verdicts,
    certain,
  ];
}

/**
 * How long the opening may be, counting its bottom line, words and situations: about 33 words a
 * situation beyond the first 130, and at most 1,420 (with its first line and headings, a quick
 * plan's opening stays under 600 words and a thesis plan's under 1,500).
 */
export const OPENING_WORDS = Object.freeze({ perSituation: 33, fixed: 130, most: 1420 });

const wordCount = (texts) => texts.join(' ').split(/\s+/).filter(Boolean).length;

/**
 * The opening section: the bottom line, the words, and the situations' answers grouped into
 * families of situations that differ only in N. Each situation names up to three other
 * configurations, as many as OPENING_WORDS allows (down to none: then only the fastest and a
 * count), the situations that could not be settled first.
 *
 * @param decisions answers.js decisions (the stored judgments)
 * @param cells the runs' cells (read-runs.js)
 * @param judging the run's {delta, looks}
 * @param breakEven compression.js breakEvens rows (for the bottom line)
 */
export function answerFirst(decisions, cells, judging, breakEven = []) {
  const cellsById = new Map(cells.map((c) => [c.case_id, c]));
  const bottom = decisions.length ? bottomLine(decisions, cellsById, judging, breakEven) : { lines: [] };
  const words = glossary(cells, judging);
  const budget = Math.min(OPENING_WORDS.most, OPENING_WORDS.fixed + OPENING_WORDS.perSituation * decisions.length);
  const fixedText = [...bottom.lines.map((l) => `${l.lead}: ${l.text}`), ...words];
  const familyLeads = (families) => families.map((f) => f.family);
  // Every situation first names none of its other configurations; then, while the budget lasts,
  // each names one more — the situations the run could not settle first (their "can't tell yet"
  // and "as fast" ones are what a reader most needs named), then the rest — up to MOST_NAMED.
  const named = decisions.map(() => 0);
  const paragraph = (i) => situationParagraph(decisions[i], cellsById, judging.delta, named[i]);
  const situations = decisions.map((_, i) => paragraph(i));
  const total = () =>
    wordCount([...fixedText, ...familyLeads(familiesOf(situations)), ...situations.map((x) => x.text)]);
  const priority = { open: 0, tie: 1, fastest: 2 };
  const order = decisions
    .map((_, i) => i)
    .sort((x, y) => priority[situations[x].numbers.kind] - priority[situations[y].numbers.kind] || x - y);
  for (let round = 1; round <= MOST_NAMED; round++) {
    for (const i of order) {
      if (named[i] !== round - 1) continue;
      named[i] = round;
      const before = situations[i];
      situations[i] = paragraph(i);
      if (total() >= budget) {
        named[i] = round - 1;
        situations[i] = before;
      }
    }
  }
  const families = familiesOf(situations);
  return {
    bottom_line: bottom.lines,
    robust: { plain: bottom.plain ?? null, sorting: bottom.sorting ?? null },
    situation_ratios: bottom.situations ?? [],
    words,
    situations,
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

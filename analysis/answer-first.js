// The report's opening: for each measured situation one short paragraph in plain words that
// names the fastest configuration with its time and what the alternatives cost (the words and
// their rules: common/answer-words.js, which the page's "Compare configurations" shares), and a
// short "in general" paragraph of what held across situations, each sentence counting the
// situations it speaks of.

import { defaultDecoder, formatLabel } from '#common/catalogue.js';
import { VERDICTS } from '#common/comparison.js';
import { completeCell, scenarioOf } from '#common/cell.js';
import { NO_CLEAR_WINNER } from '#common/judge.js';
import { MATCHED_MARK, MOST_NAMED, network, percent, situationParagraph } from '#common/answer-words.js';

export { ms } from '#common/answer-words.js';

/** What held across situations, in sentences that count situations (each true for this run). */
export function inGeneral(decisions, cellsById) {
  const cellOf = (id) => completeCell(cellsById.get(id).cell);
  const sentences = [];
  const clear = decisions.filter((d) => d.recommendation !== NO_CLEAR_WINNER);
  sentences.push(
    `A configuration was clearly the fastest in ${clear.length} of ${decisions.length} situations; ` +
      'in the others the fastest were too close to call.',
  );
  const byNetwork = new Map();
  for (const d of decisions.filter((x) => x.cm === 0)) {
    const key = d.network;
    if (!byNetwork.has(key)) byNetwork.set(key, []);
    byNetwork.get(key).push(cellOf(d.fastest_case_id));
  }
  for (const [name, fastest] of byNetwork) {
    const compressed = fastest.filter((c) => c.compression !== 'none').length;
    const formats = [...new Set(fastest.map((c) => formatLabel(c.format, c.decoder)))];
    sentences.push(
      `With nothing computed ${network(name)}, the fastest was compressed in ${compressed} of ` +
        `${fastest.length} situations, and was ${formats.join(' or ')}.`,
    );
  }
  // A format every configuration of which was clearly slower than the fastest, situation by situation.
  const measured = [...new Set([...cellsById.values()].map((c) => c.cell.format))];
  for (const format of measured) {
    const where = decisions.filter((d) => d.others.some((o) => cellOf(o.case_id).format === format));
    const clearlySlower = where.filter(
      (d) =>
        cellOf(d.fastest_case_id).format !== format &&
        d.others.filter((o) => cellOf(o.case_id).format === format).every((o) => o.verdict === VERDICTS.B_FASTER),
    );
    if (where.length && clearlySlower.length === where.length)
      sentences.push(
        `${formatLabel(format, defaultDecoder(format))} was clearly slower than the fastest in all ` +
          `${where.length} situations it was measured in.`,
      );
  }
  const computed = decisions.filter((d) => d.cm > 0);
  if (computed.length) {
    const server = computed.filter((d) => scenarioOf(cellOf(d.fastest_case_id)).computes === 'server');
    const clearServer = server.filter((d) => d.recommendation !== NO_CLEAR_WINNER);
    sentences.push(
      `Where the data had to be sorted, the server sorting was the fastest in ${server.length} of ` +
        `${computed.length} situations (clearly in ${clearServer.length}).`,
    );
  }
  return sentences.join(' ');
}

/** How long the opening may be: about 47 words a situation, and at most 1,450 in all. */
export const OPENING_WORDS = Object.freeze({ perSituation: 47, most: 1450 });

const wordCount = (texts) => texts.join(' ').split(/\s+/).filter(Boolean).length;

/**
 * The opening section: the situations' answers grouped into families of situations that differ
 * only in N, the "in general" paragraph, and how to read them (the terms used, in words). Each situation
 * names up to three other configurations; where that would make the opening longer than
 * OPENING_WORDS allows, each names fewer (down to none: then only the fastest and a count).
 *
 * @param decisions answers.js decisions (the stored judgments, in words)
 * @param cells the runs' cells (read-runs.js)
 * @param judging the run's {delta, looks}
 */
export function answerFirst(decisions, cells, { delta }) {
  const cellsById = new Map(cells.map((c) => [c.case_id, c]));
  const general = decisions.length ? inGeneral(decisions, cellsById) : '';
  const reading =
    'Times are medians, from request start to data decoded (and sorted) in the browser. +X ms: more than ' +
    'the fastest. k× slower: clearly slower, over the rounds both ran in (' +
    `${MATCHED_MARK}: the overall medians differ by over 2 %). About as fast: within ±${percent(delta)}. ` +
    'Not clearly slower: this run cannot tell.';
  const budget = Math.min(OPENING_WORDS.most, OPENING_WORDS.perSituation * Math.max(decisions.length, 1));
  let situations = [];
  let families = [];
  for (let named = MOST_NAMED; named >= 0; named -= 1) {
    situations = decisions.map((d) => situationParagraph(d, cellsById, named));
    families = familiesOf(situations);
    if (wordCount([...families.map(familyText), `In general: ${general}`, reading]) < budget) break;
  }
  return { situations, families, paragraphs: families.map(familyText), general, reading };
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

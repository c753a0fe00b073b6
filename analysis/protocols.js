// Where the protocol changes the answer (docs/protocols.md): for each situation measured over
// more than one protocol (cleartext HTTP/1.1, HTTP/1.1 over TLS, HTTP/2 over TLS), whether the
// configurations its groups left standing — the recommended one, or every one not clearly slower
// when there is no clear winner — are the same. Read from the decisions the groups stopped on
// (answers.js decisions); nothing is judged again. Each protocol's situation is its own group,
// run one after the other, so the fastest medians of two protocols are not an interleaved
// comparison: they are shown as measured, with that caution.

import { completeCell } from '#common/cell.js';
import { NO_CLEAR_WINNER } from '#common/judge.js';
import { DEFAULT_PROTOCOL, PROTOCOL_NAMES, protocolLabel } from '#common/protocols.js';
import { ms, situationWords } from '#common/answer-words.js';

/** The configurations a decision leaves standing: the recommended one, or all not clearly slower. */
const standing = (d) => (d.recommendation === NO_CLEAR_WINNER ? d.no_clear_winner_among : [d.recommendation]);

/**
 * How two protocols' decisions on one situation relate: 'same' (the same configurations left
 * standing), 'changes' (none in common: what one recommends is clearly slower on the other), or
 * 'differs' (some in common: a winner on one is among the close ones on the other).
 */
export function relation(a, b) {
  const [sa, sb] = [standing(a), standing(b)];
  if (sa.length === sb.length && sa.every((c) => sb.includes(c))) return 'same';
  return sa.some((c) => sb.includes(c)) ? 'differs' : 'changes';
}

/**
 * The situations measured over two or more protocols, each with its decision per protocol and how
 * each protocol's relates to cleartext HTTP/1.1's (or to the first protocol measured).
 *
 * @param decisions answers.js decisions
 * @param cells the runs' cells (read-runs.js): each decision's protocol is its fastest cell's
 * @returns [{situation, words, by_protocol: [{protocol, recommendation, standing, fastest,
 *     median_ms, settled}], against, relations: [{protocol, relation}], changes}]
 */
export function protocolEffects(decisions, cells) {
  const cellsById = new Map(cells.map((c) => [c.case_id, c]));
  const situations = new Map();
  for (const d of decisions) {
    const cell = completeCell(cellsById.get(d.fastest_case_id).cell);
    const key = `${d.object}/${d.count}/${d.network}/cm${d.cm}`;
    if (!situations.has(key)) situations.set(key, { cell, by: new Map() });
    situations.get(key).by.set(cell.protocol, d);
  }
  const effects = [];
  for (const [key, { cell, by }] of situations) {
    if (by.size < 2) continue;
    const protocols = PROTOCOL_NAMES.filter((p) => by.has(p));
    const against = protocols[0];
    const relations = protocols.slice(1).map((p) => ({ protocol: p, relation: relation(by.get(against), by.get(p)) }));
    effects.push({
      situation: key,
      words: situationWords({ ...cell, protocol: DEFAULT_PROTOCOL }),
      by_protocol: protocols.map((p) => {
        const d = by.get(p);
        return {
          protocol: p,
          recommendation: d.recommendation,
          standing: standing(d),
          fastest: d.fastest,
          median_ms: d.median_ms,
          settled: d.settled,
        };
      }),
      against,
      relations,
      changes: relations.some((r) => r.relation === 'changes'),
    });
  }
  return effects;
}

/** One situation's sentence: what each protocol recommends, and whether that changes. */
function effectSentence(effect) {
  // In the opening's words: only a configuration certainly slower is left out of what stands.
  const choice = (p) => {
    const others = p.standing.filter((c) => c !== p.fastest);
    return others.length
      ? `${p.fastest} (${ms(p.median_ms)}) looked fastest, ${others.join('; ')} not certainly slower`
      : `${p.fastest} (${ms(p.median_ms)}), fastest`;
  };
  const parts = effect.by_protocol.map((p) => `${protocolLabel(p.protocol)}: ${choice(p)}`);
  const verdicts = effect.relations.map(({ protocol, relation }) => {
    const what = {
      same: 'the same choice as',
      differs: 'an overlapping choice with',
      changes: 'a different choice from',
    }[relation];
    return `${protocolLabel(protocol)} gives ${what} ${protocolLabel(effect.against)}`;
  });
  const unsettled = effect.by_protocol.some((p) => !p.settled) ? " (some can't tell yet: another run may differ)" : '';
  return `${effect.words}: ${parts.join('; ')}. ${verdicts.join('; ')}${unsettled}.`;
}

/**
 * The report's paragraphs on the protocol, or [] when no situation was measured over two: where it
 * changes the recommendation first, then where it does not.
 */
export function protocolParagraphs(decisions, cells) {
  const effects = protocolEffects(decisions, cells);
  if (!effects.length) return [];
  const changed = effects.filter((e) => e.changes);
  const overlapping = effects.filter((e) => !e.changes && e.relations.some((r) => r.relation === 'differs'));
  const head =
    `The protocol changed the recommendation in ${changed.length} of ${effects.length} situations measured over ` +
    `more than one protocol, and narrowed or widened the close ones in ${overlapping.length}. Each protocol's ` +
    'situation is its own comparison group, run after the other: their medians are not interleaved with each ' +
    "other, so compare the protocols' times only roughly.";
  return [head, ...[...changed, ...overlapping].map(effectSentence)];
}

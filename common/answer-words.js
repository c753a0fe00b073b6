// A measured situation and its answer in the words a web developer uses, shared by the report's
// opening (analysis/answer-first.js) and the page's "Compare configurations": the fastest
// configuration with its time, and what each other one costs. Every number comes from a group's
// decision (common/judge.js) by one rule each, so a test can recompute it:
//   time      the fastest configuration's median over all its samples (decision.median_ms)
//   +X ms     another configuration's median minus the fastest's (the cells' own medians)
//   k× slower the ratio of the two medians over the rounds both were measured in (the margin the
//             group judged), shown only where that margin is clear: its CI wholly above 1 + δ;
//             where it differs from the ratio of the overall medians by more than 2 %, the text
//             says which it is
// Ratios always read "X is k× slower than Y" (or "k× faster"), k ≥ 1; "about as fast" is an
// equivalent margin (its CI inside 1 ± δ); anything else is "not clearly different in this run".

import { CATALOGUE, compressionLabel, formatLabel } from './catalogue.js';
import { completeCell, scenarioOf } from './cell.js';
import { VERDICTS } from './comparison.js';
import { NETWORKS } from './network-profiles.js';
import { NO_CLEAR_WINNER } from './judge.js';
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
  const ci = Number.isFinite(a) && Number.isFinite(b) ? ` (95 % CI ${a.toFixed(2)}–${b.toFixed(2)})` : '';
  return `${x} is ${k.toFixed(2)}× ${slower ? 'slower' : 'faster'} than ${y}${ci}`;
}

/** Whether a matched-rounds ratio and the ratio of the overall medians differ by more than 2 %. */
export const matchedDiffers = (matched, medians) => Math.abs(matched / medians - 1) > 0.02;

/** Marks a ratio of matched rounds that differs from the ratio of the overall medians. */
export const MATCHED_MARK = '†';

/**
 * What one other configuration takes beyond the fastest (ms): over the rounds both ran where the
 * judgment says (extra_ms, from fastest_rule 2), else the difference of the overall medians.
 */
const extraOf = (other, fastestMs) => other.extra_ms ?? other.median_ms - fastestMs;

/** What one other configuration costs against the fastest, in words. */
function costOf(other, fastestMs) {
  const extra = plus(extraOf(other, fastestMs));
  if (other.verdict === VERDICTS.EQUIVALENT) return `about as fast (${extra})`;
  if (other.verdict === VERDICTS.B_FASTER) {
    const note = matchedDiffers(other.ratio, other.median_ms / fastestMs) ? MATCHED_MARK : '';
    return `${extra} (${other.ratio.toFixed(2)}× slower${note})`;
  }
  return `${extra}, not clearly slower`;
}

/**
 * One situation's answer in words, with the numbers it shows (for tests): the fastest's time,
 * and per named configuration (at most `named`) its extra milliseconds and, where shown, its
 * ratio. `text` starts with its objects ("1,000 Books: …") for a paragraph of its family
 * (`family`, the situations that differ only in N); `sentence` names the whole situation.
 */
export function situationParagraph(decision, cellsById, named = MOST_NAMED) {
  const cellOf = (id) => completeCell(cellsById.get(id).cell);
  const fastest = cellOf(decision.fastest_case_id);
  const others = decision.others;
  const ordered = [
    ...others.filter((o) => o.verdict !== VERDICTS.B_FASTER),
    ...others.filter((o) => o.verdict === VERDICTS.B_FASTER),
  ];
  // The closest ones and, with room for two or more, the slowest: what choosing otherwise costs at most.
  const slowest = others.at(-1);
  let shown = ordered.slice(0, named);
  if (named > 1 && slowest && !shown.includes(slowest)) shown = [...shown.slice(0, named - 1), slowest];
  const left = others.filter((o) => !shown.includes(o));
  const leftClear = left.filter((o) => o.verdict === VERDICTS.B_FASTER).length;
  const winner = `${configurationWords(fastest)}, ${ms(decision.median_ms)}`;
  const opening =
    decision.recommendation === NO_CLEAR_WINNER
      ? `no clear winner; fastest ${winner}.`
      : `${winner}${others.length ? ' — clearly fastest' : ''}.`;
  const parts = shown.map((o) => {
    const words = configurationWords(cellOf(o.case_id));
    return `${words.charAt(0).toUpperCase()}${words.slice(1)}: ${costOf(o, decision.median_ms)}.`;
  });
  const rest = !left.length
    ? ''
    : leftClear === left.length
      ? ` ${left.length} more, all clearly slower.`
      : ` ${left.length} more, ${leftClear} clearly slower.`;
  const body = `${opening}${parts.length ? ` ${parts.join(' ')}` : ''}${rest}`;
  return {
    family: situationFamilyWords(fastest),
    text: `${objects(fastest)}: ${body}`,
    sentence: `${situationWords(fastest)}: ${body}`,
    numbers: {
      fastest_ms: decision.median_ms,
      others: shown.map((o) => ({
        case_id: o.case_id,
        extra_ms: extraOf(o, decision.median_ms),
        ratio: o.verdict === VERDICTS.B_FASTER ? o.ratio : null,
      })),
    },
  };
}

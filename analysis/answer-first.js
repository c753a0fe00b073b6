// The report's opening: for each measured situation one short paragraph in plain words that
// names the fastest configuration with its time and what the alternatives cost, and a short "in
// general" paragraph of what held across situations. Every number comes from the decisions its
// groups stopped on (common/judge.js, answers.js decisions) by one rule each, so a test can
// recompute it:
//   time      the fastest configuration's median over all its samples (decision.median_ms)
//   +X ms     another configuration's median minus the fastest's (the cells' own medians)
//   k× slower the ratio of the two medians over the rounds both were measured in (the margin the
//             group judged), shown only where that margin is clear: its CI wholly above 1 + δ
// Ratios always read "X is k× slower than the fastest"; "about as fast" is an equivalent margin
// (its CI inside 1 ± δ); anything else is "not clearly different in this run".

import { CATALOGUE, compressionLabel, formatLabel } from '#common/catalogue.js';
import { completeCell, scenarioOf } from '#common/cell.js';
import { VERDICTS } from '#common/comparison.js';
import { NETWORKS } from '#common/network-profiles.js';
import { NO_CLEAR_WINNER } from '#common/judge.js';
import { overProtocol } from '#common/protocols.js';

/** How many other configurations a situation's paragraph names at most (the rest are counted). */
const MOST_NAMED = 3;

/** δ as a reader sees it: 0.05 → "5 %". */
const percent = (delta) => `${Number((delta * 100).toFixed(2))} %`;

/** A time in ms with sense for its size: 4.30 ms, 41.0 ms, 299 ms, 1,234 ms. */
export function ms(value) {
  if (!Number.isFinite(value)) return '—';
  const digits = Math.abs(value) < 10 ? 2 : Math.abs(value) < 100 ? 1 : 0;
  return `${value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })} ms`;
}

/** A difference of times, signed: +7.0 ms. */
const plus = (value) => `${value >= 0 ? '+' : '−'}${ms(Math.abs(value))}`;

/** "1,000 Books", "10 Videos". */
function objects(cell) {
  const kind = CATALOGUE.objects.find((o) => o.name === cell.object);
  const noun = kind ? kind.label.replace(/ \(.*\)$/, '') : cell.object;
  return `${cell.count.toLocaleString('en-US')} ${cell.count === 1 ? noun.replace(/s$/, '') : noun}`;
}

/** "at 10 Mbit/s", "unthrottled", "on WebPageTest LTE". */
function network(name) {
  if (name === 'unthrottled') return 'unthrottled';
  if (name === '10mbit') return 'at 10 Mbit/s';
  return `on ${NETWORKS[name]?.title ?? name}`;
}

/** What CMk computes, in words: "sorted by each property 10 times (CM3)". */
export function computationWords(cm) {
  const model = CATALOGUE.computation_models.find((m) => m.level === cm);
  if (!model || cm === 0) return '';
  if (cm === 1) return 'sorted once by one property (CM1)';
  const times = model.repetitions === 1 ? 'once' : `${model.repetitions.toLocaleString('en-US')} times`;
  return `sorted by each property in turn, ${times} (${model.name})`;
}

/** A situation as a reader says it: "1,000 Books at 10 Mbit/s, sorted by each property … (CM3)". */
export function situationWords(cell) {
  const computation = computationWords(cell.cm);
  const where = `${network(cell.network)}${overProtocol(cell.protocol)}`;
  return `${objects(cell)} ${where}${computation ? `, ${computation}` : ''}`;
}

/** A configuration in words: "JSON with GZIP", "Protobuf without compression, the server sorting". */
export function configurationWords(cell) {
  const format = formatLabel(cell.format, cell.decoder);
  const compression =
    cell.compression === 'none' ? 'without compression' : `with ${compressionLabel(cell.compression, cell.level)}`;
  const computes = scenarioOf(cell).computes;
  const side = computes === 'none' ? '' : computes === 'server' ? ', sorted by the server' : ', sorted in the browser';
  return `${format} ${compression}${side}`;
}

/** What one other configuration costs against the fastest, in words. */
function costOf(other, fastestMs, delta) {
  const extra = plus(other.median_ms - fastestMs);
  if (other.verdict === VERDICTS.EQUIVALENT) return `about as fast (${extra}, within ${percent(delta)})`;
  if (other.verdict === VERDICTS.B_FASTER) return `${extra} (${other.ratio.toFixed(2)}× slower)`;
  return `${extra}, not clearly different in this run`;
}

/**
 * One situation's paragraph, with the numbers it shows (for tests): the fastest's time, and per
 * named configuration its extra milliseconds and, where shown, its ratio.
 */
export function situationParagraph(decision, cellsById, delta) {
  const cellOf = (id) => completeCell(cellsById.get(id).cell);
  const fastest = cellOf(decision.fastest_case_id);
  const others = decision.others;
  const named = [
    ...others.filter((o) => o.verdict !== VERDICTS.B_FASTER),
    ...others.filter((o) => o.verdict === VERDICTS.B_FASTER),
  ];
  // The closest clearly slower ones and the slowest: what choosing otherwise costs at most.
  const slowest = others.at(-1);
  let shown = named.slice(0, MOST_NAMED);
  if (slowest && !shown.includes(slowest)) shown = [...shown.slice(0, MOST_NAMED - 1), slowest];
  const left = others.filter((o) => !shown.includes(o));
  const leftClear = left.filter((o) => o.verdict === VERDICTS.B_FASTER).length;
  const head = `${situationWords(fastest)}: `;
  const winner = `${configurationWords(fastest)}, ${ms(decision.median_ms)}`;
  const opening =
    decision.recommendation === NO_CLEAR_WINNER
      ? `no clear winner; fastest ${winner}.`
      : `${winner}${others.length ? ' — clearly the fastest' : ''}.`;
  const parts = shown.map((o) => {
    const words = configurationWords(cellOf(o.case_id));
    return `${words.charAt(0).toUpperCase()}${words.slice(1)}: ${costOf(o, decision.median_ms, delta)}.`;
  });
  const rest = !left.length
    ? ''
    : leftClear === left.length
      ? ` ${left.length} more, each clearly slower.`
      : ` ${left.length} more (${leftClear} of them clearly slower).`;
  return {
    text: `${head}${opening}${parts.length ? ` ${parts.join(' ')}` : ''}${rest}`,
    numbers: {
      fastest_ms: decision.median_ms,
      others: shown.map((o) => ({
        case_id: o.case_id,
        extra_ms: o.median_ms - decision.median_ms,
        ratio: o.verdict === VERDICTS.B_FASTER ? o.ratio : null,
      })),
    },
  };
}

/** What held across situations, in sentences that count situations (each true for this run). */
export function inGeneral(decisions, cellsById) {
  const cellOf = (id) => completeCell(cellsById.get(id).cell);
  const sentences = [];
  const clear = decisions.filter((d) => d.recommendation !== NO_CLEAR_WINNER);
  sentences.push(
    `A configuration was clearly the fastest in ${clear.length} of ${decisions.length} situations; ` +
      'in the others the fastest ones were too close to tell apart in this run.',
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
      `With nothing computed ${network(name)}, the fastest configuration was compressed in ${compressed} of ` +
        `${fastest.length} situations and used ${formats.join(' or ')}.`,
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

/**
 * The opening section: a paragraph per situation, the "in general" paragraph, and how to read
 * them (the terms used, in words).
 *
 * @param decisions answers.js decisions (the stored judgments, in words)
 * @param cells the runs' cells (read-runs.js)
 * @param judging the run's {delta, looks}
 */
export function answerFirst(decisions, cells, { delta }) {
  const cellsById = new Map(cells.map((c) => [c.case_id, c]));
  const paragraphs = decisions.map((d) => situationParagraph(d, cellsById, delta));
  return {
    situations: paragraphs,
    general: decisions.length ? inGeneral(decisions, cellsById) : '',
    reading:
      'Times: median, request start to data decoded (and sorted) in the browser. "+X ms": another ' +
      'median minus the fastest. "k× slower": the ratio over the rounds both ran in, shown when its 95 % ' +
      `CI lies above 1 + ${percent(delta)}; "about as fast": within ±${percent(delta)}; ` +
      '"not clearly different": this run could not tell.',
  };
}

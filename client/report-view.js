// Shows a study run's report in the page: load the report-data.json that `npm run report` (and
// every `npx playwright test`) writes into the run directory, then read the answers, the
// source's conclusions, the charts, and ask the decision helper; rank the configurations by
// the weighted index with weights of one's own (recomputed as they change).

import { FIGURES, parseWeights, rankByIndex } from '#common/weighted-index.js';
import { capital, configurationWords, situationWords, topicItem } from '#common/answer-words.js';
import { choiceRow, robustChoice } from '#common/bottom-line.js';
import { judgingOf } from '#common/comparison.js';
import { SITUATION_DIMENSIONS } from '#common/cell.js';

// The situation's dimensions (common/cell.js): the decision helper's choices.
const FIELDS = SITUATION_DIMENSIONS;

function element(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

/** A table whose cells name their column (data-label), for a narrow screen's cards. */
function table(header, rows, className) {
  const t = element('table', undefined, className);
  const head = t.createTHead().insertRow();
  for (const h of header) head.append(element('th', h));
  const body = t.createTBody();
  for (const r of rows) {
    const tr = body.insertRow();
    r.forEach((v, i) => {
      const td = element('td', String(v));
      td.dataset.label = header[i] ?? '';
      tr.append(td);
    });
  }
  return t;
}

/** The decision helper: the fastest measured configuration for a situation, and its margin. */
export function decide(decisions, { object, count, network, cm }) {
  return (
    decisions.find((d) => d.object === object && d.count === count && d.network === network && d.cm === cm) ?? null
  );
}

/** One other configuration against the fastest: its ratio over the rounds both ran, one way up. */
function timesAgainstFastest(other) {
  const ratio = Number.isFinite(other.ratio) ? other.ratio : other.times_slower;
  return ratio >= 1
    ? `${other.configuration} ${ratio.toFixed(2)}× slower`
    : `${other.configuration} ${(1 / ratio).toFixed(2)}× faster`;
}

/**
 * A decision in a sentence; `judging` is the report's {delta, looks} (reports from before it was
 * recorded were judged at the default stop rule's).
 */
export function describeDecision(decision, { delta, looks } = judgingOf(undefined)) {
  if (!decision) return 'Not measured in this run: choose a situation from the lists.';
  const others = decision.others.map((o) => timesAgainstFastest(o)).join('; ');
  const fastest =
    `Fastest: ${decision.fastest} (median ${decision.median_ms.toFixed(2)} ms)` +
    `${others ? `. Then: ${others}.` : '.'}`;
  if (!decision.recommendation) return fastest;
  if (decision.recommendation === 'no clear winner') {
    const settled = looks > 1 ? ` at ${looks} looks in a row` : '';
    return (
      `No clear winner among ${decision.no_clear_winner_among.join('; ')} ` +
      '(none of them clearly slower than the fastest: ' +
      `the CI of its ratio to the fastest not wholly above ${Number((1 + delta).toFixed(4))}${settled}). ${fastest}`
    );
  }
  const m = decision.margin;
  return `Recommended: ${decision.recommendation}${
    m
      ? `, ${m.ratio.toFixed(2)}× faster than ${m.over} ` + `(95% CI ${m.ci_low.toFixed(2)}–${m.ci_high.toFixed(2)})`
      : ''
  }. ${fastest}`;
}

function decisionHelper(report) {
  const form = element('form', undefined, 'decision');
  const selects = {};
  for (const field of FIELDS) {
    const values = [...new Set(report.decisions.map((d) => d[field]))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const label = element('label', field === 'cm' ? 'CM' : field === 'count' ? 'N' : field);
    const select = element('select');
    select.name = field;
    for (const value of values)
      select.append(
        Object.assign(element('option', field === 'cm' ? `CM${value}` : String(value)), { value: String(value) }),
      );
    label.append(select);
    form.append(label);
    selects[field] = select;
  }
  const answer = element('p', '', 'decision-answer');
  const update = () => {
    const situation = {
      object: selects.object.value,
      network: selects.network.value,
      count: Number(selects.count.value),
      cm: Number(selects.cm.value),
    };
    const decision = decide(report.decisions, situation);
    // The report's own sentence for that situation, every configuration named, where it has one.
    const at = report.decisions.indexOf(decision);
    const sentence = report.opening?.full_sentences?.[at] ?? report.opening?.situations?.[at]?.sentence;
    answer.textContent = decision && sentence ? sentence : describeDecision(decision, report.judging);
  };
  form.addEventListener('change', update);
  update();
  const section = element('section');
  section.append(element('h3', 'Which configuration should I choose?'), form, answer);
  return section;
}

const FIGURE_NAMES = { encode_ms: 'encode', transfer_ms: 'transfer', bytes: 'size', decode_ms: 'decode' };

/** "books/1000/10mbit" → "1,000 Books at 10 Mbit/s"; "books/10/lte/h2" → "… over HTTP/2 with TLS". */
function situationTitle(situation) {
  const [object, count, network, protocol] = situation.split('/');
  return situationWords({ object, count: Number(count), network, cm: 0, protocol });
}

/** The weighted index with weights a person sets: the ranking is recomputed on every change. */
function indexSection(index) {
  const section = element('section', undefined, 'weighted-index');
  const form = element('form', undefined, 'weights');
  const inputs = {};
  for (const figure of FIGURES) {
    const label = element('label', `${FIGURE_NAMES[figure]} weight `);
    const input = Object.assign(element('input'), {
      type: 'number',
      min: '0',
      step: '1',
      name: figure,
      value: String(index.weights[figure]),
    });
    label.append(input);
    form.append(label);
    inputs[figure] = input;
  }
  // The weights' error, next to them: shown only while there is one.
  const error = element('p', '', 'error');
  error.setAttribute('role', 'alert');
  error.hidden = true;
  const output = element('div');
  const update = () => {
    let ranking;
    try {
      ranking = rankByIndex(index.rows, { weights: parseWeights(FIGURES.map((f) => inputs[f].value).join('/')) });
      error.textContent = '';
      error.hidden = true;
    } catch (problem) {
      error.textContent = problem.message;
      error.hidden = false;
      return;
    }
    output.replaceChildren(
      ...ranking.flatMap((situation) => [
        element('h4', situationTitle(situation.situation)),
        table(
          ['rank', 'configuration', 'index', ...FIGURES.map((f) => `${FIGURE_NAMES[f]} ×`)],
          situation.ranking.map((r, i) => [
            i + 1,
            configurationWords({ ...r.configuration, scenario: 1 }),
            r.index === null ? '—' : r.index.toFixed(3),
            ...FIGURES.map((f) => (r.normalized[f] === null ? '—' : r.normalized[f].toFixed(2))),
          ]),
        ),
      ]),
    );
  };
  form.addEventListener('input', update);
  update();
  section.append(
    element('h3', "A related study's weighted index (not a response-time answer)"),
    element(
      'p',
      'A related study ranked formats by this index: server encode time, transfer time, bytes on the wire and ' +
        "browser decode time, each divided by the baseline's (JSON with response.json(), uncompressed = 1) and " +
        'weighted. Lower is better. It weighs bytes and encode time whether or not they make anyone wait, so ' +
        'its first rank need not be the fastest configuration: for that, read "What to choose". Set the weights ' +
        'to see the ranking change.',
      'note',
    ),
    form,
    error,
    output,
  );
  return section;
}

/** A list of items, each text or {lead, text, sub} with its lead in bold and its sub-items below it. */
function list(items, className) {
  const ul = element('ul', undefined, className);
  for (const item of items) {
    const li = element('li');
    if (typeof item === 'string') li.textContent = item;
    else li.append(element('strong', `${item.lead}: `), item.text);
    if (item.sub?.length) li.append(list(item.sub));
    ul.append(li);
  }
  return ul;
}

/**
 * The robust choice for the situations a reader ticks (common/bottom-line.js, the report's rule):
 * one line without sorting and one with, recomputed on every change.
 */
function robustChooser(situations) {
  const section = element('div', undefined, 'robust-chooser');
  const form = element('fieldset', undefined, 'situations');
  form.append(element('legend', 'Your situations: tick the ones that are yours'));
  const boxes = situations.map((s) => {
    const box = Object.assign(element('input'), { type: 'checkbox', checked: true, value: s.id });
    const label = element('label');
    label.append(box, ` ${s.words}`);
    form.append(label);
    return box;
  });
  const answer = element('ul', undefined, 'robust-answer');
  answer.setAttribute('aria-live', 'polite');
  const update = () => {
    const ticked = situations.filter((_, i) => boxes[i].checked);
    const lines = [];
    for (const [sorting, lead] of [
      [false, 'Without sorting'],
      [true, 'With sorting'],
    ]) {
      const own = ticked.filter((s) => s.sorting === sorting);
      if (!own.length) continue;
      // As the report's bottom line says it in numbers: the topic in the lead, the text naming the
      // choice (each of an "or") with its worst case.
      const { text } = choiceRow(robustChoice(own));
      lines.push({ lead, text: capital(text) });
    }
    if (!lines.length) lines.push('Tick at least one situation.');
    answer.replaceChildren(...list(lines).childNodes);
  };
  form.addEventListener('change', update);
  update();
  section.append(
    element(
      'p',
      'For the situations ticked: the configuration that, in its worst one, lost the fewest milliseconds ' +
        "to that situation's fastest, measured in all of them.",
      'note',
    ),
    form,
    answer,
  );
  return section;
}

/** The report's opening: its bottom line (with the chooser), its words; then its situations. */
function openingOf(opening) {
  const nodes = [element('h3', 'What to choose')];
  // The report's own leads; reports made before them get these.
  const leads = opening.leads ?? { words: 'Words used below:', bottom: 'Bottom line:' };
  // Reports made before the answers in short have their bottom line alone.
  // Reports made before the table have the answers in short as a list.
  // Reports made before the grids say where to sort in the table or the list.
  // The answers in short, then in numbers, a sentence per case; reports made before them have a
  // gist and a table.
  // Each with its topic in bold, as the report shows it.
  if (opening.short?.length) nodes.push(element('p', leads.short, 'answers-lead'), list(opening.short.map(topicItem)));
  if (opening.answer?.length) nodes.push(element('p', leads.answer, 'answers-lead'), list(opening.answer));
  else if (opening.gist?.length) nodes.push(element('p', leads.gist, 'answers-lead'), list(opening.gist));
  if (opening.answer?.length) {
    // The answer says them all.
  } else if (opening.in_short_table?.rows.length) {
    const { header, rows } = opening.in_short_table;
    nodes.push(element('p', leads.short, 'answers-lead'), table(header, rows, 'answers-table'));
  } else if (opening.in_short?.length) nodes.push(element('p', leads.short, 'answers-lead'), list(opening.in_short));
  // The verdict words under the answer that first uses them (reports made before have them in the words).
  if (opening.sure?.length) nodes.push(element('p', leads.sure, 'answers-lead'), list(opening.sure));
  // The words (CM, situation, unthrottled) before the grids that use them.
  if (opening.words?.length) nodes.push(element('p', leads.words, 'answers-lead'), list(opening.words));
  // The answers by CM and N (where to sort, data already in the page), each a grid of its own.
  for (const grid of opening.in_short_grids ?? [])
    nodes.push(element('p', grid.lead, 'answers-lead'), table(grid.table.header, grid.table.rows, 'answers-grid'));
  if (opening.bottom_line?.length) {
    nodes.push(element('p', leads.bottom, 'answers-lead'), list(opening.bottom_line));
    if (opening.situation_ratios?.length) nodes.push(robustChooser(opening.situation_ratios));
  }
  if (opening.families?.length) {
    // Reports made before the situations had a section of their own show them under the opening.
    if (opening.situations_section) {
      nodes.push(element('h3', opening.situations_section.heading));
      nodes.push(element('p', opening.situations_section.note));
    }
    for (const { family, texts } of opening.families)
      nodes.push(element('p', `${family}:`, 'answers-lead'), list(texts));
  } else {
    // Reports made before the bottom line: their paragraphs as they were.
    for (const paragraph of opening.paragraphs ?? opening.situations.map((s) => s.text))
      nodes.push(element('p', paragraph));
    if (opening.general) nodes.push(element('p', `In general: ${opening.general}`));
    if (opening.reading) nodes.push(element('p', opening.reading, 'note'));
  }
  return nodes;
}

/** Renders a report-data.json document into `container`. */
export function showReport(container, report) {
  if (report?.kind !== 'response-time-lab/report')
    throw new Error(
      'this is not a report-data.json of a Response Time Lab run (the report-data.json a study run writes ' +
        'next to its report.html; the JSON this page downloads after timing a cell holds samples, not a report).',
    );
  container.replaceChildren();
  // The answer first, in the report's own sentences (analysis/answer-first.js).
  if (report.opening) container.append(...openingOf(report.opening));
  container.append(decisionHelper(report));
  for (const [id, { question, answers }] of Object.entries(report.answers)) {
    container.append(element('h3', `${question} (research question ${id.replace(/^RQ/, '')})`));
    const list = element('ul');
    for (const line of answers.length ? answers : ['Not measured in this run.']) list.append(element('li', line));
    container.append(list);
  }
  container.append(
    element('h3', "The source study's conclusions"),
    table(
      ['source conclusion', 'source', 'ours', 'verdict'],
      report.conclusions.map((c) => [c.claim, c.theirs, c.ours, c.verdict_words ?? c.verdict]),
    ),
  );
  if (report.contradictions?.length) {
    const list = element('ul');
    for (const line of report.contradictions) list.append(element('li', line));
    container.append(element('p', 'Where our measurements contradict the source:'), list);
  }
  if (report.index?.rows?.length) container.append(indexSection(report.index));
  container.append(
    element('h3', 'Method'),
    element('p', report.intro),
    ...(report.networks ? [element('p', report.networks)] : []),
  );
  for (const chart of report.charts) container.append(chartFigure(chart));
}

/**
 * A chart as a figure: of the drawings the analysis step made (analysis/charts.js, widest
 * first), the widest the figure's width reaches, scaled to it, swapped as the page's width
 * changes. Reports from before the drawings were made at several widths have one SVG.
 */
function chartFigure(chart) {
  const figure = element('figure', undefined, 'chart');
  figure.append(element('figcaption', chart.title));
  const drawings = chart.variants ?? [{ from: 0, svg: chart.svg }];
  let shown = null;
  const show = () => {
    const drawing = drawings.find((d) => figure.clientWidth >= d.from) ?? drawings.at(-1);
    if (drawing === shown) return;
    shown = drawing;
    const svg = new DOMParser().parseFromString(drawing.svg, 'image/svg+xml').documentElement;
    if (chart.variants) svg.classList.add('fills');
    figure.querySelector('svg')?.remove();
    figure.append(document.importNode(svg, true));
  };
  new ResizeObserver(show).observe(figure);
  return figure;
}

// The page for a person: "Compare configurations" first (compare-view.js), "Your data"
// (dataset-view.js), one configuration timed on its own (a form over every cell parameter, run
// and stop, progress, a live chart, a table of measured cells, and downloads), and a study's
// report (report-view.js). Every answer names the connection it was measured on
// (connection.js). It drives the same window.lab a script uses.

import { resultsToCsv, resultsToJson, summariesToCsv } from './export.js';
import { createLiveChart } from './chart.js';
import { createLab } from './lab.js';
import { showReport } from './report-view.js';
import { setUpCompare } from './compare-view.js';
import { fillCellForm, fillCompareForm, fitCount, followObjectCount, scenarioWords, sortingWords } from './controls.js';
import { setUpDatasets } from './dataset-view.js';
import { connectionWords, STUDY_PROFILES } from './connection.js';
import { LABELS, OBJECT_NAMES, compressionLabel, formatLabel, scenarioTakesCm } from '#common/catalogue.js';
import { broughtDataset } from '#common/datasets.js';
import { timerStep } from './capabilities.js';

/**
 * performance.now() reads taken at load to show its step: about 10 ms of reads in Chromium, enough
 * to see a 1 ms step several times (capabilities.js TIMER_READS, ten times more, is the run's record).
 */
const TIMER_READS_AT_LOAD = 20_000;

const form = document.getElementById('cell-form');
const runButton = document.getElementById('run');
const stopButton = document.getElementById('stop');
const progress = document.getElementById('progress');
const errorBox = document.getElementById('error');
const summaryBody = document.querySelector('#summary tbody');
const samples = document.getElementById('samples');
const chart = createLiveChart(document.getElementById('chart'));
const compareForm = document.getElementById('compare-form');
const connection = connectionWords();
const results = [];
let running = null;

const number = (value, digits = 3) => (Number.isFinite(value) ? value.toFixed(digits) : '—');

/** Shows `message` in an error box, or hides the box when there is none. */
function showIn(box, message) {
  box.textContent = message;
  box.hidden = !message;
}
const showError = (message) => showIn(errorBox, message);

function readForm() {
  const data = new FormData(form);
  const integer = (name) => Number.parseInt(data.get(name), 10);
  const cell = {
    object: data.get('object'),
    count: integer('count'),
    format: data.get('format'),
    decoder: data.get('decoder'),
    compression: data.get('compression'),
    scenario: integer('scenario'),
    cm: integer('cm'),
  };
  // A disabled level (no compression) is not in the form's data: the cell then has none.
  if (data.get('level')) cell.level = integer('level');
  const options = { warmup: integer('warmup') };
  if (data.get('adaptive')) {
    options.adaptive = {
      target: Number(data.get('target')) / 100,
      minReps: integer('minReps'),
      maxReps: integer('maxReps'),
    };
  } else {
    options.reps = integer('reps');
  }
  return { cell, options };
}

function describeProgress({ phase, iteration, of, remaining_ms: remaining }) {
  const left = remaining === null ? '' : ` · about ${Math.max(0, Math.round(remaining / 1000))} s left`;
  if (phase === 'warmup') return `Warming up: iteration ${iteration} of ${of}${left}`;
  if (phase === 'measure') return `Measuring: iteration ${iteration} of ${of}${left}`;
  return 'Checking the data (untimed)…';
}

function addSummaryRow(result) {
  const { summary } = result;
  const row = document.createElement('tr');
  const cells = [
    result.case_id,
    summary.n,
    number(summary.mean_trimmed),
    summary.dropped,
    number(summary.median),
    `${number(summary.ci_low)} – ${number(summary.ci_high)}`,
    number(summary.p95),
    number(summary.min),
    number(summary.max),
    number(summary.sd),
    `✓ ${result.verification.checks.join(', ')}`,
  ];
  // Each cell carries its column's heading: on a narrow screen a row is a card of "heading: value".
  const headings = [...document.querySelectorAll('#summary thead th')].map((th) => th.textContent);
  cells.forEach((value, i) => {
    const tableCell = document.createElement('td');
    tableCell.textContent = String(value);
    tableCell.dataset.label = headings[i] ?? '';
    row.append(tableCell);
  });
  row.lastChild.className = 'good';
  summaryBody.append(row);
}

function download(name, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function setRunning(isRunning) {
  runButton.disabled = isRunning;
  stopButton.disabled = !isRunning;
  for (const id of ['download-json', 'download-csv', 'download-summary']) {
    document.getElementById(id).disabled = isRunning || results.length === 0;
  }
}

async function start(lab) {
  // The buttons stay disabled until their handlers are in place: a click before would submit the
  // form the browser's way and reload the page.
  runButton.disabled = false;
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (running) return;
    showError('');
    const { cell, options } = readForm();
    running = new AbortController();
    setRunning(true);
    samples.hidden = false;
    const compression =
      cell.compression === 'none' ? 'uncompressed' : compressionLabel(cell.compression, cell.level ?? undefined);
    samples.querySelector('figcaption').textContent =
      `${cell.count.toLocaleString('en-US')} ${LABELS.object(cell.object)}, ` +
      `${formatLabel(cell.format, cell.decoder)}, ${compression}; ${scenarioWords(cell.scenario)}; ` +
      `${sortingWords(cell.cm)}. Network: ${connection}.`;
    chart.reset('total time per repetition (total_ms)');
    try {
      const result = await lab.runCell(cell, {
        ...options,
        signal: running.signal,
        onProgress: (p) => {
          progress.textContent = describeProgress(p);
        },
        onSample: (sample) => chart.add(sample.total_ms),
      });
      results.push(result);
      addSummaryRow(result);
      const { summary } = result;
      progress.textContent =
        `Done: ${result.case_id}, median ${number(summary.median)} ms over ${summary.n} samples, ` +
        `on ${connection.replace(/ \(.*\)$/, '')}.`;
    } catch (error) {
      progress.textContent = error.name === 'AbortError' ? 'Stopped; nothing was recorded for that cell.' : 'Failed.';
      if (error.name !== 'AbortError') showError(error.message);
    } finally {
      running = null;
      setRunning(false);
    }
  });
  stopButton.addEventListener('click', () => running?.abort());
  document
    .getElementById('download-json')
    .addEventListener('click', () =>
      download('response-time-lab-results.json', resultsToJson(results, lab.context()), 'application/json'),
    );
  document
    .getElementById('download-csv')
    .addEventListener('click', () => download('response-time-lab-samples.csv', resultsToCsv(results), 'text/csv'));
  document
    .getElementById('download-summary')
    .addEventListener('click', () => download('response-time-lab-summary.csv', summariesToCsv(results), 'text/csv'));
}

/** A scenario without computation takes CM0 only, one that computes CM1 and up: keep the two selectors valid. */
function keepScenarioAndCmConsistent() {
  const scenario = form.elements.scenario;
  const cm = form.elements.cm;
  const sync = () => {
    for (const option of cm.options) option.disabled = !scenarioTakesCm(Number(scenario.value), Number(option.value));
    if (cm.selectedOptions[0]?.disabled) cm.value = [...cm.options].find((o) => !o.disabled).value;
  };
  scenario.addEventListener('change', sync);
  sync();
}

/** The objects there are of a kind or a brought dataset (the server's dataset size, or the dataset's count). */
async function objectCounter() {
  const info = await (await fetch('/api/info', { cache: 'no-store' })).json();
  const size = info.dataset?.size;
  return { size, count: (name) => (OBJECT_NAMES.includes(name) ? size : broughtDataset(name)?.objects) };
}

/** Every answer names the connection it was measured on; the study's profiles are measured headless. */
for (const place of document.querySelectorAll('[data-connection]')) place.textContent = connection;
for (const place of document.querySelectorAll('[data-profiles]')) place.textContent = STUDY_PROFILES.join(', ');

fillCellForm(form);
fillCompareForm(compareForm);
keepScenarioAndCmConsistent();
objectCounter()
  .then(({ size, count }) => {
    for (const f of [form, compareForm]) followObjectCount(f, count);
    return setUpDatasets({
      maxObjects: size,
      // A dataset just brought is measured whole: N is its count in both forms.
      onBrought: () => [form, compareForm].forEach((f) => fitCount(f, count, { fill: true })),
      onDeleted: () => [form, compareForm].forEach((f) => fitCount(f, count)),
    });
  })
  .catch((error) => showIn(document.getElementById('dataset-error'), `Your data: ${error.message}`));

/**
 * A study's report, loaded from a file: drawn apart and shown only when whole, so a file that
 * cannot be shown leaves the report shown before, marked as that one, with the error beside the
 * file input.
 */
/** What a report file is, for an error that names the wrong one. */
const REPORT_FILE =
  'A report is the report-data.json a study run writes next to its report.html (results/<run>/); ' +
  'the JSON this page downloads after timing a cell holds samples, not a report.';
const reportFile = document.getElementById('report-file');
const reportError = document.getElementById('report-error');
const reportStatus = document.getElementById('report-status');
let reportShown = null;
reportFile.addEventListener('change', async () => {
  const [file] = reportFile.files;
  showIn(reportError, '');
  if (!file) return;
  try {
    const drawn = document.createElement('div');
    let report;
    try {
      report = JSON.parse(await file.text());
    } catch {
      throw new Error(`it is not JSON. ${REPORT_FILE}`);
    }
    showReport(drawn, report);
    document.getElementById('report').replaceChildren(drawn);
    reportShown = file.name;
    reportStatus.textContent = `Showing ${file.name}.`;
  } catch (error) {
    showIn(reportError, `Could not show ${file.name}: ${error.message}`);
    reportStatus.textContent = reportShown ? `Below: the report shown before, ${reportShown}, not ${file.name}.` : '';
  }
});
chart.reset('');

const isolation = document.getElementById('isolation');
/** performance.now()'s step in this browser, as measured (engines differ: 5 µs in Chromium, 20 in Firefox). */
const stepMs = timerStep(undefined, TIMER_READS_AT_LOAD);
const step = stepMs === null ? 'resolution not seen' : `${Math.round(stepMs * 1000)} µs resolution`;
isolation.textContent = globalThis.crossOriginIsolated
  ? `cross-origin isolated (${step})`
  : `NOT cross-origin isolated (${step}): serve the page from the study server`;
isolation.className = globalThis.crossOriginIsolated ? 'good' : 'warn';
if (!globalThis.crossOriginIsolated) {
  showIn(
    document.getElementById('page-error'),
    `This page is not cross-origin isolated, so its clock is coarse (${step}): open it from the study server ` +
      '(mvn exec:java, then http://localhost:8080/).',
  );
}

/** Resolves to window.lab once the page can measure; scripts await window.labReady. */
window.labReady = createLab()
  .then((lab) => {
    window.lab = lab;
    start(lab);
    setUpCompare(lab, {
      form: document.getElementById('compare-form'),
      runButton: document.getElementById('compare-run'),
      stopButton: document.getElementById('compare-stop'),
      progress: document.getElementById('compare-progress'),
      errorBox: document.getElementById('compare-error'),
      answer: document.getElementById('compare-answer'),
      table: document.getElementById('comparisons'),
      connection,
    });
    return lab;
  })
  .catch((error) => {
    showIn(document.getElementById('page-error'), `The page could not start: ${error.message}`);
    runButton.disabled = true;
    throw error;
  });

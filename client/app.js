// The page for a person: a form over every cell parameter, run and stop, progress, a live
// chart, a table of measured cells, and downloads. It drives the same window.lab a script uses.

import { resultsToCsv, resultsToJson, summariesToCsv } from './export.js';
import { createLiveChart } from './chart.js';
import { createLab } from './lab.js';
import { showReport } from './report-view.js';
import { setUpCompare } from './compare-view.js';
import { fillCellForm, fillCompareForm } from './controls.js';
import { setUpDatasets } from './dataset-view.js';
import { scenarioTakesCm } from '#common/catalogue.js';
import { timerStep } from './capabilities.js';

/** performance.now() reads taken at load to show its step (a few ms, enough to see a 1 ms step). */
const TIMER_READS_AT_LOAD = 200_000;

const form = document.getElementById('cell-form');
const runButton = document.getElementById('run');
const stopButton = document.getElementById('stop');
const progress = document.getElementById('progress');
const errorBox = document.getElementById('error');
const summaryBody = document.querySelector('#summary tbody');
const chart = createLiveChart(document.getElementById('chart'));
const results = [];
let running = null;

const number = (value, digits = 3) => (Number.isFinite(value) ? value.toFixed(digits) : '—');

function showError(message) {
  errorBox.textContent = message;
  errorBox.hidden = !message;
}

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
  for (const value of cells) {
    const tableCell = document.createElement('td');
    tableCell.textContent = String(value);
    row.append(tableCell);
  }
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
    const compression = cell.level === undefined ? cell.compression : `${cell.compression} ${cell.level}`;
    chart.reset(
      `${cell.object}, ${cell.count}, ${cell.format} (${cell.decoder}), ${compression}, ` +
        `scenario ${cell.scenario}, CM${cell.cm}: total_ms per repetition`,
    );
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
      progress.textContent = `Done: ${result.case_id}, median ${number(summary.median)} ms over ${summary.n} samples.`;
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

fillCellForm(form);
fillCompareForm(document.getElementById('compare-form'));
keepScenarioAndCmConsistent();
setUpDatasets().catch((error) => showError(`Your data: ${error.message}`));

document.getElementById('report-file').addEventListener('change', async (event) => {
  const [file] = event.target.files;
  if (!file) return;
  try {
    showReport(document.getElementById('report'), JSON.parse(await file.text()));
    showError('');
  } catch (error) {
    showError(`Could not show ${file.name}: ${error.message}`);
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
    });
    return lab;
  })
  .catch((error) => {
    showError(`The client could not start: ${error.message}`);
    runButton.disabled = true;
    throw error;
  });

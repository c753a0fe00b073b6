// The page's "Compare configurations" section: a comparison group chosen by hand, run the way the
// study runs it (window.lab.runGroup), with every comparison's ratio, CI and verdict shown live
// after each round, stopping when they resolve; then the answer in the report's own sentence
// (common/answer-words.js), under the connection it was measured on.

import { COMPRESSION_ENTRIES, levelProblem } from '#common/catalogue.js';
import { caseId, completeCell } from '#common/cell.js';
import {
  configurationWords,
  ms,
  relative,
  situationAnswer,
  situationParagraph,
  wordsDefined,
} from '#common/answer-words.js';
import { VERDICTS } from '#common/comparison.js';
import { parseConfiguration } from './controls.js';

/** Why a group stopped (group-runner.js), in words. */
const STOP_WORDS = {
  resolved: 'every comparison certain',
  'round budget': 'the rounds ran out',
  'rounds done': 'every round run',
  'time budget': 'the time ran out',
};

/** The levels a person asked for a compression ("1, 6, 9"): whole numbers its range allows. */
function levelsOf(data, compression) {
  if (!COMPRESSION_ENTRIES[compression]?.levels) return [null];
  const text = String(data.get(`levels-${compression}`) ?? '').trim();
  if (!text) return [null];
  const levels = text
    .split(/[\s,]+/)
    .filter(Boolean)
    .map(Number);
  for (const level of levels) {
    const problem = levelProblem(compression, level);
    if (problem) throw new Error(`${problem} (you wrote "${text}").`);
  }
  return [...new Set(levels)];
}

/** The cells a filled-in form asks to compare; throws a message a person can act on. */
export function groupFromForm(data) {
  const object = data.get('object');
  const count = Number.parseInt(data.get('count'), 10);
  const cm = Number.parseInt(data.get('cm'), 10);
  const configurations = data.getAll('formats').map(parseConfiguration);
  const compressions = data
    .getAll('compressions')
    .flatMap((compression) => levelsOf(data, compression).map((level) => ({ compression, level })));
  const scenarios = cm === 0 ? [1] : data.getAll('sides').map(Number);
  const cells = configurations.flatMap(({ format, decoder }) =>
    compressions.flatMap(({ compression, level }) =>
      scenarios.map((scenario) => ({
        object,
        count,
        format,
        decoder,
        compression,
        ...(level === null ? {} : { level }),
        scenario,
        cm,
      })),
    ),
  );
  if (cells.length < 2)
    throw new Error(
      'Choose at least two configurations to compare (formats and decoders × compressions and levels × sides).',
    );
  return { id: `page/${object}/${count}/cm${cm}`, cells };
}

/**
 * The group's answer in the report's words: its decision (common/judge.js) as the report's
 * opening says it for one situation.
 */
export function answerSentence(group, judgment) {
  if (!judgment?.decision) return '';
  const cellsById = new Map(group.cells.map((cell) => [caseId(cell), { cell }]));
  const decision = { ...judgment.decision, fastest_case_id: judgment.decision.fastest };
  return situationParagraph(decision, cellsById, judgment.delta).sentence;
}

/**
 * Every configuration's time as the answer gives it (the fastest's median times its ratio to the
 * fastest: common/answer-words.js), fastest first; without a decision, none.
 */
export function timesOf(judgment, label) {
  if (!judgment?.decision) return 'none decided';
  const answer = situationAnswer(judgment.decision, judgment.delta);
  return [
    `${label(answer.fastest)} ${ms(answer.time_ms)}`,
    ...answer.rows.map((r) => `${label(r.case_id)} ${ms(r.time_ms)}`),
  ].join('; ');
}

/** The four verdict words as the page defines them under its answer. */
export const wordsNote = (delta) => wordsDefined(delta).join('. ');

export function setUpCompare(lab, { form, runButton, stopButton, progress, errorBox, table, answer, connection }) {
  let running = null;
  let labels = new Map();
  const label = (id) => labels.get(id) ?? id;
  const showError = (message) => {
    errorBox.textContent = message;
    errorBox.hidden = !message;
  };
  /**
   * A pair's verdict in the report's words (common/answer-words.js): certain only once the group
   * settled it; before that, "can't tell yet" whatever the last interval said.
   */
  const pairWords = (c) => {
    if (!c.settled) return "can't tell yet";
    return (
      {
        [VERDICTS.EQUIVALENT]: 'as fast, certain',
        [VERDICTS.B_FASTER]: 'a slower, certain',
        [VERDICTS.A_FASTER]: 'a faster, certain',
      }[c.verdict] ?? "can't tell yet"
    );
  };
  const render = (comparisons) => {
    const body = table.tBodies[0];
    body.replaceChildren();
    for (const c of comparisons) {
      const row = body.insertRow();
      const verdict = pairWords(c);
      for (const value of [
        label(c.a),
        label(c.b),
        Number.isFinite(c.ratio) ? relative('a', 'b', c.ratio, c.ci_low, c.ci_high).replace(/^a is /, '') : '—',
        c.rounds,
        verdict,
      ]) {
        row.insertCell().textContent = String(value);
      }
      row.lastChild.className = c.settled ? 'good' : 'warn';
    }
  };
  runButton.disabled = false; // disabled in the page until this handler is in place
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (running) return;
    showError('');
    let group;
    const data = new FormData(form);
    try {
      group = groupFromForm(data);
    } catch (error) {
      showError(error.message);
      return;
    }
    // The study's rounds (DEFAULT_ROUNDS: 2 iterations per visit, at least 8 rounds), with the
    // person's round budget and ten minutes of rounds.
    const protocol = {
      warmup: { minMs: 500, minIterations: 3, window: 3, tolerance: 0.1, maxMs: 10_000 },
      rounds: { maxRounds: Number.parseInt(data.get('maxRounds'), 10), maxMs: 600_000 },
      stop: { delta: Number(data.get('delta')) / 100 },
    };
    running = new AbortController();
    runButton.disabled = true;
    stopButton.disabled = false;
    render([]);
    labels = new Map(group.cells.map((cell) => [caseId(cell), configurationWords(completeCell(cell))]));
    if (answer) answer.textContent = '';
    // How long the rounds left can take at most, from the rounds' own clock (elapsed_ms, the one
    // their time limit runs on): the pace so far times the rounds left, within that limit.
    const timeLeft = ({ round, elapsed_ms: elapsed }) => {
      const rounds = protocol.rounds.maxRounds - round;
      const ms = Math.min(rounds * (elapsed / round), protocol.rounds.maxMs - elapsed);
      const seconds = Math.max(0, Math.ceil(ms / 1000));
      return rounds > 0 ? `; at most about ${seconds} s more (less once every comparison is certain)` : '';
    };
    try {
      const result = await lab.runGroup(group, protocol, {
        seed: Math.floor(Math.random() * 2 ** 32),
        signal: running.signal,
        onProgress: (p) => {
          if (p.phase === 'warmup') progress.textContent = `Warming up ${label(p.case_id)}…`;
          if (p.phase === 'round')
            progress.textContent =
              `Round ${p.round} of at most ${protocol.rounds.maxRounds}: ` +
              `${p.settled} of ${p.comparisons} comparisons certain${timeLeft(p)}.`;
          if (p.phase === 'verify') progress.textContent = 'Checking the data (untimed)…';
        },
        onRound: (round) => {
          render(round.judged);
        },
      });
      render(result.judgment.comparisons);
      const sentence = answerSentence(group, result.judgment);
      if (answer && sentence) {
        const where = document.createElement('span');
        where.className = 'answer-network';
        where.textContent = `Measured on ${connection}:`;
        const words = document.createElement('span');
        words.className = 'answer-words';
        words.textContent = `Words: ${wordsNote(result.judgment.delta)}.`;
        answer.replaceChildren(where, ' ', sentence, words);
      }
      const certain = result.judgment.comparisons.filter((c) => c.settled).length;
      progress.textContent =
        `Done after ${result.rounds} round${result.rounds === 1 ? '' : 's'} ` +
        `(${STOP_WORDS[result.stop.reason] ?? result.stop.reason}): ` +
        `${certain} of ${result.judgment.comparisons.length} comparisons certain. ` +
        `Times: ${timesOf(result.judgment, label)}.` +
        // The run ended before every comparison was certain: what a person can do about it.
        (certain < result.judgment.comparisons.length && result.stop.reason !== 'resolved'
          ? ' To tell the rest: run again with more rounds (Rounds at most), or at a larger N, where the ' +
            'differences are larger than the noise.'
          : '');
    } catch (error) {
      progress.textContent = error.name === 'AbortError' ? 'Stopped.' : 'Failed.';
      if (error.name !== 'AbortError') showError(error.message);
    } finally {
      running = null;
      runButton.disabled = false;
      stopButton.disabled = true;
    }
  });
  stopButton.addEventListener('click', () => running?.abort());
}

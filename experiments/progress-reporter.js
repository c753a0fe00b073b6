// One line per finished comparison group (its rounds, how many comparisons it resolved, why it
// stopped) with the estimated time left for the run; the groups' own lines per round in between;
// at the end, where the time went (whereTheTimeWent).

import { duration, perAnswer, whatTimeBought } from '../analysis/time-spent.js';

/** Why the study skips a group (study.spec.js): it was completed in an earlier session of the run. */
export const COMPLETED_EARLIER = 'completed earlier in this run directory';

/**
 * Whether a skipped test was skipped by the study as completed earlier — and not by Playwright,
 * which skips tests it did not run after a failure (a failed beforeAll, a serial suite) with no
 * reason given.
 */
export function completedEarlier(test, result) {
  return [...(result.annotations ?? []), ...test.annotations].some(
    (a) => a.type === 'skip' && a.description === COMPLETED_EARLIER,
  );
}

/** The phases of a group's time (client/group-runner.js `time`), in the words the summary uses. */
const PHASES = [
  ['warmup_ms', 'warm-up'],
  ['rounds_ms', 'rounds'],
  ['decision_ms', 'decision time'],
  ['verify_ms', 'verification'],
];

/**
 * Where a run's time went, from its groups' `time` records and counts ([{group_id, time, resolved,
 * comparisons}]): the sum of each phase, how many comparisons are left open where, what the time
 * bought (group time per settled comparison; the groups that settled none of theirs), and the
 * groups that took longest. Lines of text.
 */
export function whereTheTimeWent(groups, slowest = 5) {
  if (!groups.length) return [];
  const total = groups.reduce((sum, g) => sum + g.time.total_ms, 0);
  const share = (ms) => `${duration(ms)} (${Math.round((100 * ms) / total)} %)`;
  const phases = PHASES.map(
    ([key, words]) => `${words} ${share(groups.reduce((sum, g) => sum + (g.time[key] ?? 0), 0))}`,
  );
  const open = groups.filter((g) => g.time.open > 0);
  const lines = [
    `Where the time went: ${duration(total)} in ${groups.length} groups: ${phases.join(', ')}.`,
    `  ${open.reduce((sum, g) => sum + g.time.open, 0)} comparisons open, in ${open.length} groups.`,
    `  ${whatTheTimeBought(groups)}`,
    `  Longest groups:`,
  ];
  for (const g of [...groups].sort((x, y) => y.time.total_ms - x.time.total_ms).slice(0, slowest)) {
    lines.push(
      `    ${g.group_id}  ${duration(g.time.total_ms)}: warm-up ${duration(g.time.warmup_ms)}, ` +
        `rounds ${duration(g.time.rounds_ms + g.time.decision_ms)}, ${g.time.open} open`,
    );
  }
  return lines;
}

/** "1.2s of group time per settled comparison (40 settled); every group …" (analysis/time-spent.js). */
function whatTheTimeBought(groups) {
  const { answered, ms_per_answer: ms, bought_nothing: nothing } = whatTimeBought(groups);
  const perAnswerWords =
    ms === null
      ? 'No comparison resolved'
      : `${perAnswer(ms)} of group time per settled comparison (${answered} settled)`;
  const nothingWords = nothing.length
    ? `${nothing.length} group${nothing.length === 1 ? '' : 's'} settled none: ${nothing.join(', ')}`
    : 'every group with comparisons settled at least one';
  return `${perAnswerWords}; ${nothingWords}.`;
}

export default class ProgressReporter {
  onBegin(config, suite) {
    this.total = suite.allTests().length;
    if (this.total === 0) return;
    this.done = 0;
    this.measuredMs = 0;
    this.measured = 0;
    this.failed = 0;
    this.notRun = 0;
    this.started = Date.now();
    this.times = [];
    console.log(`${this.total} comparison groups to run.`);
  }

  onEnd(result) {
    if (!this.total) return;
    for (const line of whereTheTimeWent(this.times)) console.log(line);
    const notRun = this.notRun + (this.total - this.done);
    console.log(
      `${this.done - this.failed - this.notRun} of ${this.total} groups done, ${this.failed} failed, ` +
        `${notRun ? `${notRun} not run, ` : ''}in ${duration(Date.now() - this.started)} (${result.status}).`,
    );
  }

  onTestEnd(test, result) {
    this.done++;
    const width = String(this.total).length;
    const position = `[${String(this.done).padStart(width)}/${this.total}]`;
    if (result.status === 'skipped') {
      if (completedEarlier(test, result)) {
        console.log(`${position} ${test.title}  already complete`);
      } else {
        this.notRun++;
        const reason = [...(result.annotations ?? []), ...test.annotations].find((a) => a.type === 'skip')?.description;
        console.log(`${position} ${test.title}  not run: ${reason ?? 'Playwright skipped it after a failure'}`);
      }
      return;
    }
    if (result.status !== 'passed') {
      this.failed++;
      const message = result.error?.message?.split('\n')[0] ?? result.status;
      console.log(`${position} ${test.title}  FAILED: ${message}`);
      return;
    }
    this.measured++;
    this.measuredMs += result.duration;
    const note = (type) => test.annotations.find((a) => a.type === type)?.description;
    const left = (this.measuredMs / this.measured) * (this.total - this.done);
    const rounds = note('rounds');
    const time = note('time');
    if (time) {
      // Resolved as the report counts it: settled (time.open counts the rest), not merely leaning.
      const comparisons = Number(String(note('resolved')).split('/')[1]);
      const spent = JSON.parse(time);
      this.times.push({ group_id: test.title, time: spent, comparisons, resolved: comparisons - spent.open });
    }
    console.log(
      `${position} ${test.title}  ${rounds} round${String(rounds) === '1' ? '' : 's'}, ` +
        `${note('resolved')} comparisons resolved ` +
        `(${note('stop')}, ${duration(result.duration)})  ~${duration(left)} left`,
    );
  }

  /** Errors outside a cell (the setup refusing a plan, a server that does not start): said plainly. */
  onError(error) {
    console.log(`error: ${error.message ?? error.value ?? error}`);
  }

  /** The groups' own progress lines (one per round). */
  onStdOut(chunk) {
    process.stdout.write(chunk);
  }

  printsToStdio() {
    return true;
  }
}

// One line per finished comparison group (its rounds, how many comparisons it resolved, why it
// stopped) with the estimated time left for the run; the groups' own lines per round in between.

function duration(ms) {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60
    ? `${minutes}m${String(seconds % 60).padStart(2, '0')}s`
    : `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}

export default class ProgressReporter {
  onBegin(config, suite) {
    this.total = suite.allTests().length;
    if (this.total === 0) return;
    this.done = 0;
    this.measuredMs = 0;
    this.measured = 0;
    this.failed = 0;
    this.started = Date.now();
    console.log(`${this.total} comparison groups to run.`);
  }

  onEnd(result) {
    if (!this.total) return;
    console.log(
      `${this.done - this.failed} of ${this.total} groups done, ${this.failed} failed, ` +
        `in ${duration(Date.now() - this.started)} (${result.status}).`,
    );
  }

  onTestEnd(test, result) {
    this.done++;
    const width = String(this.total).length;
    const position = `[${String(this.done).padStart(width)}/${this.total}]`;
    if (result.status === 'skipped') {
      console.log(`${position} ${test.title}  already complete`);
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

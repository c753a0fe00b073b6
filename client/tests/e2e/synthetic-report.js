// The synthetic run (analysis/tests/synthetic-run.js) with its report made, for the browser tests
// that load a report: made once per worker process (a few seconds of work) and shared, since the
// tests only read it.
import { makeReport } from '../../../analysis/report.js';
import { syntheticRun } from '../../../analysis/tests/synthetic-run.js';

let made = null;

/** The synthetic run's directory, its report.html and report-data.json made. */
export function syntheticReport() {
  made ??= (async () => {
    const { path } = syntheticRun();
    await makeReport([path]);
    return path;
  })();
  return made;
}

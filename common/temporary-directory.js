// Temporary directories for tests and benchmarks: each is removed when the process exits, after
// a failure too, so a run leaves nothing behind in the system's temporary folder (a test suite
// makes dozens: run directories, plans, reports). RTL_KEEP_TEST_DIRS=1 keeps them, to look into
// a failure.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made = [];

process.once('exit', () => {
  if (process.env.RTL_KEEP_TEST_DIRS) return;
  for (const directory of made) rmSync(directory, { recursive: true, force: true });
});

/** A new, empty directory in the system's temporary folder, its name starting with `prefix`. */
export function temporaryDirectory(prefix) {
  const directory = mkdtempSync(join(tmpdir(), prefix));
  made.push(directory);
  return directory;
}

// The repository's state for a run's or a benchmark's context: {commit, dirty} (null commit
// outside a git checkout).

import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

function git(...args) {
  try {
    return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

/** The commit checked out and whether the work tree differs from it. */
export function gitState() {
  return { commit: git('rev-parse', 'HEAD'), dirty: (git('status', '--porcelain') ?? '') !== '' };
}

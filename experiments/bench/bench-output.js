// Where benchmark scripts keep their figures: results/bench/<name>-<UTC time>.json, with the
// context they ran in (commit, machine, Node) and every raw figure, as google/benchmark and
// hyperfine write theirs. The README points to the commands, not to copied numbers.

import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gitState } from '../git-state.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Writes one benchmark's figures with its context; returns the file's path. */
export function writeBenchmark(name, context, figures, directory = join(ROOT, 'results', 'bench')) {
  mkdirSync(directory, { recursive: true });
  const stamp = new Date()
    .toISOString()
    .replace(/[:.]/g, '-')
    .replace(/-\d{3}Z$/, 'Z');
  const path = join(directory, `${name}-${stamp}.json`);
  writeFileSync(
    path,
    `${JSON.stringify(
      {
        kind: 'response-time-lab/benchmark',
        benchmark: name,
        created_at: new Date().toISOString(),
        git: gitState(),
        machine: {
          cpus: os.cpus().length,
          cpu_model: os.cpus()[0]?.model ?? null,
          memory_bytes: os.totalmem(),
          os: `${os.type()} ${os.release()} ${os.arch()}`,
        },
        node: process.version,
        context,
        figures,
      },
      null,
      1,
    )}\n`,
  );
  return path;
}

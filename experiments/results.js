// A run directory (results/<UTC timestamp>-<plan>/, or RUN_DIR):
//   run.json      the context: plan, commit, versions, machine, network profiles as measured
//   samples.jsonl one line per sample, appended (one write each) as it is taken
//   cells.jsonl   one line per completed cell: its summary, verification and attempt id
// A cell counts once cells.jsonl lists it; its samples are the lines with its attempt id. A run
// killed mid-cell leaves that cell's samples without a cells.jsonl line: resuming drops them and
// runs the cell again. Readers ignore unknown fields and a last line cut short.

import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeFileSync, writeSync }
  from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';

const RUN_FILE = 'run.json';
const SAMPLES_FILE = 'samples.jsonl';
const CELLS_FILE = 'cells.jsonl';

/** results/<UTC timestamp>-<plan>[-shard-i-of-n] under the given root. */
export function defaultRunDirectory(root, planName, shard) {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-').replace(/-\d{3}Z$/, 'Z');
  const suffix = shard ? `-shard-${shard.current}-of-${shard.total}` : '';
  return join(root, 'results', `${stamp}-${planName}${suffix}`);
}

/** The parsed lines of a JSONL file; a last line cut short by a crash is skipped. */
export function readJsonLines(path) {
  if (!existsSync(path)) return [];
  const lines = readFileSync(path, 'utf8').split('\n');
  const records = [];
  lines.forEach((line, index) => {
    if (!line.trim()) return;
    try {
      records.push(JSON.parse(line));
    } catch (error) {
      if (index < lines.length - 1 && lines.slice(index + 1).some((l) => l.trim())) {
        throw new Error(`${path}:${index + 1} is not JSON: ${error.message}`);
      }
    }
  });
  return records;
}

function writeAtomically(path, text) {
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
}

export class RunDirectory {
  constructor(path) {
    this.path = path;
  }

  file(name) {
    return join(this.path, name);
  }

  exists() {
    return existsSync(this.file(RUN_FILE));
  }

  readContext() {
    return JSON.parse(readFileSync(this.file(RUN_FILE), 'utf8'));
  }

  writeContext(context) {
    mkdirSync(this.path, { recursive: true });
    writeAtomically(this.file(RUN_FILE), `${JSON.stringify(context, null, 2)}\n`);
  }

  /** The cells.jsonl records of completed cells. */
  completedCells() {
    return readJsonLines(this.file(CELLS_FILE));
  }

  completedCaseIds() {
    return new Set(this.completedCells().map((c) => c.case_id));
  }

  /**
   * Keeps only the samples of completed cells (and drops a line cut short): what a resumed run
   * does first. Returns how many sample lines were dropped.
   */
  compact() {
    const path = this.file(SAMPLES_FILE);
    if (!existsSync(path)) return 0;
    const attempts = new Set(this.completedCells().map((c) => c.attempt));
    const lines = readFileSync(path, 'utf8').split('\n').filter((l) => l.trim());
    const kept = lines.filter((line) => {
      try {
        return attempts.has(JSON.parse(line).attempt);
      } catch {
        return false;
      }
    });
    if (kept.length !== lines.length) writeAtomically(path, kept.map((l) => `${l}\n`).join(''));
    return lines.length - kept.length;
  }

  /** A writer for one attempt at one cell: samples as they come, then the completion record. */
  startCell(caseId, cell) {
    const attempt = `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
    mkdirSync(this.path, { recursive: true });
    const samples = openSync(this.file(SAMPLES_FILE), 'a');
    const cellsPath = this.file(CELLS_FILE);
    let written = 0;
    const startedAt = new Date().toISOString();
    return {
      attempt,
      /** Appends one sample in a single write, so a kill never leaves half a line behind. */
      sample(sample) {
        writeSync(samples, `${JSON.stringify({ case_id: caseId, attempt, ...cell, ...sample })}\n`);
        written++;
      },
      get written() {
        return written;
      },
      /** Marks the cell complete; its samples are on disk first. */
      complete(record) {
        fsyncSync(samples);
        closeSync(samples);
        const cells = openSync(cellsPath, 'a');
        writeSync(cells, `${JSON.stringify({ case_id: caseId, attempt, cell, started_at: startedAt,
          finished_at: new Date().toISOString(), ...record })}\n`);
        fsyncSync(cells);
        closeSync(cells);
      },
      abandon() {
        closeSync(samples);
      },
    };
  }
}

/** A run's completed cells and their samples (only those), as a reader should see them. */
export function readRun(path) {
  const run = new RunDirectory(path);
  if (!run.exists()) throw new Error(`${path} is not a run directory (no ${RUN_FILE})`);
  const cells = run.completedCells();
  const attempts = new Set(cells.map((c) => c.attempt));
  const samples = readJsonLines(run.file(SAMPLES_FILE)).filter((s) => attempts.has(s.attempt));
  return { context: run.readContext(), cells, samples };
}

/**
 * Merges the run directories of shards (or of separate runs of one plan) into a new one. The
 * cells must not overlap; the merged run.json lists every shard's context.
 */
export function mergeRuns(paths, outPath) {
  if (paths.length < 2) throw new Error('give at least two run directories to merge');
  const runs = paths.map((p) => ({ path: p, ...readRun(p) }));
  const plans = new Set(runs.map((r) => r.context.plan?.name));
  if (plans.size > 1) throw new Error(`the runs are of different plans: ${[...plans].join(', ')}`);
  const seen = new Map();
  for (const run of runs) {
    for (const cell of run.cells) {
      if (seen.has(cell.case_id)) throw new Error(`${cell.case_id} is in both ${seen.get(cell.case_id)} and ${run.path}`);
      seen.set(cell.case_id, run.path);
    }
  }
  const out = new RunDirectory(outPath);
  if (out.exists()) throw new Error(`${outPath} already holds a run`);
  const [first] = runs;
  out.writeContext({ ...first.context, merged_from: runs.map((r) => ({ path: r.path, context: r.context })),
    shard: null, merged_at: new Date().toISOString() });
  writeFileSync(out.file(SAMPLES_FILE), runs.flatMap((r) => r.samples).map((s) => `${JSON.stringify(s)}\n`).join(''));
  writeFileSync(out.file(CELLS_FILE), runs.flatMap((r) => r.cells).map((c) => `${JSON.stringify(c)}\n`).join(''));
  return { cells: seen.size, samples: runs.reduce((n, r) => n + r.samples.length, 0) };
}

// A run directory (results/<UTC timestamp>-<plan>/, or RUN_DIR):
//   run.json      the context: plan, seed, commit, versions, machine, networks as measured, and a
//                 record of every session that worked on the run (a resumed run appends one)
//   samples.jsonl one line per sample, with its group, round, position in the round and session
//   rounds.jsonl  one line per completed round of a comparison group: its seeded order
//   cells.jsonl   one line per completed cell: its summary, warm-up and verification
//   groups.jsonl  one line per completed group: its rounds, why it stopped, and the judgment it
//                 stopped on (common/judge.js: its comparisons, margins and decision)
// A round counts once rounds.jsonl lists it; its samples are written (in one write, synced)
// before that line. A run killed mid-round leaves that round's samples without a rounds.jsonl
// line: resuming drops them and the group carries on from its last complete round. Readers ignore
// unknown fields and a last line cut short.

import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';

const RUN_FILE = 'run.json';
const SAMPLES_FILE = 'samples.jsonl';
const ROUNDS_FILE = 'rounds.jsonl';
const CELLS_FILE = 'cells.jsonl';
const GROUPS_FILE = 'groups.jsonl';

/** The key of one recorded round. */
const roundKey = (groupId, round, session) => `${groupId}#${round}#${session}`;

/** Appends lines in one write and syncs them. */
export function appendSynced(path, records) {
  const fd = openSync(path, 'a');
  try {
    writeSync(fd, records.map((r) => `${JSON.stringify(r)}\n`).join(''));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** results/<UTC timestamp>-<plan>[-shard-i-of-n] under the given root. */
export function defaultRunDirectory(root, planName, shard) {
  const stamp = new Date()
    .toISOString()
    .replace(/[:.]/g, '-')
    .replace(/-\d{3}Z$/, 'Z');
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
        throw new Error(`${path}:${index + 1} is not JSON: ${error.message}`, { cause: error });
      }
    }
  });
  return records;
}

export function writeAtomically(path, text) {
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

  /**
   * The cells.jsonl records of completed cells: those of completed groups. A group completes by
   * appending its cells, then its groups.jsonl line; a kill between the two leaves cells of a
   * group that is not complete, which its rerun appends again.
   */
  completedCells() {
    const groups = this.completedGroupIds();
    return readJsonLines(this.file(CELLS_FILE)).filter((c) => groups.has(c.group_id));
  }

  completedCaseIds() {
    return new Set(this.completedCells().map((c) => c.case_id));
  }

  /** The groups.jsonl records of completed groups. */
  completedGroups() {
    return readJsonLines(this.file(GROUPS_FILE));
  }

  completedGroupIds() {
    return new Set(this.completedGroups().map((g) => g.group_id));
  }

  /** The rounds.jsonl records of completed rounds. */
  completedRounds() {
    return readJsonLines(this.file(ROUNDS_FILE));
  }

  /** The keys (roundKey) of completed rounds. */
  completedRoundKeys() {
    return new Set(this.completedRounds().map((r) => roundKey(r.group_id, r.round, r.session)));
  }

  /** The samples of completed rounds only. */
  validSamples() {
    const valid = this.completedRoundKeys();
    return readJsonLines(this.file(SAMPLES_FILE)).filter((s) => valid.has(roundKey(s.group_id, s.round, s.session)));
  }

  /**
   * Keeps only the samples of completed rounds and the cells of completed groups (and drops a line
   * cut short): what a resumed run does first. Returns how many sample lines were dropped.
   */
  compact() {
    const cells = this.file(CELLS_FILE);
    if (existsSync(cells)) {
      const kept = this.completedCells();
      if (
        kept.length !==
        readFileSync(cells, 'utf8')
          .split('\n')
          .filter((l) => l.trim()).length
      ) {
        writeAtomically(cells, kept.map((c) => `${JSON.stringify(c)}\n`).join(''));
      }
    }
    const path = this.file(SAMPLES_FILE);
    if (!existsSync(path)) return 0;
    const valid = this.completedRoundKeys();
    const lines = readFileSync(path, 'utf8')
      .split('\n')
      .filter((l) => l.trim());
    const kept = lines.filter((line) => {
      try {
        const s = JSON.parse(line);
        return valid.has(roundKey(s.group_id, s.round, s.session));
      } catch {
        return false;
      }
    });
    if (kept.length !== lines.length) writeAtomically(path, kept.map((l) => `${l}\n`).join(''));
    return lines.length - kept.length;
  }

  /** Appends a session record (who worked on the run, with what) to run.json. */
  addSession(session) {
    const context = this.readContext();
    this.writeContext({ ...context, sessions: [...(context.sessions ?? []), session] });
  }

  /**
   * A writer for one session of one comparison group: its rounds as they complete, then the
   * group's completion. `earlier()` gives the rounds an earlier session already recorded.
   */
  startGroup(groupId, cells) {
    const session = `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
    mkdirSync(this.path, { recursive: true });
    const byId = new Map(cells.map((cell) => [cell.case_id, cell]));
    const startedAt = new Date().toISOString();
    const run = this;
    return {
      session,
      /** The rounds of this group recorded earlier: {lastRound, samples}. */
      earlier() {
        const rounds = run.completedRounds().filter((r) => r.group_id === groupId);
        // A group that has not begun (the usual case) need not read every sample of the run.
        const samples = rounds.length ? run.validSamples().filter((s) => s.group_id === groupId) : [];
        return { lastRound: rounds.reduce((max, r) => Math.max(max, r.round), 0), samples };
      },
      /** Records a completed round: its samples first, then the round line. */
      round({ round, order, samples }) {
        appendSynced(
          run.file(SAMPLES_FILE),
          samples.map((s) => {
            const { case_id: caseId, ...rest } = s;
            return { case_id: caseId, group_id: groupId, session, ...withoutId(byId.get(caseId)), ...rest };
          }),
        );
        appendSynced(run.file(ROUNDS_FILE), [
          { group_id: groupId, round, session, order, samples: samples.length, finished_at: new Date().toISOString() },
        ]);
      },
      /** Marks the group and its cells complete, with the judgment it stopped on (common/judge.js). */
      complete({ cells: results, rounds, stop, judgment, warmups, time, budget }) {
        const finishedAt = new Date().toISOString();
        appendSynced(
          run.file(CELLS_FILE),
          results.map((r) => ({
            case_id: r.case_id,
            group_id: groupId,
            cell: withoutId(byId.get(r.case_id)),
            n: r.summary.n,
            rounds: r.rounds,
            last_round: r.last_round,
            summary: r.summary,
            warmup: r.warmup,
            verification: r.verification,
            finished_at: finishedAt,
          })),
        );
        appendSynced(run.file(GROUPS_FILE), [
          {
            group_id: groupId,
            cells: results.map((r) => r.case_id),
            rounds,
            stop,
            judgment,
            session,
            started_at: startedAt,
            finished_at: finishedAt,
            ...(warmups ? { warmups } : {}),
            ...(time ? { time } : {}),
            ...(budget ? { budget } : {}),
          },
        ]);
      },
    };
  }
}

function withoutId(cell) {
  const { case_id: ignored, ...rest } = cell ?? {};
  return rest;
}

/** A run's completed cells and the samples of its completed rounds, as a reader should see them. */
export function readRun(path) {
  const run = new RunDirectory(path);
  if (!run.exists()) throw new Error(`${path} is not a run directory (no ${RUN_FILE})`);
  const cells = run.completedCells();
  const done = new Set(cells.map((c) => c.case_id));
  const samples = run.validSamples().filter((s) => done.has(s.case_id));
  return { context: run.readContext(), cells, samples, groups: run.completedGroups(), rounds: run.completedRounds() };
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
  refuseMixedProvenance(runs);
  const seen = new Map();
  for (const run of runs) {
    for (const cell of run.cells) {
      if (seen.has(cell.case_id))
        throw new Error(`${cell.case_id} is in both ${seen.get(cell.case_id)} and ${run.path}`);
      seen.set(cell.case_id, run.path);
    }
  }
  const out = new RunDirectory(outPath);
  if (out.exists()) throw new Error(`${outPath} already holds a run`);
  const [first] = runs;
  out.writeContext({
    ...first.context,
    merged_from: runs.map((r) => ({ path: r.path, context: r.context })),
    shard: null,
    merged_at: new Date().toISOString(),
  });
  writeFileSync(
    out.file(SAMPLES_FILE),
    runs
      .flatMap((r) => r.samples)
      .map((s) => `${JSON.stringify(s)}\n`)
      .join(''),
  );
  writeFileSync(
    out.file(CELLS_FILE),
    runs
      .flatMap((r) => r.cells)
      .map((c) => `${JSON.stringify(c)}\n`)
      .join(''),
  );
  writeFileSync(
    out.file(GROUPS_FILE),
    runs
      .flatMap((r) => r.groups)
      .map((g) => `${JSON.stringify(g)}\n`)
      .join(''),
  );
  writeFileSync(
    out.file(ROUNDS_FILE),
    runs
      .flatMap((r) => r.rounds)
      .map((g) => `${JSON.stringify(g)}\n`)
      .join(''),
  );
  return { cells: seen.size, samples: runs.reduce((n, r) => n + r.samples.length, 0) };
}

/** What must be equal for two runs' results to be merged or reported together. */
const PROVENANCE = [
  ['seed', (c) => c.seed],
  ['protocol', (c) => JSON.stringify(c.plan?.protocol ?? null)],
  ['dataset (seed and size)', (c) => JSON.stringify([c.dataset?.seed, c.dataset?.size])],
  ['server settings', (c) => JSON.stringify(c.server?.settings ?? null)],
  ['network shaping', (c) => c.shaping],
];

/** The ways in which run contexts a and b differ where they must not: [] when they may be mixed. */
export function provenanceDifferences(a, b) {
  return PROVENANCE.filter(([, get]) => get(a) !== get(b)).map(([name, get]) => `${name}: ${get(a)} ≠ ${get(b)}`);
}

/** Throws, saying why, when runs [{path, context}] differ in what must be equal. */
export function refuseMixedProvenance(runs) {
  for (const run of runs.slice(1)) {
    const differences = provenanceDifferences(runs[0].context, run.context);
    if (differences.length) {
      throw new Error(`${runs[0].path} and ${run.path} cannot be mixed: their ${differences.join('; ')}`);
    }
  }
}

// A synthetic run whose answers are known by construction, for the report's tests and the
// client page's end-to-end test.
import { join } from 'node:path';
import { caseId } from '#common/cell.js';
import { seededRandom, summarize } from '#common/stats.js';
import { RunDirectory } from '#common/run-directory.js';
import { completeCell, groupId } from '#common/cell.js';
import { judgeGroup } from '#common/judge.js';
import { temporaryDirectory } from '#common/temporary-directory.js';

/** Median milliseconds of each synthetic cell: the answers follow from these. */
function designedMedian(c, perObjectMs) {
  const perObject = perObjectMs[c.format] * (c.network === '10mbit' ? 10 : 1);
  const gzip = c.compression === 'gzip' ? (c.network === '10mbit' ? 0.5 : 1.5) : 1;
  // CM1: the client about 1.08× the server unthrottled, 1.03× at 10 Mbit/s — both clear of δ = 5 %.
  const compute = c.cm === 0 ? 0 : 0.025 * 10 ** c.cm * (c.scenario === 3 || c.scenario === 5 ? 3 : 1);
  const base = 5 + (c.count * perObject * gzip) / 100;
  return { 1: base, 2: base + compute, 3: base + compute, 4: 2 * (base + compute), 5: base + 2 * compute }[c.scenario];
}

/** Rounds per group and iterations per visit of the synthetic run. */
const ROUNDS = 8;
const PER_VISIT = 5;

/** Per-object cost of each format, in ms per 100 objects unthrottled (×10 at 10 Mbit/s). */
const PER_OBJECT = Object.freeze({ json: 1.0, protobuf: 0.5, xml: 2.0 });

/**
 * With `racing`, a group of more than two cells runs this many more rounds, on a machine that got
 * faster (its rounds' level × RACING_LEVEL), without its fastest cell — as racing leaves cells
 * out of later rounds: the next cell's median over all its samples then drops below the fastest's,
 * while in the rounds both ran it is slower.
 */
const RACING_ROUNDS = 6;
const RACING_LEVEL = 0.6;

/**
 * @param options {seed: the noise's seed, perObject: another PER_OBJECT (e.g. to make a run
 *     whose answers differ), protocol: the plan's protocol, as run.json records it (none: the
 *     defaults), browser: run.json's browser block (none: a run from before engines were
 *     recorded), racing: whether groups go on without their fastest cell (RACING_ROUNDS)}
 */
export function syntheticRun({ seed = 9, perObject = PER_OBJECT, protocol, browser, racing = false } = {}) {
  const run = new RunDirectory(join(temporaryDirectory('rtl-report-'), 'run'));
  run.writeContext({
    plan: { name: 'synthetic', ...(protocol ? { protocol } : {}) },
    git: { commit: 'f'.repeat(40), dirty: false },
    versions: { browser: 'test' },
    shaping: 'cdp',
    seed: 1,
    ...(browser ? { browser } : {}),
  });
  const random = seededRandom(seed);
  const cells = [];
  for (const network of ['unthrottled', '10mbit']) {
    for (const format of ['json', 'protobuf', 'xml']) {
      for (const compression of ['none', 'gzip']) {
        for (const count of [10, 1000])
          cells.push({ object: 'books', format, compression, count, scenario: 1, cm: 0, network });
      }
    }
    for (const scenario of [2, 3, 4, 5]) {
      for (const cm of [1, 3, 5])
        cells.push({ object: 'books', format: 'json', compression: 'none', count: 100, scenario, cm, network });
    }
  }
  // Measured as the study measures: comparison groups interleaved in rounds, each round with a
  // level of its own (drift) that all cells of the group share, plus a little noise per iteration.
  const groups = new Map();
  for (const cell of cells) {
    const id = groupId(cell);
    if (!groups.has(id)) groups.set(id, []);
    groups.get(id).push({ case_id: caseId(cell), ...completeCell(cell) });
  }
  for (const [id, members] of groups) {
    const writer = run.startGroup(id, members);
    const totals = new Map(members.map((m) => [m.case_id, []]));
    const recorded = [];
    const races = racing && members.length > 2;
    const fastest = [...members].sort((a, b) => designedMedian(a, perObject) - designedMedian(b, perObject))[0];
    const rounds = ROUNDS + (races ? RACING_ROUNDS : 0);
    for (let round = 1; round <= rounds; round++) {
      const late = round > ROUNDS;
      const level = (0.9 + 0.2 * random()) * (late ? RACING_LEVEL : 1);
      const visited = late ? members.filter((m) => m !== fastest) : members;
      const samples = visited.flatMap((m, position) =>
        Array.from({ length: PER_VISIT }, (_, i) => {
          const total_ms = designedMedian(m, perObject) * level * (0.99 + 0.02 * random());
          totals.get(m.case_id).push(total_ms);
          return {
            case_id: m.case_id,
            round,
            position,
            visit_iteration: i + 1,
            total_ms,
            rt_waiting_ms: 1,
            rt_transfer_ms: total_ms / 2,
            decode_ms: 0.5,
            transfer_size: m.count * 100 * (m.compression === 'gzip' ? 0.3 : 1),
            decoded_body_size: m.count * 100,
          };
        }),
      );
      recorded.push(...samples);
      writer.round({ round, order: visited.map((m) => m.case_id), samples });
    }
    writer.complete({
      rounds,
      stop: { reason: 'rounds done' },
      // What the runner stores: the one judge's reading of the group's samples at the plan's rule.
      judgment: judgeGroup(
        members.map(({ case_id: ignored, ...cell }) => cell),
        recorded,
        protocol?.stop,
      ),
      cells: members.map((m) => ({
        case_id: m.case_id,
        summary: summarize(totals.get(m.case_id)),
        warmup: { rule: 'count' },
        verification: { passed: true },
      })),
    });
  }
  return { path: run.path, cells };
}

// The browser's own floor on a network: what the smallest request the lab can make (one Book,
// JSON, no compression, no computation) takes on that network, measured in a page of the run as
// cells are measured (a warm-up by stability, then interleaved rounds). The report states it, so
// a reader sees which differences between cells lie below what this browser on this machine
// resolves.

import { quantile } from '#common/stats.js';

const FLOOR_CELL = Object.freeze({
  object: 'books',
  count: 1,
  format: 'json',
  compression: 'none',
  scenario: 1,
  cm: 0,
});
const FLOOR_PROTOCOL = Object.freeze({
  warmup: { minMs: 500, minIterations: 5, window: 5, tolerance: 0.1, maxMs: 5000 },
  rounds: { iterationsPerVisit: 10, visitMaxMs: 2000, minRounds: 6, maxRounds: 6, maxMs: 30_000 },
  stop: null,
});

/** Measures the floor in `page` (ready, shaped for `network`). */
export async function measureFloor(page, network) {
  const times = await page.evaluate(
    async ({ cell, protocol }) => {
      const taken = [];
      await window.lab.runGroup({ id: 'floor', cells: [cell] }, protocol, {
        onRound: (round) => {
          taken.push(...round.samples.map((s) => s.total_ms));
        },
      });
      return taken;
    },
    { cell: { ...FLOOR_CELL, network }, protocol: FLOOR_PROTOCOL },
  );
  return {
    request: '1 Book, JSON, no compression, no computation (scenario 1)',
    n: times.length,
    median_ms: quantile(times, 0.5),
    p5_ms: quantile(times, 0.05),
    p95_ms: quantile(times, 0.95),
  };
}

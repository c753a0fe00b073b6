// The study under real kernel shaping (SHAPING=netns, as root), in each engine: server and browser
// in their own namespaces, a plan with a profile that has an RTT (through netem or the delay line) and the
// 10 Mbit/s link, read back as a separate program would; every compression decodes under kernel
// shaping too, and a brought dataset (DATA) is measured there as well; its total time is shared among
// its groups from costs the run modelled. Skipped, with the reason, without root.

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { caseId } from '#common/cell.js';
import { declareDataset } from '#common/datasets.js';
import { NETWORKS } from '../network/profiles.js';
import { ENGINE_NAMES } from '#common/browsers/engines.js';
import { expandPlan } from '../plan.js';
import { readRun } from '#common/run-directory.js';
import { median } from '#common/stats.js';
import { temporaryDirectory } from '#common/temporary-directory.js';
import { netnsSkip, runStudy } from './netns-runs.js';
import { H3_AT_10MBIT, testNamespace, testPort } from './test-resources.js';

const PARENT = temporaryDirectory('rtl-netns-');
const PLAN = {
  name: 'netns-test',
  description: 'tiny cells on a link with an RTT (over each protocol) and on the 10 Mbit/s link',
  // A stop rule that cannot stop before the third round, and a total time to share (experiments/budget/).
  protocol: {
    warmup: { iterations: 1 },
    rounds: { iterationsPerVisit: 1, minRounds: 3, maxRounds: 3 },
    stop: { delta: 0.05, fewRounds: false },
  },
  minutes: 5,
  groups: [
    {
      name: 'cable',
      scenarios: [1],
      cms: [0],
      objects: ['books'],
      formats: ['json', 'protobuf'],
      compressions: ['gzip', 'deflate', 'br', 'zstd'],
      levels: { br: [11] },
      counts: [100],
      networks: ['cable'],
    },
    {
      name: '10 Mbit/s',
      scenarios: [2],
      cms: [2],
      objects: ['videos'],
      formats: ['xml'],
      compressions: ['none'],
      counts: [100],
      networks: ['10mbit'],
    },
    {
      name: 'a brought dataset',
      scenarios: [1],
      cms: [0],
      objects: ['netns-data'],
      formats: ['json', 'cbor'],
      compressions: ['none'],
      counts: [5],
      networks: ['cable'],
    },
    {
      name: 'over TLS and HTTP/2, with the RTT',
      scenarios: [1],
      cms: [0],
      objects: ['books'],
      formats: ['json'],
      compressions: ['br'],
      counts: [10],
      networks: ['cable'],
      protocols: ['http1.1-tls', 'h2'],
    },
  ],
  // Brought from inside the server's namespace: the only place that reaches it.
  datasets: { 'netns-data': 'server/src/test/resources/datasets/startup.jsonl' },
};

/** Whether the set-up built the QUIC library the server's h3 connector needs (scripts/quiche.sh). */
const QUIC_LIBRARY = fileURLToPath(new URL('../../tools/quiche/libquiche.so', import.meta.url));
const H3 = existsSync(QUIC_LIBRARY);

/**
 * The plan in `browser`: in Chromium, HTTP/3 as well (the lab runs it in Chromium only), with the
 * RTT and on the 10 Mbit/s link, where the server can serve it.
 */
function planFor(browser) {
  if (browser !== 'chromium' || !H3) return PLAN;
  const groups = PLAN.groups.map((g) => (g.protocols ? { ...g, protocols: [...g.protocols, 'h3'] } : g));
  groups.push(H3_AT_10MBIT);
  return { ...PLAN, groups };
}

/** Each engine's server port and namespace (test-resources.js: where several checkouts share a machine). */
const SETUPS = {
  chromium: { port: testPort(18086, 2), namespace: testNamespace('rtl-test', '-st') },
  firefox: { port: testPort(18090, 6), namespace: testNamespace('rtl-testf', '-sf') },
};

for (const browser of ENGINE_NAMES)
  test(
    `SHAPING=netns runs a plan through the kernel with the profiles' delays and rates, in ${browser}`,
    { skip: netnsSkip() },
    (t) => {
      const plan = planFor(browser);
      if (browser === 'chromium' && !H3) t.diagnostic(`no HTTP/3 cells: no ${QUIC_LIBRARY} (scripts/quiche.sh)`);
      // Namespaces of its own, so that a study running here is left alone.
      // A machine memory of its own: every cell's cost modelled, its bytes asked of the server by a page.
      const { runDir, stdout } = runStudy(plan, {
        parent: PARENT,
        name: browser,
        browser,
        namespace: SETUPS[browser].namespace,
        port: SETUPS[browser].port,
        timeoutMs: 400_000,
        env: { RTL_CACHE_DIR: join(PARENT, `memory-${browser}`) },
      });

      const { context, cells, samples, groups } = readRun(runDir);
      assert.equal(context.shaping, 'netns');
      assert.equal(context.browser.engine, browser);
      assert.equal(
        context.cross_origin_isolated,
        true,
        "localhost, mapped into the server's namespace, stays a secure context",
      );
      assert.equal(context.netns_link.server_namespace, SETUPS[browser].namespace);
      assert.ok(['netem', 'delay-line'].includes(context.netns_link.delay));
      const cable = context.networks.cable;
      // The delay is real: no request can come back sooner than the RTT. Nor much later: the rest is
      // the server and the browser, at most one delayed ACK (Linux's shortest, 40 ms: in Firefox all
      // five 1-object requests have waited on one) and 40 ms of scheduling (the delay line, the
      // browser and the server share two cores).
      assert.ok(
        cable.measured.rtt_ms >= NETWORKS.cable.rttMs && cable.measured.rtt_ms < NETWORKS.cable.rttMs + 40 + 40,
        `cable RTT ${cable.measured.rtt_ms} ms (shortest of ${JSON.stringify(cable.measured.rtt_samples_ms)})`,
      );
      assert.ok(
        cable.measured.throughput_bps < NETWORKS.cable.downBps * 1.05,
        `cable ${cable.measured.throughput_bps} bit/s`,
      );
      // A ~1.4 MB answer at 10 Mbit/s comes through near the rate: within 8 % of bytes × 8 / rate. (The
      // precision itself is what `npm run bench:shaping` measures, over many probes; one run's median of a
      // few ~1.1 s probes can read 10.55 Mbit/s — the token bucket's burst and the subtracted RTT — so
      // this check is that the kernel shapes to the rate, not a benchmark.)
      const link = context.networks['10mbit'].measured;
      assert.ok(
        Math.abs(link.throughput_bps / 10e6 - 1) < 0.08,
        `10 Mbit/s link measured at ${link.throughput_bps} bit/s`,
      );

      const [dataset] = context.datasets;
      assert.equal(dataset.name, 'netns-data');
      assert.equal(dataset.given_objects, 3);
      assert.equal(dataset.repeated_to, 5);
      assert.ok(dataset.sizes.bytes.json.none > 0 && dataset.sizes.bytes.cbor.gzip > 0, JSON.stringify(dataset.sizes));

      declareDataset('netns-data');
      const expected = expandPlan(plan).map(caseId).sort();
      assert.deepStrictEqual(cells.map((c) => c.case_id).sort(), expected);
      for (const cell of cells) assert.equal(cell.verification.passed, true, cell.case_id);
      assert.equal(samples.length, expected.length * 3);
      const encodings = new Map(
        cells.map((c) => [c.case_id, c.cell.compression === 'none' ? 'identity' : c.cell.compression]),
      );
      for (const sample of samples) {
        assert.equal(sample.content_encoding, encodings.get(sample.case_id), sample.case_id);
        assert.ok(
          (sample.encoded_body_size > 0 && sample.encoded_body_size < sample.decoded_body_size) ||
            sample.content_encoding === 'identity',
          sample.case_id,
        );
      }
      // Each protocol's page was opened at its connector, in the namespace, and every request went over it.
      const hops = {
        'http1.1': 'http/1.1',
        'http1.1-tls': 'http/1.1',
        h2: 'h2',
        ...(plan === PLAN ? {} : { h3: 'h3' }),
      };
      for (const [protocol, hop] of Object.entries(hops)) {
        assert.equal(context.protocols.checked[protocol].next_hop_protocol, hop, protocol);
        assert.equal(context.protocols.checked[protocol].cross_origin_isolated, true, protocol);
      }
      for (const sample of samples) {
        const scheme = sample.protocol === 'http1.1' ? 'http:' : 'https:';
        assert.equal(new URL(context.protocols.origins[sample.protocol]).protocol, scheme);
        assert.equal(sample.next_hop_protocol, hops[sample.protocol], sample.case_id);
      }
      assert.deepStrictEqual([...new Set(samples.map((s) => s.protocol))].sort(), Object.keys(hops).sort());
      // The kernel's token bucket shapes QUIC too: no HTTP/3 answer faster than 10 Mbit/s carries it.
      for (const sample of samples.filter((s) => s.protocol === 'h3' && s.network === '10mbit')) {
        const wireMs = (sample.encoded_body_size * 8) / 10_000;
        assert.ok(sample.total_ms >= 0.9 * wireMs, `${sample.case_id}: ${sample.total_ms} ms < ${wireMs} ms`);
      }
      for (const sample of samples.filter((s) => s.network === 'cable')) {
        assert.ok(
          sample.total_ms >= NETWORKS.cable.rttMs,
          `${sample.case_id} round ${sample.round}: ${sample.total_ms} ms`,
        );
      }

      // The plan's total time: its cost estimated before the first group, from the model (the
      // memory was empty) with each cell's bytes measured in the namespace; each group's share.
      const { budget } = context;
      assert.equal(budget.total_ms, 5 * 60_000);
      assert.deepStrictEqual(budget.cells, { memory: 0, model: expected.length });
      assert.match(stdout, /Plan netns-test: 5 min in total; its \d+ groups need about \d+ min/);
      const slow = groups.find((g) => g.group_id.includes('/10mbit/') && !g.group_id.includes('h3'));
      const wire = median(
        samples.filter((s) => s.group_id === slow.group_id).map((s) => (s.encoded_body_size * 8) / 10_000),
      );
      const estimated = budget.groups.find((g) => g.id === slow.group_id);
      assert.ok(estimated.round_ms >= 0.8 * wire, `${slow.group_id}: a round estimated at ${estimated.round_ms} ms`);
      for (const group of groups) {
        assert.equal(group.budget.from, 'pool', group.group_id);
        assert.ok(group.budget.rounds_ms > 0 && group.budget.need_ms > 0, group.group_id);
        assert.equal(group.rounds, 3, group.group_id);
      }
      // What the next run here starts from: every cell's median, remembered.
      const remembered = JSON.parse(readFileSync(join(PARENT, `memory-${browser}`, 'cell-times.json'), 'utf8'));
      assert.equal(Object.keys(remembered).length, expected.length);
    },
  );

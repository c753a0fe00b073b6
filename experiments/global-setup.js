// Before the first cell: opens the run directory (resuming a run that is there), and records
// the run's context — plan, commit, versions, machines, the protocols (each one's origin, checked
// in the browser), and every network profile the plan
// uses with its measured effective throughput and RTT (under cdp, after calibrating Chromium's
// emulation to the profile's rate; under netns, after making the namespaces and starting the
// server in one of them).

import * as playwright from '@playwright/test';
import { createRequire } from 'node:module';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchOptionsFor } from './network/netns-launch.js';
import { existsSync } from 'node:fs';
import { comparisonGroups, expandPlan, groupsSelected } from './plan.js';
import { NETWORKS, calibrateCdp, measureNetwork } from './network/profiles.js';
import { memoryKey, rememberFactor, startingFactor } from './network/cdp-calibration-memory.js';
import { RunDirectory, defaultRunDirectory } from '#common/run-directory.js';
import { sessionGrep, studySettings } from './study-settings.js';
import {
  bringInNamespace,
  serverInfoInNamespace,
  shapeNetns,
  startNetnsStudy,
  warmUpInNamespace,
} from './network/netns.js';
import { gitState } from './git-state.js';
import { warmUpServer, warmupPaths } from './server-warmup.js';
import { http3Problem, protocolContext, quicOrigin } from './protocols.js';
import { bringDatasets, largestCounts } from './datasets/bring.js';
import { costLines, costOfRun, measureInPage } from './budget/plan-cost.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

/** The server's /api/info, or null where this process cannot reach it (inside a namespace). */
async function serverInfo(baseUrl) {
  try {
    return await (await fetch(new URL('/api/info', baseUrl))).json();
  } catch {
    return null;
  }
}

/** Who worked on a run and with what: one record per start or resume. */
function session(kind, server, serverWarmup) {
  return {
    kind,
    at: new Date().toISOString(),
    // When the runner started this session (playwright.config.js): what the plan's total time counts from.
    ...(Number(process.env.RTL_SESSION_STARTED) && {
      runner_started_at: new Date(Number(process.env.RTL_SESSION_STARTED)).toISOString(),
    }),
    git: gitState(),
    server_versions: server?.versions ?? null,
    server_settings: server?.settings ?? null,
    server_compressions: server?.compressions ?? null,
    node: process.version,
    server_warmup: serverWarmup,
  };
}

/** Refuses to resume the run in `run` with other settings than it was started with. */
function refuseOtherSettings(run, runPath, settings) {
  const { engine } = settings;
  const previous = run.readContext();
  const previousEngine = previous.browser?.engine ?? 'chromium';
  if (previousEngine !== engine.name) {
    throw new Error(
      `RUN_DIR ${runPath} holds a run in ${previousEngine}, not ${engine.name}: ` +
        `resume it with BROWSER=${previousEngine}`,
    );
  }
  if (previous.plan?.name !== settings.plan.name) {
    throw new Error(`RUN_DIR ${runPath} holds a run of plan "${previous.plan?.name}", not "${settings.plan.name}"`);
  }
  if (process.env.SEED !== undefined && previous.seed !== settings.seed) {
    throw new Error(
      `RUN_DIR ${runPath} was run with SEED=${previous.seed}, not ${settings.seed}: resume it with its own seed`,
    );
  }
  return previous;
}

export default async function globalSetup(config) {
  const settings = studySettings();
  const { engine } = settings;
  if (!existsSync(engine.path)) {
    throw new Error(
      `${engine.title} is not at ${engine.path}. Run the study with "npm run study", which installs Debian's ` +
        `${engine.debianPackage} (as root), or install it yourself (apt-get install ${engine.debianPackage}) ` +
        `or set ${engine.pathVariable}.`,
    );
  }
  const shard = config.shard ?? null;
  const runPath = resolve(process.env.RUN_DIR ?? defaultRunDirectory(ROOT, settings.plan.name, shard));
  process.env.RUN_DIR = runPath;
  const run = new RunDirectory(runPath);
  const cells = expandPlan(settings.plan, { network: settings.network });

  // HTTP/3 cells where the engine cannot reach HTTP/3: said before anything starts.
  const overH3 = cells.some((c) => c.protocol === 'h3');
  const quicProblem = overH3 ? http3Problem(engine, settings) : null;
  if (quicProblem) throw new Error(`The plan has cells over h3, but ${quicProblem}.`);
  // Every group done (playwright.config.js decided it, and started no server): the report is
  // remade from the run's files by the global teardown; nothing is started, warmed or measured.
  if (process.env.RTL_RUN_COMPLETE === '1') {
    refuseOtherSettings(run, runPath, settings);
    run.compact();
    console.log(
      `Run ${runPath} is complete (${run.completedGroupIds().size} comparison groups): ` +
        'remaking its report, with no server, browser or network set up.',
    );
    return;
  }
  const link = settings.shaping === 'netns' ? await startNetnsStudy(settings) : null;
  // The browser reaches the server's h3 connector over QUIC only when launched for it (Chromium its
  // origin, Firefox a host name of its own): this process's browser below, and the workers'
  // (started later, they inherit it).
  delete process.env.RTL_QUIC_ORIGIN;
  if (overH3) {
    const info =
      settings.shaping === 'netns'
        ? serverInfoInNamespace(new URL(settings.baseUrl).port || '80')
        : await serverInfo(settings.baseUrl);
    const origin = quicOrigin(settings.baseUrl, info, engine);
    if (origin) process.env.RTL_QUIC_ORIGIN = origin;
  }
  // Datasets users bring go to the server first: every later request may name them. Under netns
  // only a process inside the server's namespace reaches it.
  const largest = largestCounts(settings.plan, cells);
  const datasets =
    settings.shaping === 'netns'
      ? bringInNamespace(settings.plan.datasets ?? {}, largest)
      : await bringDatasets(settings.baseUrl, settings.plan.datasets ?? {}, largest);

  // The server's JIT, on every path the plan measures (server-warmup.js): from here, or from
  // inside the server's namespace.
  const warmUp = () =>
    settings.shaping === 'netns'
      ? warmUpInNamespace(warmupPaths(cells), settings.serverWarmupRequests)
      : warmUpServer(settings.baseUrl, warmupPaths(cells), settings.serverWarmupRequests);

  if (run.exists()) {
    const previous = refuseOtherSettings(run, runPath, settings);
    for (const dataset of datasets) {
      const before = (previous.datasets ?? []).find((d) => d.name === dataset.name);
      if (before && before.protobuf && before.protobuf.text !== dataset.protobuf.text) {
        throw new Error(
          `RUN_DIR ${runPath} measured dataset ${dataset.name} with another .proto than ` +
            `${dataset.proto_file ?? 'the inferred one'}: start a new run`,
        );
      }
      if (before && before.sha256 !== dataset.sha256) {
        throw new Error(
          `RUN_DIR ${runPath} measured dataset ${dataset.name} with content hash ${before.sha256}; ` +
            `${dataset.file} now has ${dataset.sha256}: start a new run`,
        );
      }
    }
    const dropped = run.compact();
    const done = run.completedGroupIds().size;
    console.log(
      `Resuming ${runPath}: ${done} comparison groups complete` +
        `${dropped ? `, ${dropped} samples of unfinished rounds dropped` : ''}.`,
    );
    const server = await serverInfo(settings.baseUrl);
    run.addSession(session('resumed', server, await warmUp()));
    return;
  }

  const browser = await playwright[engine.name].launch(launchOptionsFor(engine, settings.shaping));
  try {
    const page = await browser.newPage({ baseURL: settings.baseUrl });
    await page.goto('/');
    await page.evaluate(() => window.labReady);
    const client = await page.evaluate(() => window.lab.context());
    const capabilities = await page.evaluate(() => window.lab.capabilities());
    const server = await page.evaluate(async () => (await fetch('/api/info')).json());
    // A plan with a total time: what its groups will cost, said before the first (budget/).
    const budget = settings.plan.minutes
      ? await costOfRun(
          groupsSelected(comparisonGroups(settings.plan, { network: settings.network }), {
            name: config.projects[0]?.name,
            ...sessionGrep(),
          }),
          settings.plan,
          {
            measure: measureInPage(page),
            browser: { engine: engine.name, version: browser.version() },
            shaping: settings.shaping,
          },
        )
      : null;
    if (budget) for (const line of costLines(budget, settings.plan.name)) console.log(line);
    const protocols = await protocolContext(browser, engine, settings.baseUrl, server, cells, page);
    const serverWarmup = await warmUp();
    const networks = {};
    for (const name of [...new Set(cells.map((c) => c.network))]) {
      const measurePage = await browser.newPage({ baseURL: settings.baseUrl });
      await measurePage.goto('/');
      if (settings.shaping === 'cdp') {
        const key = memoryKey(browser.version(), name, NETWORKS[name]);
        const { measured, ...calibration } = await calibrateCdp(measurePage, name, process.env, startingFactor(key));
        if (calibration.calibration === 'on' && calibration.within_tolerance) rememberFactor(key, calibration.factor);
        networks[name] = { ...NETWORKS[name], cdp: calibration, measured };
      } else if (settings.shaping === 'none') {
        networks[name] = { ...NETWORKS[name], measured: await measureNetwork(measurePage, NETWORKS[name].downBps) };
      } else {
        const shaped = shapeNetns(name);
        networks[name] = {
          ...NETWORKS[name],
          netns: shaped,
          measured: await measureNetwork(measurePage, NETWORKS[name].downBps),
        };
      }
      await measurePage.close();
    }
    if (settings.shaping === 'netns') shapeNetns('unthrottled');
    run.writeContext({
      kind: 'response-time-lab/run',
      version: 1,
      created_at: new Date().toISOString(),
      plan: settings.plan,
      seed: settings.seed,
      network_override: settings.network ?? null,
      shaping: settings.shaping,
      // The engine, its version and how Playwright drove it; what it gives the measurements.
      browser: {
        engine: engine.name,
        version: browser.version(),
        protocol: engine.protocol,
        executable: engine.path,
        capabilities,
      },
      netns_link: link,
      shard,
      cells_planned: cells.length,
      groups_planned: comparisonGroups(settings.plan, { network: settings.network }).length,
      git: gitState(),
      versions: {
        ...server.versions,
        playwright: require('@playwright/test/package.json').version,
        browser: `${browser.browserType().name()} ${browser.version()}`,
        node: process.version,
      },
      // Each compression's library, version and levels, as the server reports them.
      compressions: server.compressions ?? null,
      dataset: server.dataset,
      // The datasets users brought: file, name, object count, content hash (SHA-256 of the
      // canonical JSON Lines), schema and .proto, as the server made them.
      datasets,
      server: { base_url: settings.baseUrl, settings: server.settings, machine: server.machine },
      browser_machine: {
        cpus: os.cpus().length,
        cpu_model: os.cpus()[0]?.model ?? null,
        memory_bytes: os.totalmem(),
        os: `${os.type()} ${os.release()} ${os.arch()}`,
      },
      cross_origin_isolated: client.cross_origin_isolated,
      // Each protocol's origin, how the browser trusts the certificate, and what it negotiated there
      // (every sample has its own).
      protocols,
      server_warmup: serverWarmup,
      page_settle_ms: settings.pageSettleMs,
      browser_warmup_pages: settings.browserWarmupPages,
      // The plan's total time and what each group was expected to cost (budget/plan-cost.js).
      budget,
      user_agent: client.user_agent,
      networks,
      sessions: [session('started', server, serverWarmup)],
    });
    console.log(
      `Run ${runPath}: plan ${settings.plan.name}, ${cells.length} cells` +
        `${shard ? ` (shard ${shard.current}/${shard.total} runs its share)` : ''}.`,
    );
  } finally {
    await browser.close();
  }
}

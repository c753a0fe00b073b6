// window.lab: the client's scripting API, the same code path the form uses.
//
//   await lab.runCell(cell, {warmup, reps} | {warmup, adaptive: {target, minReps, maxReps}})
//     → {cell, case_id, samples: [{rep, total_ms, …phases}], summary, protocol, verification, context}
//   await lab.runGroup({id, cells}, protocol, {seed, onRound, onProgress, signal})
//     → {group_id, cells: [{case_id, warmup, verification, summary}], rounds, stop: {reason, comparisons}}
//   await lab.fetchObjects({object, format, compression, level, count, cm}) → plain objects
//   lab.context() → the page's measurement context (crossOriginIsolated, browser, library versions,
//     the protocol the page came over; a cell that names no protocol runs over it)
//   await lab.capabilities() → what this browser gives the measurements (timer step, Resource Timing fields)
//   lab.codecs[format][decoder] → the codecs the cells use (read(response), decode(body, object))

import { createCodecs } from './codecs/index.js';
import { fetchObjects, runCell } from './runner.js';
import { runGroup } from './group-runner.js';
import { DEFAULT_PROTOCOL, protocolUsed } from '#common/protocols.js';
import { OBJECT_NAMES } from '#common/catalogue.js';
import { DATASET_NAME, addDataset } from '#common/datasets.js';
import { probeCapabilities } from './capabilities.js';

/** The protobuf.js bundle the page loads (from the server's WebJar) before this module. */
const PROTOBUF_GLOBAL = 'protobuf';

export async function createLab({ baseUrl = globalThis.location.origin } = {}) {
  const protobuf = globalThis[PROTOBUF_GLOBAL];
  if (!protobuf) throw new Error('protobuf.js did not load (/vendor/protobufjs/dist/protobuf.min.js)');
  const [protoText, protobufjsVersion, libraries] = await Promise.all([
    text(new URL('/proto/lab.proto', baseUrl)),
    text(new URL('/vendor/protobufjs/package.json', baseUrl)).then((json) => JSON.parse(json).version),
    decoderLibraries(baseUrl),
  ]);
  const env = {
    baseUrl,
    codecs: await createCodecs({ protobuf, protoText }),
    fetch: globalThis.fetch.bind(globalThis),
    now: () => performance.now(),
    performance,
    yieldToBrowser: () => new Promise((resolve) => setTimeout(resolve, 0)),
  };
  performance.setResourceTimingBufferSize(1000);
  // The protocol this page was loaded over (its origin's connector): a cell that names none runs
  // over it.
  const navigation = performance.getEntriesByType('navigation')[0];
  const pageProtocol = protocolUsed(globalThis.location.href, navigation?.nextHopProtocol) ?? DEFAULT_PROTOCOL;
  const withProtocol = (cell) => ({ protocol: pageProtocol, ...cell });
  const context = () => ({
    cross_origin_isolated: globalThis.crossOriginIsolated === true,
    user_agent: navigator.userAgent,
    hardware_concurrency: navigator.hardwareConcurrency,
    device_memory_gb: navigator.deviceMemory ?? null,
    protobufjs: protobufjsVersion,
    libraries,
    base_url: baseUrl,
    protocol: pageProtocol,
    next_hop_protocol: navigation?.nextHopProtocol ?? null,
  });
  return {
    async runCell(cell, options = {}) {
      await knowDatasets(env, [cell.object]);
      const result = await runCell(env, withProtocol(cell), options);
      return { ...result, context: context() };
    },
    async runGroup(group, protocol, options = {}) {
      await knowDatasets(
        env,
        group.cells.map((c) => c.object),
      );
      return runGroup(env, { ...group, cells: group.cells.map(withProtocol) }, protocol, options);
    },
    async fetchObjects(request) {
      await knowDatasets(env, [request.object]);
      return fetchObjects(env, request);
    },
    context,
    capabilities: () => probeCapabilities(env),
    /** The codecs the cells use: read(response), decode(body, object); for benchmarks and checks. */
    codecs: env.codecs,
  };
}

/**
 * Registers the description of each brought dataset among `objects` (GET /api/datasets/{name}),
 * fetched afresh, untimed: its decoders and sorts read it (common/datasets.js).
 */
async function knowDatasets(env, objects) {
  for (const object of new Set(objects)) {
    if (OBJECT_NAMES.includes(object) || !DATASET_NAME.test(object ?? '')) continue;
    const response = await env.fetch(new URL(`/api/datasets/${object}`, env.baseUrl), { cache: 'no-store' });
    if (!response.ok) throw new Error(`no dataset ${object} on the server: ${(await response.json()).message}`);
    addDataset(await response.json());
  }
}

/**
 * The versions of the decoders' npm packages the page's import map loads (each as one module,
 * /vendor/<package>.js, made from the package: scripts/client-libraries.sh): {name: version}.
 */
async function decoderLibraries(baseUrl) {
  const map = globalThis.document?.querySelector('script[type="importmap"]');
  const imports = map ? (JSON.parse(map.textContent).imports ?? {}) : {};
  const packages = Object.keys(imports).filter((name) => imports[name] === `/vendor/${name}.js`);
  const versions = await Promise.all(
    packages.map((name) =>
      text(new URL(`/vendor/npm/${name}/package.json`, baseUrl)).then((json) => JSON.parse(json).version),
    ),
  );
  return Object.fromEntries(packages.map((name, i) => [name, versions[i]]));
}

async function text(url) {
  const response = await fetch(url, { cache: 'no-store' });
  if (!response.ok) throw new Error(`Could not load ${url}: ${response.status}`);
  return response.text();
}

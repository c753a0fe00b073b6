// The study's settings from the environment, the same in the runner and its worker.
import { NETWORKS, SHAPING_MECHANISMS } from './network/profiles.js';
import { WARMUP_REQUESTS } from './server-warmup.js';
import { engineOf } from '#common/browsers/engines.js';
import { expandPlan, loadPlan } from './plan.js';

/**
 * How long each cell's page rests, untimed, between being ready and its first request. A new
 * page's start-up work runs on the same cores for a while: here the median of 30 10-Book
 * requests right after it is 5.7 ms, after 0.5–3 s of rest 3.9–4.5 ms (six pages each).
 */
export const PAGE_SETTLE_MS = 1000;

/**
 * The worker's browser is new, and its first pages compile the client and fill its caches: the
 * first cell of a run measured ~40 % slower than its neighbours (10 Books, unthrottled). This many
 * throwaway pages, each loading the client and fetching every format a few times, go first.
 */
export const BROWSER_WARMUP_PAGES = 3;

/** The seed of the rounds' random orders when SEED does not say; recorded in run.json. */
export const DEFAULT_SEED = 1;

export function studySettings(env = process.env) {
  let plan = loadPlan(env.PLAN ?? 'quick', { data: env.DATA, dataProto: env.DATA_PROTO });
  if (env.MINUTES !== undefined && env.MINUTES !== '') {
    // The run's total time (budget/pool.js); 0 leaves each group the protocol's own budget.
    const minutes = Number(env.MINUTES);
    if (!(minutes >= 0)) throw new Error(`MINUTES=${env.MINUTES} is not a number of minutes (0 or more)`);
    if (minutes > 0 && plan.protocol?.stop === null) {
      throw new Error(
        `MINUTES=${env.MINUTES}: plan ${plan.name} has no stop rule ("stop": null), so it has no time to share`,
      );
    }
    const { minutes: ignored, ...rest } = plan;
    plan = minutes > 0 ? { ...rest, minutes } : rest;
  }
  const network = env.NETWORK || undefined;
  if (network && !NETWORKS[network]) {
    throw new Error(`NETWORK=${network} is not a profile; the profiles are ${Object.keys(NETWORKS).join(', ')}`);
  }
  const shaping = env.SHAPING ?? 'cdp';
  if (!SHAPING_MECHANISMS.includes(shaping)) {
    throw new Error(`SHAPING=${shaping} is not a mechanism; use ${SHAPING_MECHANISMS.join(' or ')}`);
  }
  const engine = engineOf(env);
  if (shaping === 'cdp' && !engine.emulatesNetwork) {
    // Only Chromium emulates a network; never run a shaped profile unshaped.
    const shaped = [...new Set(expandPlan(plan, { network }).map((cell) => cell.network))].filter(
      (name) => NETWORKS[name].downBps !== null,
    );
    if (shaped.length) {
      throw new Error(
        `BROWSER=${engine.name} cannot shape ${shaped.join(', ')} with SHAPING=cdp (Chromium's network emulation): ` +
          'use SHAPING=netns, which shapes the link in the kernel for every engine (as root)',
      );
    }
  }
  // Unthrottled needs no shaping: a browser without emulation runs it as it is (run.json: none).
  const shapingUsed = shaping === 'cdp' && !engine.emulatesNetwork ? 'none' : shaping;
  const pageSettleMs = Number(env.PAGE_SETTLE_MS ?? PAGE_SETTLE_MS);
  if (!(pageSettleMs >= 0)) throw new Error(`PAGE_SETTLE_MS=${env.PAGE_SETTLE_MS} is not a number of milliseconds`);
  const serverWarmupRequests = Number(env.SERVER_WARMUP ?? WARMUP_REQUESTS);
  if (!Number.isInteger(serverWarmupRequests) || serverWarmupRequests < 0) {
    throw new Error(`SERVER_WARMUP=${env.SERVER_WARMUP} is not a number of requests (a whole number, 0 or more)`);
  }
  const browserWarmupPages = Number(env.BROWSER_WARMUP ?? BROWSER_WARMUP_PAGES);
  if (!Number.isInteger(browserWarmupPages) || browserWarmupPages < 0) {
    throw new Error(`BROWSER_WARMUP=${env.BROWSER_WARMUP} is not a number of pages (a whole number, 0 or more)`);
  }
  const seed = Number(env.SEED ?? DEFAULT_SEED);
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
    throw new Error(`SEED=${env.SEED} is not a seed (a whole number from 0 to 4294967295)`);
  }
  return {
    plan,
    network,
    engine,
    shaping: shapingUsed,
    seed,
    baseUrl: env.BASE_URL ?? 'http://localhost:8080',
    pageSettleMs,
    serverWarmupRequests,
    browserWarmupPages,
  };
}

/**
 * The -g and --grep-invert patterns of this session's command line (RTL_SESSION_ARGV, which
 * playwright.config.js sets from the runner's argv before the global setup and the workers
 * start), as Playwright reads them: "/re/flags" as written, anything else case-insensitive.
 * {grep, grepInvert}, each a RegExp or undefined.
 */
export function sessionGrep(env = process.env) {
  let argv;
  try {
    argv = JSON.parse(env.RTL_SESSION_ARGV ?? '[]');
  } catch {
    argv = [];
  }
  const patterns = { grep: undefined, grepInvert: undefined };
  const options = { '-g': 'grep', '--grep': 'grep', '-G': 'grepInvert', '--grep-invert': 'grepInvert' };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].startsWith('--') ? argv[i].split(/=(.*)/s) : [argv[i].slice(0, 2), argv[i].slice(2)];
    const name = options[flag];
    if (!name) continue;
    const value = inline || argv[++i];
    if (value === undefined) break;
    const literal = value.match(/^\/(.*)\/([gi]*)$/);
    patterns[name] = literal ? new RegExp(literal[1], literal[2]) : new RegExp(value, 'gi');
  }
  return patterns;
}

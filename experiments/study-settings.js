// The study's settings from the environment, the same in the runner and its worker.
import { loadPlan } from './plan.js';
import { NETWORKS, SHAPING_MECHANISMS } from './network/profiles.js';

export function studySettings(env = process.env) {
  const plan = loadPlan(env.PLAN ?? 'quick');
  const network = env.NETWORK || undefined;
  if (network && !NETWORKS[network]) {
    throw new Error(`NETWORK=${network} is not a profile; the profiles are ${Object.keys(NETWORKS).join(', ')}`);
  }
  const shaping = env.SHAPING ?? 'cdp';
  if (!SHAPING_MECHANISMS.includes(shaping)) {
    throw new Error(`SHAPING=${shaping} is not a mechanism; use ${SHAPING_MECHANISMS.join(' or ')}`);
  }
  return { plan, network, shaping, baseUrl: env.BASE_URL ?? 'http://localhost:8080' };
}

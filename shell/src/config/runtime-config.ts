import { checkRuntimeConfig, type RuntimeConfig as RolloutRuntimeConfig } from '@app/rollout';
import { CONFIG_URL, type FetchedJson, fetchJsonOnce } from '../early/fetch-once';
import { pagePlan } from '../rollout/page-plan';

/**
 * The runtime config (docs/decisions/0002-runtime-config.md): written into the page by the edge (0026), or
 * fetched from /config.json where no edge served the page, so operators move, redeploy, roll back or canary
 * a remote without rebuilding the shell. The schema is @app/rollout's, the one the edge validates with.
 */
export type RuntimeConfig = RolloutRuntimeConfig;

export class StartupError extends Error {
  override readonly name = 'StartupError';
}

export async function loadRuntimeConfig(url = CONFIG_URL): Promise<RuntimeConfig> {
  const planned = pagePlan();
  if (planned) return parseRuntimeConfig(planned.config);
  let fetched: FetchedJson;
  try {
    fetched = await fetchJsonOnce(url);
  } catch {
    throw new StartupError(`${url} could not be read.`);
  }
  if (!fetched.ok) throw new StartupError(`${url} answered ${fetched.status}.`);
  if (fetched.body === undefined) throw new StartupError(`${url} could not be read.`);
  return parseRuntimeConfig(fetched.body);
}

export function parseRuntimeConfig(raw: unknown): RuntimeConfig {
  const checked = checkRuntimeConfig(raw, window.location.origin);
  if (checked.ok) return checked.config;
  throw new StartupError(checked.error);
}

import { readToken } from '@app/api-client';
import { API_PATHS } from '@app/contracts';
import { REMOTE_NAMES } from '@app/federation';
import { type ContainerName, planRemotes, type RemoteChoice } from '@app/rollout';
import type { RuntimeConfig } from '../config/runtime-config';
import { loadDeployment } from './deployment';
import { takeOverrideParam } from './override-status';
import { pagePlan } from './page-plan';
import { type PreviewState, takePreviewParam, verifyPreview } from './preview';
import { rememberedUserId, rememberUserId, visitorCohort } from './visitor';

export interface RolloutState {
  plan: Record<ContainerName, RemoteChoice>;
  preview: PreviewState;
  /** Load budget for a canary or preview before it falls back to stable. */
  canaryBudgetMs: number;
  /** Load budget for the last resort (stable or config URL) before its region shows Retry. */
  loadBudgetMs: number;
}

/**
 * A logged-in member on a device that has not seen their profile yet: ask for the user id once, so their
 * cohort (and so their versions) is the same as on their other devices. Bounded, and skipped when known.
 */
async function userIdFor(apiBaseUrl: string): Promise<string | null> {
  const remembered = rememberedUserId();
  const token = readToken();
  if (!token) return null;
  if (remembered) return remembered;
  try {
    const response = await fetch(`${apiBaseUrl}${API_PATHS.profile}`, {
      headers: { Authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(3000),
    });
    if (!response.ok) return null;
    const { id } = (await response.json()) as { id?: unknown };
    if (typeof id !== 'number') return null;
    rememberUserId(id);
    return String(id);
  } catch {
    return null;
  }
}

/**
 * Everything the shell needs before registering remotes: the plan the edge wrote into the page (decided
 * before the HTML, so the page painted exactly these versions), or, where no edge served the page, the
 * same decision made here from the manifest, the preview and the visitor, fetched in parallel.
 */
export async function prepareRollout(config: RuntimeConfig): Promise<RolloutState> {
  const { deployment } = config;
  const budgets = {
    canaryBudgetMs: deployment?.canaryLoadBudgetMs ?? 8000,
    loadBudgetMs: config.remoteLoadBudgetMs,
  };
  takePreviewParam();
  takeOverrideParam();
  const planned = pagePlan();
  if (planned) return { plan: planned.plan, preview: planned.preview, ...budgets };
  const [manifest, preview, userId] = await Promise.all([
    deployment ? loadDeployment(deployment.manifestUrl) : Promise.resolve(null),
    deployment ? verifyPreview(config.apiBaseUrl) : Promise.resolve<PreviewState>({ status: 'none' }),
    deployment ? userIdFor(config.apiBaseUrl) : Promise.resolve(null),
  ]);
  const configUrls = Object.fromEntries(
    REMOTE_NAMES.map((name) => [name, config.remotes[name].url]),
  ) as Record<ContainerName, string>;
  const configIntegrity = Object.fromEntries(
    REMOTE_NAMES.map((name) => [name, config.remotes[name].integrity]),
  ) as Partial<Record<ContainerName, string>>;
  const plan = planRemotes(REMOTE_NAMES, {
    configUrls,
    configIntegrity,
    manifest,
    releasesUrl: deployment?.releasesUrl ?? null,
    cohort: visitorCohort(userId),
    preview: preview.status === 'active' ? preview.grant : null,
  });
  return { plan, preview, ...budgets };
}

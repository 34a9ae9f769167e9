// A subpath: the package's index would bring every schema (and valibot) into the first script.
import { TOKEN_KEY } from '@app/contracts/storage-keys';
import type { ContainerName, DeploymentManifest, MfManifest, RemoteChoice } from '@app/rollout';
import { planRemote, remoteAppFiles } from '@app/rollout';
import { PAGE_PLAN_ID } from '@app/rollout/page-plan-id';
import { PREVIEW_KEY } from '../rollout/preview-key';
import { rememberedUserId, visitorCohort } from '../rollout/visitor';
import { findRoute } from '../routes/route-table';
import { CONFIG_URL, fetchJsonOnce } from './fetch-once';

/**
 * Runs in the shell's first script, before the shared modules (React, the router) have loaded: from the
 * path it knows which remote the page needs, decides the version exactly as the shell will (same plan, same
 * cohort), fetches that version's manifest and preloads its entry and ./App chunks. When the shell later
 * loads the remote, they are already here or on their way (docs/decisions/0010-first-visit-loading.md).
 *
 * Where an edge served the page (docs/decisions/0026-edge.md), the decision is in the page's plan: nothing
 * has to be fetched to decide, and the HTML has already requested a released version's manifest, so its
 * code is preloaded as soon as this script runs (one round trip after the HTML).
 *
 * Without a plan, skipped where the decision is not known yet (a pending preview link, a member on a device
 * that has not seen their id): the shell then decides after its own requests, as before. Never throws.
 */
function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/**
 * `as` and `crossorigin` must be what the later request uses, or the browser downloads twice: the runtime
 * fetches manifests in CORS mode, and loads entries and chunks with plain <script> tags.
 */
function addPreload(href: string, as: 'fetch' | 'script', integrity: string | null = null): void {
  const link = document.createElement('link');
  link.rel = 'preload';
  link.setAttribute('as', as);
  // The pinned entry is loaded with integrity + crossorigin (federation/entry-integrity.ts): so is its preload.
  if (as === 'fetch' || integrity) link.crossOrigin = 'anonymous';
  if (integrity) link.integrity = integrity;
  link.href = href;
  document.head.appendChild(link);
}

/**
 * Not validated with the manifest schema here: that would put valibot in the first script. A malformed
 * manifest only makes this a wrong hint; the shell validates before it loads anything.
 */
function manifestOrNull(raw: unknown): DeploymentManifest | null {
  const remotes = (raw as { remotes?: unknown } | null)?.remotes;
  return remotes && typeof remotes === 'object' ? (raw as DeploymentManifest) : null;
}

/**
 * The route's choice in the edge's plan, unvalidated (valibot stays out of the first script; the shell
 * validates the plan before it loads anything): undefined when the page has no plan.
 */
function plannedChoice(remote: ContainerName): RemoteChoice | null | undefined {
  const block = document.getElementById(PAGE_PLAN_ID);
  if (!block?.textContent) return undefined;
  try {
    const plan = (JSON.parse(block.textContent) as { plan?: Record<string, RemoteChoice> }).plan;
    return plan?.[remote] ?? null;
  } catch {
    return null;
  }
}

export async function preloadRouteRemote(): Promise<void> {
  try {
    const route = findRoute(window.location.pathname);
    if (!route) return;
    const planned = plannedChoice(route.remote);
    if (planned !== undefined) {
      if (planned) await preloadCode(planned);
      return;
    }
    const store = storage();
    if (new URL(window.location.href).searchParams.has('preview') || store?.getItem(PREVIEW_KEY)) return;
    const loggedIn = Boolean(store?.getItem(TOKEN_KEY));
    const userId = loggedIn ? rememberedUserId(store) : null;
    if (loggedIn && userId === null) return;

    const config = (await fetchJsonOnce(CONFIG_URL)).body as {
      remotes?: Record<string, { url?: string }>;
      deployment?: { manifestUrl?: string; releasesUrl?: string };
    };
    const configUrl = config?.remotes?.[route.remote]?.url;
    if (typeof configUrl !== 'string') return;
    const { manifestUrl, releasesUrl } = config.deployment ?? {};
    const deployment = manifestUrl ? await fetchJsonOnce(manifestUrl) : null;
    // Only the route's remote is planned, so only its URL is needed.
    const configUrls = { [route.remote]: configUrl } as Record<ContainerName, string>;
    const choice = planRemote(route.remote, {
      configUrls,
      manifest: deployment?.ok ? manifestOrNull(deployment.body) : null,
      releasesUrl: releasesUrl ? new URL(releasesUrl, window.location.href).href : null,
      cohort: visitorCohort(userId, store),
      preview: null,
    });
    await preloadCode(choice);
  } catch {
    // only a head start: the shell loads the remote either way
  }
}

/**
 * The manifest itself is fetched here (a release's is cached for a year, so the runtime's own request is
 * answered from the cache), then its code is preloaded while the shell is still starting. A released
 * version without a digest is never loaded: nothing to preload.
 */
async function preloadCode(choice: Pick<RemoteChoice, 'entry' | 'version' | 'integrity'>): Promise<void> {
  if (choice.version && !choice.integrity) return;
  const response = await fetch(choice.entry);
  if (!response.ok) return;
  const [entry, ...chunks] = remoteAppFiles(choice.entry, (await response.json()) as MfManifest);
  if (entry) addPreload(entry, 'script', choice.integrity);
  for (const href of chunks) addPreload(href, 'script');
}

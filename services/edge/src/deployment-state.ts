// What the edge reads to decide a page: the runtime config from disk (validated when it changes,
// watched-file.ts, otherwise reused) and the deployment manifest from the API's feed (deployment-feed.ts),
// so a rollout or an edit reaches the next request of every instance with no restart, and a bad edit or
// manifest keeps the last good version (and says so).
import { checkRuntimeConfig, type DeploymentManifest, type RemotePackage } from '@app/rollout';
import { fileReleaseStore, isReleased } from '@app/rollout/node';
import type { DegradedLog } from './degraded';
import type { ManifestFeed } from './deployment-feed';
import { watchedFile } from './watched-file';

/** config.json as written (the shell resolves its paths against the page's origin, as the edge does). */
export type RawConfig = Record<string, unknown> & {
  apiBaseUrl: string;
  remotes: Record<string, { url: string; integrity?: string }>;
  deployment?: { manifestUrl: string; releasesUrl: string; canaryLoadBudgetMs?: number };
};

/** Any origin will do for checking: paths are resolved per request against the page's own. */
const CHECK_ORIGIN = 'http://localhost';

/**
 * The runtime config with the browser's API address replaced (API_BASE_URL, config.ts): the API may run
 * elsewhere than config.json says (`API_PORT=4100 pnpm start`), and every page, its CSP and /config.json
 * must then point there. Without an override the config is returned as it is.
 */
export function withApiBaseUrl<T extends object>(config: T, apiBaseUrl: string | undefined): T {
  return apiBaseUrl ? { ...config, apiBaseUrl } : config;
}

/**
 * The API as this edge reaches it, server to server (a member's id, per-request renders, override use
 * reports): API_URL when set, else the runtime config's apiBaseUrl against the page's origin; null without a
 * config.
 */
export function edgeApiBase(
  apiUrl: string | undefined,
  config: Pick<RawConfig, 'apiBaseUrl'> | null,
  selfOrigin: string,
): string | null {
  return apiUrl ?? (config ? new URL(config.apiBaseUrl, selfOrigin).href : null);
}

export function validConfig(raw: unknown): RawConfig {
  const checked = checkRuntimeConfig(raw, CHECK_ORIGIN);
  if (!checked.ok) throw new Error(`invalid runtime config: ${checked.error}`);
  return raw as RawConfig;
}

export interface DeploymentState {
  /** The last valid runtime config, or null when there never was one. */
  config(): RawConfig | null;
  /** The feed's last valid deployment manifest, or null before the first (or without a feed). */
  manifest(): DeploymentManifest | null;
  /** The deployment feed, when the edge has one. */
  feed: ManifestFeed | null;
  store: string | null;
  /** The folder of a released version, or null when it is not (completely) released. */
  releaseFolder(remote: RemotePackage, version: string): string | null;
}

export function deploymentState(o: {
  /** config.json's file (watched), or a fixed config. */
  configFile?: string;
  runtimeConfig?: unknown;
  releases?: { store: string };
  feed?: ManifestFeed;
  /** API_BASE_URL: replaces the config's apiBaseUrl (withApiBaseUrl). */
  apiBaseUrl?: string;
  degraded: DegradedLog;
}): DeploymentState {
  let config: () => RawConfig | null;
  if (o.runtimeConfig !== undefined) {
    let fixed: RawConfig | null = null;
    try {
      fixed = validConfig(withApiBaseUrl(o.runtimeConfig as object, o.apiBaseUrl));
    } catch (error) {
      o.degraded.note('config-invalid', 'runtimeConfig', null, error);
    }
    config = () => fixed;
  } else if (o.configFile) {
    const file = o.configFile;
    config = watchedFile(
      file,
      (text) => validConfig(withApiBaseUrl(JSON.parse(text), o.apiBaseUrl)),
      (error) => o.degraded.note('config-invalid', file, null, error),
    );
  } else config = () => null;

  const releases = o.releases;
  // Where a release's files are comes from the store interface (docs/decisions/0030-deploy-control-plane.md);
  // the edge serves them, so it needs a store with folders on this machine (the file store).
  const store = releases ? fileReleaseStore(releases.store) : null;
  const feed = o.feed ?? null;
  return {
    config,
    manifest: () => feed?.manifest() ?? null,
    feed,
    store: releases?.store ?? null,
    releaseFolder(remote, version) {
      // Complete only once its release.json is there (written last); checked on every page, so synchronously.
      if (!releases || !store || !isReleased(releases.store, remote, version)) return null;
      return store.folder(remote, version);
    },
  };
}

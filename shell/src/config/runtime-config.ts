import { LIMITS } from '@app/contracts';
import { REMOTE_NAMES, type RemoteName } from '@app/federation';
import { IntegritySchema } from '@app/rollout';
import * as v from 'valibot';
import { CONFIG_URL, type FetchedJson, fetchJsonOnce } from '../early/fetch-once';

/**
 * The runtime config (docs/decisions/0002-runtime-config.md), fetched from /config.json at startup, so
 * operators move, redeploy, roll back or canary a remote without rebuilding the shell.
 */
const HttpUrlSchema = v.pipe(
  v.string(),
  v.url(),
  v.check((url) => /^https?:\/\//.test(url), 'must be an http(s) address'),
);

/** An http(s) address, or a path on the shell's own origin (resolved against it). */
const UrlOrPathSchema = v.pipe(
  v.string(),
  v.check(
    (url) => /^https?:\/\//.test(url) || /^\/(?!\/)/.test(url),
    'must be an http(s) address or a path starting with /',
  ),
  v.transform((url) => new URL(url, window.location.origin).href),
);

/**
 * A remote's plain URL: where it is served when the deployment manifest has no release of it; with an
 * `integrity` (sha384-…), its remoteEntry.js is loaded only if it matches (released versions always are).
 */
const RemoteSchema = v.object({ url: HttpUrlSchema, integrity: v.optional(IntegritySchema) });

/**
 * Staged rollouts (docs/decisions/0009-staged-rollouts.md): the deployment manifest says which released
 * version of each remote is stable and which is a canary for what share of visitors.
 */
const DeploymentSchema = v.object({
  manifestUrl: UrlOrPathSchema,
  releasesUrl: UrlOrPathSchema,
  canaryLoadBudgetMs: v.optional(v.pipe(v.number(), v.integer(), v.minValue(500), v.maxValue(60_000)), 8000),
});

export const RuntimeConfigSchema = v.object({
  apiBaseUrl: HttpUrlSchema,
  remotes: v.object(
    Object.fromEntries(REMOTE_NAMES.map((name) => [name, RemoteSchema])) as Record<
      RemoteName,
      typeof RemoteSchema
    >,
  ),
  deployment: v.optional(DeploymentSchema),
  /**
   * How long a remote may take to load before its region shows the fallback with Retry (issue 11): a dead
   * server costs a visitor seconds, not SPEC's 120 s, which stays the upper bound.
   */
  remoteLoadBudgetMs: v.optional(
    v.pipe(v.number(), v.integer(), v.minValue(1000), v.maxValue(LIMITS.lazyLoadTimeoutMs)),
    10_000,
  ),
  features: v.optional(
    v.object({
      performanceMonitor: v.optional(v.boolean(), false),
      crashTestRoute: v.optional(v.boolean(), false),
    }),
    { performanceMonitor: false, crashTestRoute: false },
  ),
});
export type RuntimeConfig = v.InferOutput<typeof RuntimeConfigSchema>;

export class StartupError extends Error {
  override readonly name = 'StartupError';
}

export async function loadRuntimeConfig(url = CONFIG_URL): Promise<RuntimeConfig> {
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
  const result = v.safeParse(RuntimeConfigSchema, raw);
  if (result.success) return result.output;
  const details = result.issues.map((issue) => `${v.getDotPath(issue) ?? '(root)'}: ${issue.message}`);
  throw new StartupError(details.join('; '));
}

import * as v from 'valibot';
import { IntegritySchema } from './integrity';
import { type ContainerName, REMOTE_CONTAINERS } from './remotes';

/**
 * The shell's runtime config (docs/decisions/0002-runtime-config.md): config.json, which operators edit to
 * move a remote, point at another API or change the deployment's addresses without rebuilding the shell.
 * One schema for both readers: the edge validates it whenever the file changes and writes it into each page;
 * the shell validates what it starts from (that block, or /config.json where no edge serves the page).
 */
const HttpUrlSchema = v.pipe(
  v.string(),
  v.url(),
  v.check((url) => /^https?:\/\//.test(url), 'must be an http(s) address'),
);

/** SPEC's upper bound for loading a remote (LIMITS.lazyLoadTimeoutMs in @app/contracts, which imports this package). */
export const MAX_REMOTE_LOAD_BUDGET_MS = 120_000;

/** An http(s) address, or a path on the shell's own origin (resolved against it). */
const urlOrPath = (origin: string) =>
  v.pipe(
    v.string(),
    v.check(
      (url) => /^https?:\/\//.test(url) || /^\/(?!\/)/.test(url),
      'must be an http(s) address or a path starting with /',
    ),
    v.transform((url) => new URL(url, origin).href),
  );

/**
 * A remote's plain URL: where it is served when the deployment manifest has no release of it; with an
 * `integrity` (sha384-…), its remoteEntry.js is loaded only if it matches (released versions always are).
 */
const RemoteSchema = v.object({ url: HttpUrlSchema, integrity: v.optional(IntegritySchema) });

export function runtimeConfigSchema(origin: string) {
  return v.object({
    apiBaseUrl: HttpUrlSchema,
    remotes: v.object(
      Object.fromEntries(REMOTE_CONTAINERS.map((name) => [name, RemoteSchema])) as Record<
        ContainerName,
        typeof RemoteSchema
      >,
    ),
    /**
     * Staged rollouts (docs/decisions/0009-staged-rollouts.md): where the deployment manifest and the
     * release store are, and how long a canary may take to load before stable replaces it.
     */
    deployment: v.optional(
      v.object({
        manifestUrl: urlOrPath(origin),
        releasesUrl: urlOrPath(origin),
        canaryLoadBudgetMs: v.optional(
          v.pipe(v.number(), v.integer(), v.minValue(500), v.maxValue(60_000)),
          8000,
        ),
      }),
    ),
    /**
     * How long a remote may take to load before its region shows the fallback with Retry (issue 11): a dead
     * server costs a visitor seconds, not SPEC's 120 s, which stays the upper bound.
     */
    remoteLoadBudgetMs: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1000), v.maxValue(MAX_REMOTE_LOAD_BUDGET_MS)),
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
}
export type RuntimeConfig = v.InferOutput<ReturnType<typeof runtimeConfigSchema>>;

export type RuntimeConfigResult = { ok: true; config: RuntimeConfig } | { ok: false; error: string };

/** Validates a parsed config.json; the error names every offending field. */
export function checkRuntimeConfig(raw: unknown, origin: string): RuntimeConfigResult {
  const result = v.safeParse(runtimeConfigSchema(origin), raw);
  if (result.success) return { ok: true, config: result.output };
  const details = result.issues.map((issue) => `${v.getDotPath(issue) ?? '(root)'}: ${issue.message}`);
  return { ok: false, error: details.join('; ') };
}

import { REMOTE_NAMES, type RemoteName } from '@app/federation';
import * as v from 'valibot';

/**
 * The runtime config (docs/decisions/0002-runtime-config.md), fetched from /config.json at startup, so
 * operators move, redeploy, roll back or canary a remote without rebuilding the shell.
 */
const HttpUrlSchema = v.pipe(
  v.string(),
  v.url(),
  v.check((url) => /^https?:\/\//.test(url), 'must be an http(s) address'),
);

const RemoteSchema = v.object({
  url: HttpUrlSchema,
  /** A new version served to a share of users first. */
  canary: v.optional(
    v.object({ url: HttpUrlSchema, percent: v.pipe(v.number(), v.minValue(0), v.maxValue(100)) }),
  ),
});

export const RuntimeConfigSchema = v.object({
  apiBaseUrl: HttpUrlSchema,
  remotes: v.object(
    Object.fromEntries(REMOTE_NAMES.map((name) => [name, RemoteSchema])) as Record<
      RemoteName,
      typeof RemoteSchema
    >,
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

export async function loadRuntimeConfig(url = '/config.json'): Promise<RuntimeConfig> {
  let raw: unknown;
  try {
    const response = await fetch(url, { cache: 'no-store' });
    if (!response.ok) throw new StartupError(`${url} answered ${response.status}.`);
    raw = await response.json();
  } catch (error) {
    if (error instanceof StartupError) throw error;
    throw new StartupError(`${url} could not be read.`);
  }
  return parseRuntimeConfig(raw);
}

export function parseRuntimeConfig(raw: unknown): RuntimeConfig {
  const result = v.safeParse(RuntimeConfigSchema, raw);
  if (result.success) return result.output;
  const details = result.issues.map((issue) => `${v.getDotPath(issue) ?? '(root)'}: ${issue.message}`);
  throw new StartupError(details.join('; '));
}

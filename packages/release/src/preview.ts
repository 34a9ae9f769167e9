import type { RemotePackage } from '@app/rollout';
import { ensurePreviewSecret, readManifestFile, signPreviewToken } from '@app/rollout/node';
import { appendAudit, auditEntry, describeDeployment } from './audit';
import type { RolloutContext } from './context';
import { RolloutError } from './errors';
import { requireRelease } from './release-info';

export const DEFAULT_PREVIEW_HOURS = 4;
export const MAX_PREVIEW_HOURS = 24 * 30;

export interface PreviewLink {
  url: string;
  token: string;
  expiresAt: string;
}

function baseUrlOf(given: string | undefined, env: Record<string, string | undefined>): string {
  const base = given ?? env.PREVIEW_BASE_URL ?? 'http://localhost:3000';
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new RolloutError(`the preview base URL "${base}" is not a URL (like https://app.example.com)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new RolloutError(`the preview base URL must be http or https, got "${base}"`);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/**
 * A link that pins one remote to one released version in the browser that opens it (QA before a canary).
 * Signed with the deployment's secret, which the API verifies; the link names a released version only.
 */
export function createPreview(
  ctx: RolloutContext,
  input: { remote: RemotePackage; version: string; hours?: number; baseUrl?: string },
): PreviewLink {
  const { remote, version } = input;
  const hours = input.hours ?? DEFAULT_PREVIEW_HOURS;
  if (!(hours > 0 && hours <= MAX_PREVIEW_HOURS)) {
    throw new RolloutError(`--hours must be more than 0 and at most ${MAX_PREVIEW_HOURS}, got ${hours}`);
  }
  requireRelease(ctx.paths.store, remote, version);
  const base = baseUrlOf(input.baseUrl, ctx.env);
  const now = ctx.now();
  const exp = now.getTime() + Math.round(hours * 3_600_000);
  const token = signPreviewToken({ remote, version, exp }, ensurePreviewSecret(ctx.paths, ctx.env));
  const expiresAt = new Date(exp).toISOString();
  let live: string | null = null;
  try {
    live = describeDeployment(readManifestFile(ctx.paths.manifestFile)?.remotes[remote]);
  } catch {} // a link to a released version is valid whatever the manifest says
  appendAudit(ctx.paths.auditFile, [
    auditEntry(
      {
        action: 'preview',
        remote,
        from: live,
        to: `${live ? `${live} · ` : ''}preview ${version} until ${expiresAt}`,
      },
      { environment: ctx.paths.environment, actor: ctx.actor, at: now },
    ),
  ]);
  return { url: `${base}/?preview=${token}`, token, expiresAt };
}

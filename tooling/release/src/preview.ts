import {
  type DeployPreview,
  type DeployPreviewList,
  PREVIEW_DEFAULT_HOURS,
  PREVIEW_MAX_HOURS,
  type PreviewLink,
} from '@app/contracts/deploy';
import type { RemotePackage } from '@app/rollout';
import type { RolloutContext } from './context';
import { previewBaseUrlFrom } from './deploy-target';
import { RolloutError } from './errors';

/** The API's own limits (a week at most; issue 44), checked here too so a typo fails before any call. */
export const DEFAULT_PREVIEW_HOURS = PREVIEW_DEFAULT_HOURS;
export const MAX_PREVIEW_HOURS = PREVIEW_MAX_HOURS;

/**
 * A link that pins one remote to one released version in the browser that opens it (QA before a canary),
 * in the context's environment only. The API stores it (the token's hash), audits it, and can revoke it;
 * the base URL is `--base-url`, else PREVIEW_BASE_URL, else the API's own default.
 */
export async function createPreview(
  ctx: RolloutContext,
  input: { remote: RemotePackage; version: string; hours?: number; baseUrl?: string },
  env: Record<string, string | undefined> = process.env,
): Promise<PreviewLink> {
  const hours = input.hours ?? DEFAULT_PREVIEW_HOURS;
  if (!(hours > 0 && hours <= MAX_PREVIEW_HOURS)) {
    throw new RolloutError(
      `--hours must be more than 0 and at most ${MAX_PREVIEW_HOURS} (7 days), got ${hours}`,
    );
  }
  const baseUrl = input.baseUrl ?? previewBaseUrlFrom(env);
  if (baseUrl !== undefined) {
    let url: URL | null = null;
    try {
      url = new URL(baseUrl);
    } catch {}
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
      throw new RolloutError(
        `the preview base URL "${baseUrl}" is not an http or https URL (like https://app.example.com)`,
      );
  }
  return ctx.client.preview(input.remote, {
    version: input.version,
    hours,
    ...(baseUrl ? { baseUrl } : {}),
  });
}

/** The environment's links (of one remote when given), active first, as the API lists them. */
export function listPreviews(ctx: RolloutContext, remote?: RemotePackage): Promise<DeployPreviewList> {
  return ctx.client.previews(remote);
}

/** Revokes a link of the context's environment; revoking it again answers the same. */
export function revokePreview(ctx: RolloutContext, id: string): Promise<DeployPreview> {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(id))
    throw new RolloutError(
      `name the preview link by its id (as \`pnpm rollout previews\` lists it), got "${id}"`,
    );
  return ctx.client.revokePreview(id);
}

/** What `pnpm rollout preview` prints: the link last, alone on its line, for a script to take. */
export function formatPreviewLink(link: PreviewLink): string {
  return [
    `preview ${link.id}: ${link.remote} ${link.version} in "${link.environment}", expires ${link.expiresAt}`,
    `revoke it with: pnpm rollout revoke-preview ${link.id} --env ${link.environment}`,
    link.url,
  ].join('\n');
}

/** One line per link: id, status, remote and version, until when, who made (and revoked) it. */
export function formatPreviews(list: DeployPreviewList): string {
  if (list.previews.length === 0) return `no preview links in "${list.environment}"`;
  const lines = list.previews.map((p) => {
    const until =
      p.status === 'revoked' ? `revoked ${p.revokedAt} by ${p.revokedBy}` : `until ${p.expiresAt}`;
    return `${p.id}  ${p.status.padEnd(7)}  ${p.remote} ${p.version}  ${until}  (made by ${p.createdBy})`;
  });
  return [`preview links in "${list.environment}":`, ...lines].join('\n');
}

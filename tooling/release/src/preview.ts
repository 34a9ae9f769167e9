import { PREVIEW_DEFAULT_HOURS, PREVIEW_MAX_HOURS, type PreviewLink } from '@app/contracts/deploy';
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

/** What `pnpm rollout preview` prints: the link last, alone on its line, for a script to take. */
export function formatPreviewLink(link: PreviewLink): string {
  return [
    `preview ${link.id}: ${link.remote} ${link.version} in "${link.environment}", expires ${link.expiresAt}`,
    `revoke it with: pnpm rollout revoke-preview ${link.id} --env ${link.environment}`,
    link.url,
  ].join('\n');
}

import type { PreviewLink } from '@app/contracts/deploy';
import type { RemotePackage } from '@app/rollout';
import type { RolloutContext } from './context';
import { previewBaseUrlFrom } from './deploy-target';
import { RolloutError } from './errors';

export const DEFAULT_PREVIEW_HOURS = 4;
export const MAX_PREVIEW_HOURS = 24 * 30;

/**
 * A link that pins one remote to one released version in the browser that opens it (QA before a canary).
 * The API signs it with the preview secret it verifies with, and audits it; the base URL is `--base-url`,
 * else PREVIEW_BASE_URL, else the API's own default.
 */
export async function createPreview(
  ctx: RolloutContext,
  input: { remote: RemotePackage; version: string; hours?: number; baseUrl?: string },
  env: Record<string, string | undefined> = process.env,
): Promise<PreviewLink> {
  const hours = input.hours ?? DEFAULT_PREVIEW_HOURS;
  if (!(hours > 0 && hours <= MAX_PREVIEW_HOURS)) {
    throw new RolloutError(`--hours must be more than 0 and at most ${MAX_PREVIEW_HOURS}, got ${hours}`);
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

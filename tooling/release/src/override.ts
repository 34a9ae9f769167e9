import type { DeployOverride, OverrideLink } from '@app/contracts/deploy';
import type { RemotePackage } from '@app/rollout';
import { OVERRIDE_DEFAULT_HOURS, OVERRIDE_MAX_HOURS, overrideTarget } from '@app/rollout/dev-override';
import type { RolloutContext } from './context';
import { previewBaseUrlFrom } from './deploy-target';
import { RolloutError } from './errors';

/**
 * Dev override links (issue 47, docs/decisions/0042-dev-overrides.md): the browser that opens the link loads
 * `remote` from a dev server, in the context's environment only, until the link expires (2 hours by default)
 * or is revoked. The URL is checked here with the API's own rule (loopback and private networks) so a typo
 * fails before any call; the API checks again with its DEV_OVERRIDE_ORIGINS, which this machine may not know,
 * so a URL only that setting admits is left to the API.
 */
export async function createOverride(
  ctx: RolloutContext,
  input: { remote: RemotePackage; url: string; hours?: number; baseUrl?: string },
  env: Record<string, string | undefined> = process.env,
): Promise<OverrideLink> {
  const hours = input.hours ?? OVERRIDE_DEFAULT_HOURS;
  if (!(hours > 0 && hours <= OVERRIDE_MAX_HOURS)) {
    throw new RolloutError(
      `--hours must be more than 0 and at most ${OVERRIDE_MAX_HOURS} (7 days), got ${hours}`,
    );
  }
  const local = overrideTarget(input.url);
  // A scheme, credentials or a path the API would refuse whatever its settings: say so now.
  if (!local.ok && !/neither loopback nor a private network/.test(local.error))
    throw new RolloutError(local.error);
  const baseUrl = input.baseUrl ?? previewBaseUrlFrom(env);
  return ctx.client.override(input.remote, { url: input.url, hours, ...(baseUrl ? { baseUrl } : {}) });
}

export function revokeOverride(ctx: RolloutContext, id: string): Promise<DeployOverride> {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) {
    throw new RolloutError(
      `name the override link by its id (as \`pnpm rollout override\` printed it), got "${id}"`,
    );
  }
  return ctx.client.revokeOverride(id);
}

/** What `pnpm rollout override` prints: the link last, alone on its line, for a script to take. */
export function formatOverrideLink(link: OverrideLink): string {
  return [
    `override ${link.id}: ${link.remote} from ${link.url} in "${link.environment}", expires ${link.expiresAt}`,
    `revoke it with: pnpm rollout revoke-override ${link.id} --env ${link.environment}`,
    link.link,
  ].join('\n');
}

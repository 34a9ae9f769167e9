import { createHash, randomBytes } from 'node:crypto';
import { type FeedOverride, OVERRIDE_MESSAGES, OVERRIDE_TOKEN_PATTERN } from './dev-override';
import type { OverrideState } from './page-plan';

/** A new override link's token: `mfo_` + 32 random bytes in base64url, shown once; only its hash is kept. */
export const newOverrideToken = (): string => `mfo_${randomBytes(32).toString('base64url')}`;

/** Stored and published: the token's SHA-256 in lowercase hex (as preview tokens, decision 0037). */
export const overrideTokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

export type CheckedOverride = Exclude<OverrideState, { status: 'none' }>;

/**
 * An override token checked against the environment's published overrides, in preview links' order:
 * malformed or unknown (another environment's, never made, tampered) is not valid, then revoked, then
 * expired; otherwise the grant. `overrides` null: no feed answer yet. Never throws.
 */
export function checkOverride(
  token: string,
  o: { overrides: readonly FeedOverride[] | null; now?: number },
): CheckedOverride {
  if (!o.overrides) return { status: 'refused', message: OVERRIDE_MESSAGES.disabled };
  if (typeof token !== 'string' || !OVERRIDE_TOKEN_PATTERN.test(token)) {
    return { status: 'refused', message: OVERRIDE_MESSAGES.invalid };
  }
  const hash = overrideTokenHash(token);
  const link = o.overrides.find((x) => x.tokenHash === hash);
  if (!link) return { status: 'refused', message: OVERRIDE_MESSAGES.invalid };
  if (link.revokedAt !== null) return { status: 'refused', message: OVERRIDE_MESSAGES.revoked };
  if (!(Date.parse(link.expiresAt) > (o.now ?? Date.now()))) {
    return { status: 'refused', message: OVERRIDE_MESSAGES.expired };
  }
  return {
    status: 'active',
    grant: {
      remote: link.remote,
      entry: link.url,
      origin: new URL(link.url).origin,
      expiresAt: new Date(link.expiresAt).toISOString(),
    },
  };
}

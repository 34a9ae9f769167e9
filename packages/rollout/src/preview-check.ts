import type { PreviewState } from './page-plan';
import { type FeedPreview, PREVIEW_TOKEN_PATTERN } from './preview-link';
import { previewTokenHash } from './preview-token';

/** What a visitor is told about a preview link, in one place for the edge and the API. */
export const PREVIEW_MESSAGES = {
  expired: 'This preview link has expired.',
  invalid: 'This preview link is not valid.',
  revoked: 'This preview link has been revoked.',
  /** The checker has no list of the environment's links yet (an edge before its first feed answer). */
  disabled: 'Preview links are not available yet on this server.',
} as const;

export type CheckedPreview = Exclude<PreviewState, { status: 'none' }>;

export interface PreviewCheckOptions {
  /** The environment's links as the deployment feed publishes them; null while none were received. */
  previews: readonly FeedPreview[] | null;
  /** Milliseconds since the epoch. */
  now?: number;
}

/**
 * A preview token checked against the environment's links: a token that is malformed or whose hash is not
 * in the list is not valid (made for another environment, or never made); then revoked, then expired;
 * otherwise the grant, with the entry digest recorded at release. Never throws.
 */
export function checkPreview(token: string, o: PreviewCheckOptions): CheckedPreview {
  const previews = o.previews;
  if (!previews) return { status: 'refused', message: PREVIEW_MESSAGES.disabled };
  if (typeof token !== 'string' || !PREVIEW_TOKEN_PATTERN.test(token)) {
    return { status: 'refused', message: PREVIEW_MESSAGES.invalid };
  }
  const hash = previewTokenHash(token);
  const link = previews.find((p) => p.tokenHash === hash);
  if (!link) return { status: 'refused', message: PREVIEW_MESSAGES.invalid };
  if (link.revokedAt !== null) return { status: 'refused', message: PREVIEW_MESSAGES.revoked };
  const now = o.now ?? Date.now();
  if (!(Date.parse(link.expiresAt) > now)) return { status: 'refused', message: PREVIEW_MESSAGES.expired };
  return {
    status: 'active',
    grant: {
      remote: link.remote,
      version: link.version,
      expiresAt: new Date(link.expiresAt).toISOString(),
      integrity: link.integrity,
    },
  };
}

import { releasedEntryIntegrity } from './integrity-node';
import type { PreviewState } from './page-plan';
import { verifyPreviewToken } from './preview-token';

/** What a visitor is told about a preview link, in one place for the edge and the API. */
export const PREVIEW_MESSAGES = {
  expired: 'This preview link has expired.',
  invalid: 'This preview link is not valid.',
  notReleased: 'This preview link names a version that is not released.',
  disabled: 'Preview links are not enabled on this server.',
} as const;

/**
 * A preview token checked the whole way: its signature and expiry, and that it names a released version of
 * that remote (whose recorded entry digest goes with the grant). Never throws.
 */
export function checkPreview(
  token: string,
  { store, secret, now = Date.now() }: { store: string; secret: string | null; now?: number },
): Exclude<PreviewState, { status: 'none' }> {
  if (!secret) return { status: 'refused', message: PREVIEW_MESSAGES.disabled };
  const verdict = verifyPreviewToken(token, secret, now);
  if (!verdict.ok) {
    const message = verdict.reason === 'expired' ? PREVIEW_MESSAGES.expired : PREVIEW_MESSAGES.invalid;
    return { status: 'refused', message };
  }
  const { remote, version, exp } = verdict.claims;
  const integrity = releasedEntryIntegrity(store, remote, version);
  if (!integrity) return { status: 'refused', message: PREVIEW_MESSAGES.notReleased };
  return {
    status: 'active',
    grant: { remote, version, expiresAt: new Date(exp).toISOString(), integrity },
  };
}

import type { FeedPreview, PreviewState } from '@app/rollout';
import { checkPreview } from '@app/rollout/node';
import { decideLinkCookie, type LinkDecision, linkCookieHeader } from './link-cookie';

/**
 * Preview links opened at the edge (docs/decisions/0026-edge.md, 0037-preview-links.md). `?preview=<token>` is
 * checked here against the environment's links, which the deployment feed brings (no round trip to the API,
 * no key: a token is an opaque random string whose hash the API published); a valid one becomes a cookie
 * scoped to this site that expires with the link, and the visitor is sent to the clean URL. Every page checks
 * the cookie again, so a revoked link ends at the next page. A link made for another environment is not in
 * this one's list: not valid. A link or cookie that does not check out is dropped, and the page says why
 * while serving the live versions.
 */
export const PREVIEW_COOKIE = 'preview';
export const PREVIEW_PARAM = 'preview';

export type PreviewDecision = LinkDecision<PreviewState>;

/** The Set-Cookie header that ends a preview (Exit preview, or a cookie that no longer checks out). */
export const clearPreviewCookie = (secure: boolean) => linkCookieHeader(PREVIEW_COOKIE, '', 0, secure);

export function decidePreview(
  url: URL,
  cookieHeader: string | undefined,
  o: { previews: () => readonly FeedPreview[] | null; secure: boolean; now?: number },
): PreviewDecision {
  const check = (token: string, now: number) => checkPreview(token, { previews: o.previews(), now });
  return decideLinkCookie({ param: PREVIEW_PARAM, cookieName: PREVIEW_COOKIE, check }, url, cookieHeader, o);
}

import type { FeedPreview, PreviewState } from '@app/rollout';
import { checkPreview } from '@app/rollout/node';
import { stringifySetCookie } from 'cookie';
import { cookiesOf } from './visitor-cookie';

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

export interface PreviewDecision {
  state: PreviewState;
  /** Set-Cookie headers to send with the answer. */
  cookies: string[];
  /** Where to send the visitor instead of serving the page (a link was accepted: the clean URL). */
  redirect: string | null;
}

const cookie = (value: string, maxAge: number, secure: boolean) =>
  stringifySetCookie({
    name: PREVIEW_COOKIE,
    value,
    path: '/',
    maxAge,
    httpOnly: true,
    secure,
    sameSite: 'lax',
  });

/** The Set-Cookie header that ends a preview (Exit preview, or a cookie that no longer checks out). */
export const clearPreviewCookie = (secure: boolean) => cookie('', 0, secure);

export function decidePreview(
  url: URL,
  cookieHeader: string | undefined,
  o: { previews: () => readonly FeedPreview[] | null; secure: boolean; now?: number },
): PreviewDecision {
  const now = o.now ?? Date.now();
  const fromLink = url.searchParams.get(PREVIEW_PARAM);
  const fromCookie = cookiesOf(cookieHeader)[PREVIEW_COOKIE];
  if (fromLink === null && !fromCookie) return { state: { status: 'none' }, cookies: [], redirect: null };
  const previews = o.previews();
  if (fromLink !== null) {
    const checked = checkPreview(fromLink, { previews, now });
    if (checked.status === 'refused') {
      // The page is served with the notice; the shell takes the token out of the address bar.
      return { state: checked, cookies: fromCookie ? [clearPreviewCookie(o.secure)] : [], redirect: null };
    }
    const clean = new URL(url);
    clean.searchParams.delete(PREVIEW_PARAM);
    const maxAge = Math.max(1, Math.floor((Date.parse(checked.grant.expiresAt) - now) / 1000));
    return {
      state: checked,
      cookies: [cookie(fromLink, maxAge, o.secure)],
      redirect: `${clean.pathname}${clean.search}`,
    };
  }
  const checked = checkPreview(fromCookie ?? '', { previews, now });
  if (checked.status === 'active') return { state: checked, cookies: [], redirect: null };
  return { state: checked, cookies: [clearPreviewCookie(o.secure)], redirect: null };
}

import type { PreviewState } from '@app/rollout';
import { checkPreview } from '@app/rollout/node';
import { stringifySetCookie } from 'cookie';
import { cookiesOf } from './visitor-cookie';

/**
 * Preview links opened at the edge (docs/decisions/0026-edge.md). `?preview=<token>` is verified here (the
 * edge has the secret: no round trip to the API); a valid one becomes a cookie scoped to this site that
 * expires with the token (the token is itself the signed {remote, version, exp}) and the visitor is sent to
 * the clean URL. Every page then pins that remote's version until the token expires or they exit. A link or
 * cookie that does not check out is dropped, and the page says why while serving the live versions.
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
  o: { store: string; secret: () => string | null; secure: boolean; now?: number },
): PreviewDecision {
  const now = o.now ?? Date.now();
  const fromLink = url.searchParams.get(PREVIEW_PARAM);
  const fromCookie = cookiesOf(cookieHeader)[PREVIEW_COOKIE];
  if (fromLink === null && !fromCookie) return { state: { status: 'none' }, cookies: [], redirect: null };
  // The secret is read only when there is something to check (most pages have neither link nor cookie).
  const secret = o.secret();
  if (fromLink !== null) {
    const checked = checkPreview(fromLink, { store: o.store, secret, now });
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
  const checked = checkPreview(fromCookie ?? '', { store: o.store, secret, now });
  if (checked.status === 'active') return { state: checked, cookies: [], redirect: null };
  return { state: checked, cookies: [clearPreviewCookie(o.secure)], redirect: null };
}

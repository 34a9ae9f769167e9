import { stringifySetCookie } from 'cookie';
import { cookiesOf } from './visitor-cookie';

/**
 * What preview links and dev override links share at the edge (preview-cookie.ts, override-cookie.ts): a
 * `?<param>=<token>` link is checked against the environment's links from the deployment feed; a valid one
 * becomes an HttpOnly cookie of this browser that expires with the link, and the visitor is sent to the
 * clean URL. Every page checks the cookie again, so a revoked link ends at the next page; a link or cookie
 * that does not check out is dropped.
 */
export type LinkState =
  | { status: 'none' }
  | { status: 'active'; grant: { expiresAt: string } }
  | { status: 'refused' };

export interface LinkDecision<S> {
  state: S;
  /** Set-Cookie headers to send with the answer. */
  cookies: string[];
  /** Where to send the visitor instead of serving the page (a link was accepted: the clean URL). */
  redirect: string | null;
  /** The token that checked out (from the link or the cookie), while the state is active; else null. */
  token: string | null;
}

export interface LinkCookie<S extends { status: string }> {
  param: string;
  cookieName: string;
  /** The token checked against the feed's links (those passed in `decide`'s `links`). */
  check: (token: string, now: number) => S;
}

/** No link and no cookie (and what a page gets when the edge has no deployment feed). */
export const noLink = (): LinkDecision<{ status: 'none' }> => ({
  state: { status: 'none' },
  cookies: [],
  redirect: null,
  token: null,
});

export const linkCookieHeader = (name: string, value: string, maxAge: number, secure: boolean) =>
  stringifySetCookie({ name, value, path: '/', maxAge, httpOnly: true, secure, sameSite: 'lax' });

export function decideLinkCookie<S extends LinkState>(
  kind: LinkCookie<S>,
  url: URL,
  cookieHeader: string | undefined,
  o: { secure: boolean; now?: number },
): LinkDecision<S | { status: 'none' }> {
  const now = o.now ?? Date.now();
  const clear = () => linkCookieHeader(kind.cookieName, '', 0, o.secure);
  const fromLink = url.searchParams.get(kind.param);
  const fromCookie = cookiesOf(cookieHeader)[kind.cookieName];
  if (fromLink === null && !fromCookie) return noLink();
  if (fromLink !== null) {
    const checked = kind.check(fromLink, now);
    const state: LinkState = checked;
    if (state.status !== 'active') {
      // The page is served with the notice; the shell takes the token out of the address bar.
      return { state: checked, cookies: fromCookie ? [clear()] : [], redirect: null, token: null };
    }
    const clean = new URL(url);
    clean.searchParams.delete(kind.param);
    const maxAge = Math.max(1, Math.floor((Date.parse(state.grant.expiresAt) - now) / 1000));
    return {
      state: checked,
      cookies: [linkCookieHeader(kind.cookieName, fromLink, maxAge, o.secure)],
      redirect: `${clean.pathname}${clean.search}`,
      token: fromLink,
    };
  }
  const checked = kind.check(fromCookie ?? '', now);
  if (checked.status === 'active')
    return { state: checked, cookies: [], redirect: null, token: fromCookie ?? null };
  return { state: checked, cookies: [clear()], redirect: null, token: null };
}

import { type Location, useLocation, useNavigate } from '@app/router';
import { useEffect, useState } from 'react';

/** The token a mailed link carries: in its fragment (`#token=…`, issue 46), or its query (older mails). */
export function tokenOf(where: Pick<Location, 'hash' | 'search'>): string {
  const fromHash = new URLSearchParams(where.hash.replace(/^#/, '')).get('token');
  return fromHash || new URLSearchParams(where.search).get('token') || '';
}

/**
 * The address bar without the token, at once: history.replaceState, so neither the bar, the history, a
 * bookmark, a screenshot nor the Referer of what the page asks for next holds it (issue 46).
 */
function scrubAddressBar(): void {
  if (typeof window === 'undefined') return;
  const url = new URL(window.location.href);
  if (!tokenOf(url)) return;
  url.searchParams.delete('token');
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}`);
}

/**
 * The token of the link that opened this page, kept in the page's memory only: taken on the first render
 * and out of the address bar there and then; the router is told once it listens (an effect), so its
 * location holds no token either.
 */
export function useLinkToken(): string {
  const location = useLocation();
  const navigate = useNavigate();
  const [token] = useState(() => {
    const found = tokenOf(location);
    if (found) scrubAddressBar();
    return found;
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on arrival; the page's own navigation follows
  useEffect(() => {
    if (tokenOf(location)) {
      const search = new URLSearchParams(location.search);
      search.delete('token');
      const rest = search.toString();
      navigate(
        { pathname: location.pathname, search: rest ? `?${rest}` : '', hash: '' },
        { replace: true, state: location.state },
      );
    }
  }, []);
  return token;
}

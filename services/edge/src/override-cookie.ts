import type { OverrideState } from '@app/rollout';
import { type FeedOverride, OVERRIDE_PARAM } from '@app/rollout/dev-override';
import { checkOverride } from '@app/rollout/node';
import { stringifySetCookie } from 'cookie';
import { cookiesOf } from './visitor-cookie';

/**
 * Dev override links opened at the edge (issue 47, docs/decisions/0042-dev-overrides.md), as preview links
 * are (preview-cookie.ts): `?override=<token>` is checked against the environment's override links from the
 * deployment feed; a valid one becomes an HttpOnly cookie of this browser that expires with the link, and the
 * visitor is sent to the clean URL. Every page checks the cookie again, so a revoked link ends at the next
 * page. A cookie of its own (not the preview's), so a browser can preview one remote and develop another.
 */
export const OVERRIDE_COOKIE = 'dev-override';

export interface OverrideDecision {
  state: OverrideState;
  cookies: string[];
  redirect: string | null;
}

const cookie = (value: string, maxAge: number, secure: boolean) =>
  stringifySetCookie({
    name: OVERRIDE_COOKIE,
    value,
    path: '/',
    maxAge,
    httpOnly: true,
    secure,
    sameSite: 'lax',
  });

/** The Set-Cookie header that ends an override (Exit in the banner, or a cookie that no longer checks out). */
export const clearOverrideCookie = (secure: boolean) => cookie('', 0, secure);

export function decideOverride(
  url: URL,
  cookieHeader: string | undefined,
  o: { overrides: () => readonly FeedOverride[] | null; secure: boolean; now?: number },
): OverrideDecision {
  const now = o.now ?? Date.now();
  const fromLink = url.searchParams.get(OVERRIDE_PARAM);
  const fromCookie = cookiesOf(cookieHeader)[OVERRIDE_COOKIE];
  if (fromLink === null && !fromCookie) return { state: { status: 'none' }, cookies: [], redirect: null };
  const overrides = o.overrides();
  if (fromLink !== null) {
    const checked = checkOverride(fromLink, { overrides, now });
    if (checked.status === 'refused') {
      return { state: checked, cookies: fromCookie ? [clearOverrideCookie(o.secure)] : [], redirect: null };
    }
    const clean = new URL(url);
    clean.searchParams.delete(OVERRIDE_PARAM);
    const maxAge = Math.max(1, Math.floor((Date.parse(checked.grant.expiresAt) - now) / 1000));
    return {
      state: checked,
      cookies: [cookie(fromLink, maxAge, o.secure)],
      redirect: `${clean.pathname}${clean.search}`,
    };
  }
  const checked = checkOverride(fromCookie ?? '', { overrides, now });
  if (checked.status === 'active') return { state: checked, cookies: [], redirect: null };
  return { state: checked, cookies: [clearOverrideCookie(o.secure)], redirect: null };
}

import type { OverrideState } from '@app/rollout';
import { type FeedOverride, OVERRIDE_PARAM } from '@app/rollout/dev-override';
import { checkOverride } from '@app/rollout/node';
import { decideLinkCookie, type LinkDecision, linkCookieHeader } from './link-cookie';

/**
 * Dev override links opened at the edge (issue 47, docs/decisions/0042-dev-overrides.md), as preview links
 * are (preview-cookie.ts): `?override=<token>` is checked against the environment's override links from the
 * deployment feed; a valid one becomes an HttpOnly cookie of this browser that expires with the link, and the
 * visitor is sent to the clean URL. Every page checks the cookie again, so a revoked link ends at the next
 * page. A cookie of its own (not the preview's), so a browser can preview one remote and develop another.
 */
export const OVERRIDE_COOKIE = 'dev-override';

export type OverrideDecision = LinkDecision<OverrideState>;

/** The Set-Cookie header that ends an override (Exit in the banner, or a cookie that no longer checks out). */
export const clearOverrideCookie = (secure: boolean) => linkCookieHeader(OVERRIDE_COOKIE, '', 0, secure);

export function decideOverride(
  url: URL,
  cookieHeader: string | undefined,
  o: { overrides: () => readonly FeedOverride[] | null; secure: boolean; now?: number },
): OverrideDecision {
  const check = (token: string, now: number) => checkOverride(token, { overrides: o.overrides(), now });
  return decideLinkCookie(
    { param: OVERRIDE_PARAM, cookieName: OVERRIDE_COOKIE, check },
    url,
    cookieHeader,
    o,
  );
}

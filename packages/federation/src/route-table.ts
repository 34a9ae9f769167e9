import type { RemoteName } from './remote-names';

/**
 * Which remote owns which path (docs/decisions/0001-route-table.md). The one place that maps SPEC §2's
 * routes to teams, read by the shell (its routes, its first script's preload) and the edge (which remote's
 * code a page preloads). Remotes render these same paths with their own <Routes>.
 */
export interface RouteEntry {
  path: string;
  remote: RemoteName;
  /** SPEC §6: /profile is guarded only by the presence of a stored token. */
  requiresToken?: boolean;
  /**
   * SPEC §8: a 401 sends the visitor to /login, except where the screen keeps them and says so in place
   * (Research: 'Session expired', then the guest view). Read through routes/session-expiry.ts.
   */
  sessionExpiry?: 'in-place';
}

export const ROUTE_TABLE: readonly RouteEntry[] = [
  { path: '/', remote: 'mf_public_pages' },
  { path: '/about', remote: 'mf_public_pages' },
  { path: '/contact', remote: 'mf_public_pages' },
  { path: '/impressum', remote: 'mf_public_pages' },
  { path: '/plans', remote: 'mf_public_pages' },
  { path: '/dashboards/:slug', remote: 'mf_public_pages' },
  { path: '/login', remote: 'mf_account' },
  { path: '/register', remote: 'mf_account' },
  { path: '/forgot-password', remote: 'mf_account' },
  { path: '/reset-password', remote: 'mf_account' },
  // Issue 46: an email change's links (no session needed: the mail may be opened on another device).
  { path: '/confirm-email', remote: 'mf_account' },
  { path: '/undo-email-change', remote: 'mf_account' },
  { path: '/profile', remote: 'mf_account', requiresToken: true },
  // Issue 34: each team's admin screen lives in its remote; the API enforces the role whatever is shown.
  { path: '/admin/members', remote: 'mf_account', requiresToken: true },
  { path: '/admin/leads', remote: 'mf_survey', requiresToken: true },
  { path: '/admin/company', remote: 'mf_public_pages', requiresToken: true },
  { path: '/research-center', remote: 'mf_research', sessionExpiry: 'in-place' },
  { path: '/research', remote: 'mf_research', sessionExpiry: 'in-place' },
  { path: '/create-post', remote: 'mf_research', sessionExpiry: 'in-place' },
  { path: '/post/:id', remote: 'mf_research', sessionExpiry: 'in-place' },
  { path: '/post/:id/edit', remote: 'mf_research', sessionExpiry: 'in-place' },
];

/** Paths the shell itself answers. */
export const REDIRECTS: Readonly<Record<string, string>> = {
  '/dashboard': '/research-center',
};

/**
 * `/post/:id` style patterns: each `:name` matches one non-empty segment; a trailing slash is ignored. Our
 * own matcher (not the router's), because the shell's first script uses it before the shared router loads.
 */
export function matchesPattern(pattern: string, pathname: string): boolean {
  const split = (path: string) => path.replace(/\/+$/, '').split('/');
  const want = split(pattern);
  const have = split(pathname);
  return (
    want.length === have.length &&
    want.every((part, i) => (part.startsWith(':') ? have[i] !== '' : part === have[i]))
  );
}

export function findRoute(pathname: string): RouteEntry | undefined {
  return ROUTE_TABLE.find((entry) => matchesPattern(entry.path, pathname));
}

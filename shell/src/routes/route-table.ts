import type { RemoteName } from '@app/federation';
import { matchPath } from 'react-router-dom';

/**
 * Which remote owns which path (docs/decisions/0001-route-table.md). The one place that maps SPEC §2's
 * routes to teams. Remotes render these same paths with their own <Routes>.
 */
export interface RouteEntry {
  path: string;
  remote: RemoteName;
  /** SPEC §6: /profile is guarded only by the presence of a stored token. */
  requiresToken?: boolean;
}

export const ROUTE_TABLE: readonly RouteEntry[] = [
  { path: '/', remote: 'mf_public_pages' },
  { path: '/about', remote: 'mf_public_pages' },
  { path: '/contact', remote: 'mf_public_pages' },
  { path: '/impressum', remote: 'mf_public_pages' },
  { path: '/login', remote: 'mf_account' },
  { path: '/register', remote: 'mf_account' },
  { path: '/profile', remote: 'mf_account', requiresToken: true },
  { path: '/research-center', remote: 'mf_research' },
  { path: '/research', remote: 'mf_research' },
  { path: '/create-post', remote: 'mf_research' },
  { path: '/post/:id', remote: 'mf_research' },
  { path: '/post/:id/edit', remote: 'mf_research' },
];

/** Paths the shell itself answers. */
export const REDIRECTS: Readonly<Record<string, string>> = {
  '/dashboard': '/research-center',
};

export function findRoute(pathname: string): RouteEntry | undefined {
  return ROUTE_TABLE.find((entry) => matchPath({ path: entry.path, end: true }, pathname));
}

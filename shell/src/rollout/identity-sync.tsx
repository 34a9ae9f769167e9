import { readToken } from '@app/api-client';
import { useSession } from '@app/session';
import { useEffect } from 'react';
import { EDGE_PATHS, pagePlan } from './page-plan';
import { rememberUserId } from './visitor';

/**
 * A member's versions are the same on every device: their cohort is drawn from their user id. Where an edge
 * serves the pages (docs/decisions/0026-edge.md), it is told once per device when a member signs in (it
 * checks the token with the API and keys the visitor's cookie to the member); signing out keeps that key.
 * Where none does, the id is remembered here for the shell's own decision on the next page load. A remote
 * already loaded in this page keeps its version until the next load.
 */
export function RolloutIdentitySync() {
  const { isLoggedIn, profile } = useSession();
  const id = profile?.id ?? null;
  useEffect(() => {
    if (!isLoggedIn) rememberUserId(null);
    else if (id !== null) rememberUserId(id);
    const plan = pagePlan();
    const token = readToken();
    if (!plan || !isLoggedIn || id === null || !token || plan.userId === String(id)) return;
    void fetch(EDGE_PATHS.identity, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(5000),
    }).catch(() => undefined); // the next page load tries again
  }, [isLoggedIn, id]);
  return null;
}

import { useSession } from '@app/session';
import { useEffect } from 'react';
import { rememberUserId } from './visitor';

/**
 * Remembers the logged-in member's id for the next page load's cohort (the same versions on every device),
 * and forgets it on logout. A remote already loaded in this page keeps its version until the next load.
 */
export function RolloutIdentitySync() {
  const { isLoggedIn, profile } = useSession();
  const id = profile?.id ?? null;
  useEffect(() => {
    if (!isLoggedIn) rememberUserId(null);
    else if (id !== null) rememberUserId(id);
  }, [isLoggedIn, id]);
  return null;
}

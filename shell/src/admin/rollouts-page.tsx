import { api, errorMessage } from '@app/api-client';
import { isAdmin as hasAdminRole } from '@app/contracts';
import { ADMIN_PATHS } from '@app/contracts/admin-paths';
import { type AdminRollouts, AdminRolloutsSchema } from '@app/contracts/rollouts-admin';
import { useSession } from '@app/session';
import { Alert, Button, Container, Skeleton } from '@app/ui';
import { css } from '@emotion/react';
import { useCallback, useEffect, useState } from 'react';
import { RolloutsView } from './rollouts-view';

export const ADMIN_ONLY_TEXT = 'Only administrators can see rollouts.';

type Load =
  | { status: 'loading' }
  | { status: 'ready'; data: AdminRollouts }
  | { status: 'error'; message: string };

/**
 * Rollouts for administrators, owned by the shell (not a remote): it must keep working while a remote's
 * rollout is what is failing. `pnpm rollout` is the way to change things; here an administrator may only
 * revoke a preview link (issue 44), at once, from wherever they are.
 */
export default function RolloutsPage() {
  const { roles, profileStatus } = useSession();
  const isAdmin = hasAdminRole(roles);
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const fetchRollouts = useCallback(async (signal?: AbortSignal) => {
    setLoad({ status: 'loading' });
    try {
      const data = await api.get(ADMIN_PATHS.rollouts, AdminRolloutsSchema, { signal });
      setLoad({ status: 'ready', data });
    } catch (error) {
      if (!signal?.aborted)
        setLoad({ status: 'error', message: errorMessage(error, 'Rollouts could not be loaded') });
    }
  }, []);
  useEffect(() => {
    if (!isAdmin) return;
    const controller = new AbortController();
    void fetchRollouts(controller.signal);
    return () => controller.abort();
  }, [isAdmin, fetchRollouts]);

  return (
    <Container>
      <h1>Rollouts</h1>
      {!isAdmin && profileStatus !== 'loading' && profileStatus !== 'none' ? (
        <Alert tone="error">{ADMIN_ONLY_TEXT}</Alert>
      ) : !isAdmin || load.status === 'loading' ? (
        <div aria-busy="true" css={css`display: grid; gap: 16px;`}>
          <Skeleton height="180px" />
          <Skeleton height="240px" />
        </div>
      ) : load.status === 'error' ? (
        <Alert tone="error">
          <p>{load.message}</p>
          <Button onClick={() => void fetchRollouts()}>Retry</Button>
        </Alert>
      ) : (
        <>
          <p>
            What each remote serves and how each version fares. Change it with <code>pnpm rollout</code> (see
            the README, “Ship a new version of a remote”).
          </p>
          <RolloutsView data={load.data} />
        </>
      )}
    </Container>
  );
}

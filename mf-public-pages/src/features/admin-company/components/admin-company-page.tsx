import { errorMessage, isStatus } from '@app/api-client';
import { isAdmin, MESSAGES } from '@app/contracts';
import { SITE_ADMIN_MESSAGES as T } from '@app/contracts/site-admin';
import { useServerState } from '@app/server-state';
import { useSession } from '@app/session';
import { Alert, Container, usePageTitle } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { muted } from '../../../lib/styles';
import { getSiteDetails, saveContact, saveImpressum } from '../api/site-details';
import { RecordForm } from './record-form';

/** What a member or a guest sees: no form at all (the API answers 403 anyway). */
function AdminOnly() {
  return <Alert tone="error">{T.adminOnly}</Alert>;
}

/**
 * Issue 34, /admin/company: administrators edit the Impressum and Contact records. Loaded when visited (its
 * own chunk), never pre-rendered: the data is an administrator's, not a guest's.
 */
export default function AdminCompanyPage() {
  usePageTitle(T.title);
  const session = useSession();
  const { isLoggedIn, profileStatus, roles, token } = session;
  // The profile says who is asking: a member is told at once and the details are never asked for. Should the
  // profile fail to load, the API decides (its 403 shows the same message).
  const waiting = isLoggedIn && (profileStatus === 'none' || profileStatus === 'loading');
  const knownNonAdmin = !isLoggedIn || (profileStatus === 'loaded' && !isAdmin(roles));
  const state = useServerState(getSiteDetails, [token], !waiting && !knownNonAdmin);
  const refused =
    knownNonAdmin || (state.status === 'error' && (isStatus(state.error, 403) || isStatus(state.error, 401)));

  return (
    <Container>
      <h1>{T.title}</h1>
      {refused ? (
        <AdminOnly />
      ) : (
        <>
          <p css={muted}>{T.intro}</p>
          {(waiting || state.status === 'loading') && <p role="status">{MESSAGES.app.loading}</p>}
          {state.status === 'error' && <Alert tone="error">{errorMessage(state.error, T.loadFailed)}</Alert>}
          {state.status === 'done' && (
            <div css={(t: Theme) => css`display: grid; gap: ${t.space(6)};`}>
              <RecordForm
                record="impressum"
                heading={T.impressumHeading}
                submitLabel={T.saveImpressum}
                initial={state.data.impressum}
                pinned={state.data.fromEnvironment.impressum}
                save={saveImpressum}
                onSaved={state.setData}
              />
              <RecordForm
                record="contact"
                heading={T.contactHeading}
                submitLabel={T.saveContact}
                initial={state.data.contact}
                pinned={state.data.fromEnvironment.contact}
                save={saveContact}
                onSaved={state.setData}
              />
            </div>
          )}
        </>
      )}
    </Container>
  );
}

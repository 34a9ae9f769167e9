import { errorMessage, isStatus } from '@app/api-client';
import { MESSAGES, type Preferences, type Profile } from '@app/contracts';
import { useNavigate } from '@app/router';
import { useServerState } from '@app/server-state';
import { useSession } from '@app/session';
import { Alert, Button, Container, Skeleton, usePageTitle } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { useEffect, useState } from 'react';
import { loginState } from '../../../lib/login-state';
import { TEXTS } from '../../../lib/texts';
import { fetchPreferences, fetchProfile } from '../api/profile';
import { useSessionExpiry } from '../hooks/use-session-expiry';
import { AccountOverview } from './account-overview';
import { DangerZone } from './danger-zone';
import { ProfileDetails } from './profile-details';
import { QuickActions } from './quick-actions';

const T = TEXTS.profile;
const P = MESSAGES.profile;

const layout = (t: Theme) => css`
  display: grid;
  grid-template-columns: minmax(0, 2fr) minmax(0, 1fr);
  gap: ${t.space(5)};
  align-items: start;
  @media (max-width: 800px) { grid-template-columns: minmax(0, 1fr); }
  aside { display: flex; flex-direction: column; gap: ${t.space(5)}; }
`;

/** SPEC §2 Profile, §4 view/edit, §8 profile errors. */
export function ProfilePage() {
  const session = useSession();
  const navigate = useNavigate();
  usePageTitle(T.title);
  const { handleUnauthorized, leaving } = useSessionExpiry();
  const { isLoggedIn, setProfile } = session;

  // SPEC §8: no token -> 'Please log in to view your profile.' on the way to /login. The shell guards
  // /profile the same way; this covers the remote running alone. Checked on arrival only: a token that
  // disappears later (Logout, a 401) is followed by a navigation someone else already started.
  const [arrivedLoggedIn] = useState(isLoggedIn);
  useEffect(() => {
    if (!arrivedLoggedIn) {
      leaving.current = true;
      navigate('/login', { replace: true, state: loginState(P.loginRequired, '/profile') });
    }
  }, [arrivedLoggedIn, leaving, navigate]);

  const loaded = useServerState(
    async (signal) => {
      try {
        const [profile, preferences] = await Promise.all([
          fetchProfile(signal),
          // Preferences only feed the opt-in switch: without them the rest of the page still works.
          fetchPreferences(signal).catch((error: unknown) => {
            if (isStatus(error, 401)) throw error;
            return null;
          }),
        ]);
        return { profile, preferences };
      } catch (error) {
        // At once, not in an effect after the next render: the 401 has cleared the token, and the shell's
        // /profile guard redirects on that render with its own notice (useSessionExpiry settles the race).
        if (!signal.aborted) handleUnauthorized(error);
        throw error;
      }
    },
    // Loaded once per mount: a token that disappears later is followed by the redirect above.
    [],
    isLoggedIn,
  );
  const { setData } = loaded;
  // On a 401 the page keeps its skeleton while the visitor is sent to /login with the session-expired notice.
  const unauthorized = loaded.status === 'error' && isStatus(loaded.error, 401);
  const failed = loaded.status === 'error' && !unauthorized && !leaving.current;

  const onSaved = (profile: Profile) => {
    if (loaded.data) setData({ ...loaded.data, profile });
    setProfile(profile);
  };
  const onPreferences = (preferences: Preferences) => {
    if (loaded.data) setData({ ...loaded.data, preferences });
  };

  if (!isLoggedIn) {
    return (
      <Container>
        <Alert tone="info">{P.loginRequired}</Alert>
      </Container>
    );
  }

  return (
    <Container>
      <h1 css={css`margin-top: 0;`}>{T.title}</h1>
      {(loaded.status === 'loading' || unauthorized) && (
        <div role="status" aria-live="polite">
          <span css={css`position: absolute; left: -9999px;`}>{MESSAGES.app.loading}</span>
          <div css={layout}>
            <Skeleton height="420px" />
            <aside>
              <Skeleton height="160px" />
              <Skeleton height="220px" />
            </aside>
          </div>
        </div>
      )}
      {failed && (
        <>
          <Alert tone="error">{errorMessage(loaded.error, P.loadFailed)}</Alert>
          <Button variant="secondary" onClick={loaded.reload}>
            {MESSAGES.app.retry}
          </Button>
        </>
      )}
      {loaded.status === 'done' && (
        <div css={layout}>
          <ProfileDetails
            profile={loaded.data.profile}
            onSaved={onSaved}
            onUnauthorized={handleUnauthorized}
          />
          <aside>
            <AccountOverview profile={loaded.data.profile} />
            <QuickActions
              preferences={loaded.data.preferences}
              onPreferences={onPreferences}
              onUnauthorized={handleUnauthorized}
            />
            <DangerZone
              onUnauthorized={handleUnauthorized}
              onLeaving={() => {
                leaving.current = true;
              }}
            />
          </aside>
        </div>
      )}
    </Container>
  );
}

import { errorMessage } from '@app/api-client';
import { MESSAGES, type Preferences, type Profile } from '@app/contracts';
import { useNavigate } from '@app/router';
import { useSession } from '@app/session';
import { Alert, Button, Container, Skeleton, usePageTitle } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { useCallback, useEffect, useState } from 'react';
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

type Load =
  | { state: 'loading' }
  | { state: 'error'; message: string }
  | { state: 'loaded'; profile: Profile; preferences: Preferences | null };

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
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const { isLoggedIn, setProfile } = session;

  // SPEC §8: no token -> 'Please log in to view your profile.' on the way to /login. The shell guards
  // /profile the same way; this covers the remote running alone. Checked on arrival only: a token that
  // disappears later (Logout, a 401) is followed by a navigation someone else already started.
  useEffect(() => {
    if (!isLoggedIn) {
      leaving.current = true;
      navigate('/login', { replace: true, state: loginState(P.loginRequired, '/profile') });
    }
    // Deliberately no dependencies: arrival only.
  }, []);

  const loadAll = useCallback(
    async (signal?: AbortSignal) => {
      setLoad({ state: 'loading' });
      try {
        const [profile, preferences] = await Promise.all([
          fetchProfile(signal),
          // Preferences only feed the opt-in switch: without them the rest of the page still works.
          fetchPreferences(signal).catch((error: unknown) => {
            if (handleUnauthorized(error)) throw error;
            return null;
          }),
        ]);
        setLoad({ state: 'loaded', profile, preferences });
      } catch (error) {
        if (signal?.aborted || leaving.current) return;
        if (handleUnauthorized(error)) return;
        setLoad({ state: 'error', message: errorMessage(error, P.loadFailed) });
      }
    },
    [handleUnauthorized, leaving],
  );

  useEffect(() => {
    if (!isLoggedIn) return;
    const controller = new AbortController();
    void loadAll(controller.signal);
    return () => controller.abort();
    // Load once per mount: later token changes are handled by the no-token redirect above.
  }, []);

  const onSaved = (profile: Profile) => {
    setLoad((current) => (current.state === 'loaded' ? { ...current, profile } : current));
    setProfile(profile);
  };
  const onPreferences = (preferences: Preferences) => {
    setLoad((current) => (current.state === 'loaded' ? { ...current, preferences } : current));
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
      {load.state === 'loading' && (
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
      {load.state === 'error' && (
        <>
          <Alert tone="error">{load.message}</Alert>
          <Button variant="secondary" onClick={() => void loadAll()}>
            {MESSAGES.app.retry}
          </Button>
        </>
      )}
      {load.state === 'loaded' && (
        <div css={layout}>
          <ProfileDetails profile={load.profile} onSaved={onSaved} onUnauthorized={handleUnauthorized} />
          <aside>
            <AccountOverview profile={load.profile} />
            <QuickActions
              preferences={load.preferences}
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

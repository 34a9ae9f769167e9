import { isStatus } from '@app/api-client';
import { MESSAGES, type Preferences, type Profile } from '@app/contracts';
import { useServerState } from '@app/server-state';
import { useSession } from '@app/session';
import { Alert, Container, LoadErrorAlert, Skeleton, usePageTitle } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { lazy, Suspense } from 'react';
import { TEXTS } from '../../../lib/texts';
import { fetchPreferences, fetchProfile } from '../api/profile';
import { AccountOverview } from './account-overview';
import { DangerZone } from './danger-zone';
import { ProfileDetails } from './profile-details';
import { QuickActions } from './quick-actions';
import { SessionsCard } from './sessions-card';

// Issue 46: the two-factor section (its setup, QR code and recovery codes) loads with the profile, not with
// Login: mf-account's initial JS is what every visitor of /login pays for (size-budget.json).
const TwoFactorSection = lazy(() =>
  import('../../two-factor').then((m) => ({ default: m.TwoFactorSection })),
);

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

/**
 * SPEC §2 Profile, §4 view/edit, §8 profile errors. Without a token, or when a 401 ends the session, the shell
 * sends the visitor to /login with the matching notice (@app/session's one flow); this page only loads.
 */
export function ProfilePage() {
  const session = useSession();
  usePageTitle(T.title);
  const { isLoggedIn, setProfile } = session;

  const loaded = useServerState(
    async (signal) => {
      const [profile, preferences] = await Promise.all([
        fetchProfile(signal),
        // Preferences only feed the opt-in switch: without them the rest of the page still works.
        fetchPreferences(signal).catch((error: unknown) => {
          if (isStatus(error, 401)) throw error;
          return null;
        }),
      ]);
      return { profile, preferences };
    },
    // Loaded once per mount: a token that disappears later takes the visitor away from this page.
    [],
    isLoggedIn,
  );
  const { setData } = loaded;

  const onSaved = (profile: Profile) => {
    if (loaded.data) setData({ ...loaded.data, profile });
    setProfile(profile);
  };
  const onPreferences = (preferences: Preferences) => {
    if (loaded.data) setData({ ...loaded.data, preferences });
  };

  // Only seen where nothing guards the page (the remote served alone): the shell redirects before.
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
      {loaded.status === 'loading' && (
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
      {loaded.status === 'error' && (
        <LoadErrorAlert error={loaded.error} fallback={P.loadFailed} onRetry={loaded.reload} />
      )}
      {loaded.status === 'done' && (
        <div css={layout}>
          <ProfileDetails profile={loaded.data.profile} onSaved={onSaved} />
          <aside>
            <AccountOverview profile={loaded.data.profile} />
            <QuickActions preferences={loaded.data.preferences} onPreferences={onPreferences} />
            <Suspense fallback={<Skeleton height="160px" />}>
              <TwoFactorSection />
            </Suspense>
            <SessionsCard />
            <DangerZone />
          </aside>
        </div>
      )}
    </Container>
  );
}

import { API_PATHS, MESSAGES, type Preferences } from '@app/contracts';
import { RequireLogin } from '@app/session';
import { screen } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { TEXTS } from '../../../lib/texts';
import { renderScreen } from '../../../test/render';
import { API, server } from '../../../test/server';
import { ProfilePage } from './profile-page';

/** What the Profile screen's component tests share: a profile, its preferences and a fake API. */
export const P = MESSAGES.profile;
export const T = TEXTS.profile;

export const PROFILE = {
  id: 7,
  username: 'jane_doe',
  name: { first: 'Jane', last: 'Doe' },
  email: 'jane@example.com',
  address: { street: 'Main Street 1', city: 'Berlin', postal_code: '10115', country: '' },
  roles: ['paid-tier-1'],
  is_active: true,
  created_at: '2026-03-15T12:00:00Z',
  last_login: null,
};
export const PREFS: Preferences = { emailOptIn: false, notifications: ['research'], theme: 'system' };

export interface Calls {
  profileUpdates: unknown[];
  preferences: unknown[];
  passwords: unknown[];
  deletes: number;
  logouts: number;
  /** Public ids of sessions ended, 'others' for "Sign out everywhere else". */
  endedSessions: string[];
}

export const SESSIONS = [
  {
    id: 'a1',
    device: 'Firefox on Linux',
    created_at: '2026-11-20T08:00:00Z',
    last_seen_at: '2026-11-28T09:00:00Z',
    current: true,
  },
  {
    id: 'b2',
    device: 'Chrome on Android',
    created_at: '2026-11-21T08:00:00Z',
    last_seen_at: '2026-11-27T19:30:00Z',
    current: false,
  },
  {
    id: 'c3',
    device: '',
    created_at: '2026-11-22T08:00:00Z',
    last_seen_at: '2026-11-25T10:00:00Z',
    current: false,
  },
];

export function mockApi(overrides: { profile?: unknown; preferences?: unknown } = {}): Calls {
  const calls: Calls = {
    profileUpdates: [],
    preferences: [],
    passwords: [],
    deletes: 0,
    logouts: 0,
    endedSessions: [],
  };
  let current = overrides.profile ?? PROFILE;
  let sessions = [...SESSIONS];
  server.use(
    http.get(`${API}${API_PATHS.sessions}`, () => HttpResponse.json(sessions)),
    http.delete(`${API}${API_PATHS.sessions}`, () => {
      calls.endedSessions.push('others');
      sessions = sessions.filter((s) => s.current);
      return HttpResponse.json({ message: MESSAGES.sessions.endedOthers });
    }),
    http.delete(`${API}${API_PATHS.sessions}/:id`, ({ params }) => {
      calls.endedSessions.push(String(params.id));
      sessions = sessions.filter((s) => s.id !== params.id);
      return HttpResponse.json({ message: MESSAGES.sessions.ended });
    }),
    http.get(`${API}${API_PATHS.profile}`, () => HttpResponse.json(current as Record<string, unknown>)),
    http.get(`${API}${API_PATHS.preferences}`, () =>
      HttpResponse.json((overrides.preferences ?? PREFS) as Record<string, unknown>),
    ),
    http.put(`${API}${API_PATHS.profile}`, async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      calls.profileUpdates.push(body);
      // As the API does (issue 46): a new email waits for its confirmation; the password is not kept.
      const { current_password: _password, email, ...rest } = body;
      const was = (current as { email: string }).email;
      current = { ...PROFILE, ...rest, email: was, pending_email: email === was ? null : email };
      return HttpResponse.json(current as Record<string, unknown>);
    }),
    http.put(`${API}${API_PATHS.preferences}`, async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      calls.preferences.push(body);
      return HttpResponse.json(body);
    }),
    http.put(`${API}${API_PATHS.changePassword}`, async ({ request }) => {
      calls.passwords.push(await request.json());
      return HttpResponse.json({ message: 'Password updated successfully' });
    }),
    http.delete(`${API}${API_PATHS.deleteAccount}`, () => {
      calls.deletes += 1;
      return HttpResponse.json({ message: 'Account deleted' });
    }),
    // Issue 46: the two-factor section's status (features/two-factor has its own tests).
    http.get(`${API}${API_PATHS.twoFactor}`, () =>
      HttpResponse.json({ enabled: false, required: false, pending: false, recoveryCodesLeft: 0 }),
    ),
    http.post(`${API}${API_PATHS.logout}`, () => {
      calls.logouts += 1;
      return HttpResponse.json({ message: 'Logged out' });
    }),
  );
  return calls;
}

export function failWith(method: 'get' | 'put' | 'delete', path: string, status: number, body?: unknown) {
  server.use(
    http[method](`${API}${path}`, () =>
      body === undefined
        ? new HttpResponse('Server Error', { status })
        : HttpResponse.json(body as Record<string, unknown>, { status }),
    ),
  );
}

/** The page as the shell serves it: behind @app/session's login guard (the shell's route table marks it). */
export function renderProfile() {
  return renderScreen(
    <RequireLogin>
      <ProfilePage />
    </RequireLogin>,
    { path: '/profile', others: ['/login', '/register'] },
  );
}

export async function loaded() {
  await screen.findByRole('heading', { name: T.details });
}

export const location = () => screen.getByTestId('location');
export const locationState = () => JSON.parse(location().getAttribute('data-state') ?? 'null');
export const input = (label: string) =>
  screen.getByLabelText(new RegExp(`^${label}(\\s*\\*)?$`)) as HTMLInputElement;
export const details = () => screen.getByRole('article', { name: T.details });
export const overview = () => screen.getByRole('article', { name: T.overview });

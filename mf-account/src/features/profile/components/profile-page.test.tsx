import { readToken, writeToken } from '@app/api-client';
import { API_PATHS, MESSAGES, type Preferences } from '@app/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { TEXTS } from '../../../lib/texts';
import { renderScreen } from '../../../test/render';
import { API, server } from '../../../test/server';
import { ProfilePage } from './profile-page';

const P = MESSAGES.profile;
const T = TEXTS.profile;

const PROFILE = {
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
const PREFS: Preferences = { emailOptIn: false, notifications: ['research'], theme: 'system' };

interface Calls {
  profileUpdates: unknown[];
  preferences: unknown[];
  passwords: unknown[];
  deletes: number;
  logouts: number;
}

function mockApi(overrides: { profile?: unknown; preferences?: unknown } = {}): Calls {
  const calls: Calls = { profileUpdates: [], preferences: [], passwords: [], deletes: 0, logouts: 0 };
  let current = overrides.profile ?? PROFILE;
  server.use(
    http.get(`${API}${API_PATHS.profile}`, () => HttpResponse.json(current as Record<string, unknown>)),
    http.get(`${API}${API_PATHS.preferences}`, () =>
      HttpResponse.json((overrides.preferences ?? PREFS) as Record<string, unknown>),
    ),
    http.put(`${API}${API_PATHS.profile}`, async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      calls.profileUpdates.push(body);
      current = { ...PROFILE, ...body };
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
    http.post(`${API}${API_PATHS.logout}`, () => {
      calls.logouts += 1;
      return HttpResponse.json({ message: 'Logged out' });
    }),
  );
  return calls;
}

function failWith(method: 'get' | 'put' | 'delete', path: string, status: number, body?: unknown) {
  server.use(
    http[method](`${API}${path}`, () =>
      body === undefined
        ? new HttpResponse('Server Error', { status })
        : HttpResponse.json(body as Record<string, unknown>, { status }),
    ),
  );
}

function renderProfile() {
  return renderScreen(<ProfilePage />, { path: '/profile', others: ['/login', '/register'] });
}

async function loaded() {
  await screen.findByRole('heading', { name: T.details });
}

const location = () => screen.getByTestId('location');
const locationState = () => JSON.parse(location().getAttribute('data-state') ?? 'null');
const input = (label: string) =>
  screen.getByLabelText(new RegExp(`^${label}(\\s*\\*)?$`)) as HTMLInputElement;
const details = () => screen.getByRole('article', { name: T.details });
const overview = () => screen.getByRole('article', { name: T.overview });

beforeEach(() => writeToken('valid-token'));

describe('ProfilePage loading', () => {
  it('with no token says the user must log in and goes to /login with that notice', async () => {
    writeToken(null);
    renderProfile();
    await waitFor(() => expect(location()).toHaveTextContent('/login'));
    expect(locationState()).toEqual({ notice: P.loginRequired, from: '/profile' });
  });

  it('shows Loading... and then the profile in view mode', async () => {
    mockApi();
    renderProfile();
    expect(screen.getByRole('status')).toHaveTextContent(MESSAGES.app.loading);
    await loaded();
    const card = within(details());
    for (const text of ['jane_doe', 'Jane', 'Doe', 'jane@example.com', 'Main Street 1', 'Berlin', '10115']) {
      expect(card.getByText(text)).toBeInTheDocument();
    }
    // An empty value (country) shows a dash.
    expect(card.getByText(T.empty)).toBeInTheDocument();
    expect(card.queryByRole('textbox')).not.toBeInTheDocument();
  });

  it('shows the Account Overview: status, member since and roles', async () => {
    mockApi();
    renderProfile();
    await loaded();
    const box = within(overview());
    expect(box.getByText(T.active)).toBeInTheDocument();
    expect(box.getByText('Mar 15, 2026')).toBeInTheDocument();
    expect(box.getByText('paid-tier-1')).toBeInTheDocument();
  });

  it('shows an inactive status and Basic Member with no roles', async () => {
    mockApi({ profile: { ...PROFILE, roles: [], is_active: false } });
    renderProfile();
    await loaded();
    expect(within(overview()).getByText(T.inactive)).toBeInTheDocument();
    expect(within(overview()).getByText(T.noRoles)).toBeInTheDocument();
  });

  it('tolerates a plain-string name and address', async () => {
    mockApi({ profile: { ...PROFILE, name: 'Plain Name', address: 'Old Street 9' } });
    renderProfile();
    await loaded();
    expect(within(details()).getByText('Plain Name')).toBeInTheDocument();
    expect(within(details()).getByText('Old Street 9')).toBeInTheDocument();
  });

  it('a 401 says the session expired, clears the token and goes to /login', async () => {
    mockApi();
    failWith('get', API_PATHS.profile, 401, { error: 'Session expired or invalid' });
    renderProfile();
    await waitFor(() => expect(location()).toHaveTextContent('/login'));
    expect(locationState()).toEqual({ notice: P.sessionExpired, from: '/profile' });
    expect(readToken()).toBeNull();
  });

  it.each([
    [500, { error: 'Database is down' }, 'Database is down'],
    [500, undefined, P.loadFailed],
  ])('a %i load failure shows %j, and Retry loads again', async (status, body, expected) => {
    mockApi();
    failWith('get', API_PATHS.profile, status, body);
    const { user } = renderProfile();
    expect(await screen.findByRole('alert')).toHaveTextContent(expected);
    mockApi();
    await user.click(screen.getByRole('button', { name: MESSAGES.app.retry }));
    await loaded();
  });
});

describe('ProfilePage edit mode', () => {
  it('switches to a form with read-only username, required marks and the current values', async () => {
    mockApi();
    const { user } = renderProfile();
    await loaded();
    await user.click(screen.getByRole('button', { name: T.edit }));
    expect(input(T.username)).toHaveAttribute('readonly');
    expect(input(T.username)).toHaveValue('jane_doe');
    expect(input(T.firstName)).toBeRequired();
    expect(input(T.email)).toBeRequired();
    expect(input(T.street)).toBeRequired();
    for (const optional of [T.lastName, T.city, T.postalCode, T.country])
      expect(input(optional)).not.toBeRequired();
    expect(input(T.firstName)).toHaveValue('Jane');
    expect(input(T.postalCode)).toHaveValue('10115');
    await waitFor(() => expect(input(T.firstName)).toHaveFocus());
  });

  it('saves, shows the success message, returns to view mode and hides the message after 3 s', async () => {
    const setTimeoutSpy = vi.spyOn(window, 'setTimeout');
    const calls = mockApi();
    const { user } = renderProfile();
    await loaded();
    await user.click(screen.getByRole('button', { name: T.edit }));
    await user.clear(input(T.firstName));
    await user.type(input(T.firstName), 'Janet');
    await user.clear(input(T.email));
    await user.type(input(T.email), ' Janet@Example.com ');
    await user.type(input(T.country), 'Germany');
    await user.click(screen.getByRole('button', { name: T.save }));
    expect(await screen.findByRole('status')).toHaveTextContent(P.updated);
    expect(calls.profileUpdates).toEqual([
      {
        name: { first: 'Janet', last: 'Doe' },
        email: 'janet@example.com',
        address: { street: 'Main Street 1', city: 'Berlin', postal_code: '10115', country: 'Germany' },
      },
    ]);
    expect(within(details()).getByText('Janet')).toBeInTheDocument();
    expect(within(details()).getByText('Germany')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: T.save })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: T.edit })).toHaveFocus();
    const hide = setTimeoutSpy.mock.calls.find(([, ms]) => ms === 3000);
    if (!hide) throw new Error('no 3 s timer');
    act(() => (hide[0] as () => void)());
    expect(screen.queryByText(P.updated)).not.toBeInTheDocument();
  });

  it('Cancel returns to view mode without saving', async () => {
    const calls = mockApi();
    const { user } = renderProfile();
    await loaded();
    await user.click(screen.getByRole('button', { name: T.edit }));
    await user.clear(input(T.firstName));
    await user.type(input(T.firstName), 'Changed');
    await user.click(screen.getByRole('button', { name: T.cancel }));
    expect(within(details()).getByText('Jane')).toBeInTheDocument();
    expect(calls.profileUpdates).toHaveLength(0);
    expect(screen.getByRole('button', { name: T.edit })).toHaveFocus();
  });

  it.each([
    [T.firstName, '', MESSAGES.register.firstNameRequired],
    [T.firstName, 'J', MESSAGES.register.firstNameMin],
    [T.email, 'not-an-email', MESSAGES.register.emailInvalid],
    [T.email, '', MESSAGES.register.emailRequired],
    [T.street, 'Main', MESSAGES.register.streetMin],
    [T.street, '', MESSAGES.register.streetRequired],
  ])('%s = %j is refused before any call with %j, tied to the field', async (label, value, message) => {
    const calls = mockApi();
    const { user } = renderProfile();
    await loaded();
    await user.click(screen.getByRole('button', { name: T.edit }));
    await user.clear(input(label));
    if (value) await user.type(input(label), value);
    await user.click(screen.getByRole('button', { name: T.save }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(input(label)).toHaveAccessibleDescription(message);
    expect(input(label)).toHaveFocus();
    expect(calls.profileUpdates).toHaveLength(0);
    await user.type(input(label), 'x');
    expect(screen.queryByText(message)).not.toBeInTheDocument();
  });

  it.each([
    [400, { error: 'Street address is required' }, 'Street address is required'],
    [500, undefined, P.updateFailed],
  ])('a %i update failure shows %j and stays in edit mode', async (status, body, expected) => {
    mockApi();
    failWith('put', API_PATHS.profile, status, body);
    const { user } = renderProfile();
    await loaded();
    await user.click(screen.getByRole('button', { name: T.edit }));
    await user.click(screen.getByRole('button', { name: T.save }));
    expect((await screen.findByRole('alert')).textContent).toBe(expected);
    expect(screen.getByRole('button', { name: T.save })).toBeEnabled();
  });

  it('a taken email shows the server error and marks the email field', async () => {
    mockApi();
    failWith('put', API_PATHS.profile, 409, {
      error: 'Email is already registered',
      email: 'Email is already registered',
    });
    const { user } = renderProfile();
    await loaded();
    await user.click(screen.getByRole('button', { name: T.edit }));
    await user.click(screen.getByRole('button', { name: T.save }));
    await waitFor(() => expect(input(T.email)).toHaveFocus());
    expect(input(T.email)).toHaveAccessibleDescription('Email is already registered');
  });

  it('a 401 on save goes to /login with the session-expired notice', async () => {
    mockApi();
    failWith('put', API_PATHS.profile, 401, { error: 'Session expired or invalid' });
    const { user } = renderProfile();
    await loaded();
    await user.click(screen.getByRole('button', { name: T.edit }));
    await user.click(screen.getByRole('button', { name: T.save }));
    await waitFor(() => expect(location()).toHaveTextContent('/login'));
    expect(locationState()).toEqual({ notice: P.sessionExpired, from: '/profile' });
  });
});

describe('ProfilePage Change Password', () => {
  const changeButton = () => screen.getByRole('button', { name: T.changePassword });

  it('asks for the new password, then the current one, and sends both', async () => {
    const calls = mockApi();
    const prompt = vi
      .spyOn(window, 'prompt')
      .mockReturnValueOnce('N3wPassword')
      .mockReturnValueOnce('0ldPassword');
    const { user } = renderProfile();
    await loaded();
    await user.click(changeButton());
    expect(await screen.findByRole('status')).toHaveTextContent(P.passwordUpdated);
    expect(prompt.mock.calls).toEqual([[P.passwordPrompt], [T.currentPasswordPrompt]]);
    expect(calls.passwords).toEqual([{ currentPassword: '0ldPassword', newPassword: 'N3wPassword' }]);
  });

  it('does nothing when the first prompt is cancelled', async () => {
    const calls = mockApi();
    const prompt = vi.spyOn(window, 'prompt').mockReturnValue(null);
    const { user } = renderProfile();
    await loaded();
    await user.click(changeButton());
    expect(prompt).toHaveBeenCalledOnce();
    expect(calls.passwords).toHaveLength(0);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('does nothing when the current-password prompt is cancelled', async () => {
    const calls = mockApi();
    vi.spyOn(window, 'prompt').mockReturnValueOnce('N3wPassword').mockReturnValueOnce(null);
    const { user } = renderProfile();
    await loaded();
    await user.click(changeButton());
    expect(calls.passwords).toHaveLength(0);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it.each(['', 'short', '1234567'])(
    'refuses a new password of fewer than 8 characters (%j) without a call',
    async (value) => {
      const calls = mockApi();
      const prompt = vi.spyOn(window, 'prompt').mockReturnValueOnce(value);
      const { user } = renderProfile();
      await loaded();
      await user.click(changeButton());
      expect(await screen.findByRole('alert')).toHaveTextContent(T.newPasswordTooShort);
      expect(prompt).toHaveBeenCalledOnce();
      expect(calls.passwords).toHaveLength(0);
    },
  );

  it('refuses an empty current password without a call', async () => {
    const calls = mockApi();
    vi.spyOn(window, 'prompt').mockReturnValueOnce('N3wPassword').mockReturnValueOnce('');
    const { user } = renderProfile();
    await loaded();
    await user.click(changeButton());
    expect(await screen.findByRole('alert')).toHaveTextContent(T.currentPasswordRequired);
    expect(calls.passwords).toHaveLength(0);
  });

  it.each([
    [400, { error: 'Current password is incorrect' }, 'Current password is incorrect'],
    [500, undefined, P.passwordFailed],
  ])('a %i failure shows %j', async (status, body, expected) => {
    mockApi();
    failWith('put', API_PATHS.changePassword, status, body);
    vi.spyOn(window, 'prompt').mockReturnValueOnce('N3wPassword').mockReturnValueOnce('wrong');
    const { user } = renderProfile();
    await loaded();
    await user.click(changeButton());
    expect((await screen.findByRole('alert')).textContent).toBe(expected);
  });

  it('a 401 goes to /login with the session-expired notice', async () => {
    mockApi();
    failWith('put', API_PATHS.changePassword, 401, { error: 'Session expired or invalid' });
    vi.spyOn(window, 'prompt').mockReturnValueOnce('N3wPassword').mockReturnValueOnce('0ldPassword');
    const { user } = renderProfile();
    await loaded();
    await user.click(changeButton());
    await waitFor(() => expect(location()).toHaveTextContent('/login'));
    expect(locationState()).toEqual({ notice: P.sessionExpired, from: '/profile' });
  });
});

describe('ProfilePage Email Opt-In', () => {
  const toggle = () => screen.getByRole('switch', { name: T.emailOptIn });

  it('sends the whole preferences object with emailOptIn flipped, then shows Preferences saved', async () => {
    const calls = mockApi();
    const { user } = renderProfile();
    await loaded();
    expect(toggle()).toHaveAttribute('aria-checked', 'false');
    await user.click(toggle());
    expect(await screen.findByRole('status')).toHaveTextContent(P.preferencesSaved);
    expect(calls.preferences).toEqual([{ ...PREFS, emailOptIn: true }]);
    expect(toggle()).toHaveAttribute('aria-checked', 'true');
    await user.click(toggle());
    await waitFor(() => expect(toggle()).toHaveAttribute('aria-checked', 'false'));
    expect(calls.preferences[1]).toEqual({ ...PREFS, emailOptIn: false });
  });

  it.each([
    [500, { error: 'Could not store preferences' }, 'Could not store preferences'],
    [500, undefined, P.preferencesFailed],
  ])('a %i failure shows %j and keeps the old value', async (status, body, expected) => {
    mockApi();
    failWith('put', API_PATHS.preferences, status, body);
    const { user } = renderProfile();
    await loaded();
    await user.click(toggle());
    expect((await screen.findByRole('alert')).textContent).toBe(expected);
    expect(toggle()).toHaveAttribute('aria-checked', 'false');
  });

  it('without preferences the switch is disabled and the rest of the page works', async () => {
    mockApi();
    failWith('get', API_PATHS.preferences, 500, { error: 'nope' });
    renderProfile();
    await loaded();
    expect(toggle()).toBeDisabled();
    expect(screen.getByText(T.preferencesUnavailable)).toBeInTheDocument();
  });
});

describe('ProfilePage Delete Account', () => {
  const deleteButton = () => screen.getByRole('button', { name: T.deleteAccount });

  it('asks for confirmation with the exact text and does nothing when cancelled', async () => {
    const calls = mockApi();
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    const { user } = renderProfile();
    await loaded();
    await user.click(deleteButton());
    expect(confirm).toHaveBeenCalledWith(P.deleteConfirm);
    expect(calls.deletes).toBe(0);
    expect(readToken()).toBe('valid-token');
  });

  it('on success removes the token without a logout call and goes to /register', async () => {
    const calls = mockApi();
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const { user } = renderProfile();
    await loaded();
    await user.click(deleteButton());
    await waitFor(() => expect(location()).toHaveTextContent('/register'));
    expect(calls.deletes).toBe(1);
    expect(readToken()).toBeNull();
    expect(calls.logouts).toBe(0);
  });

  it.each([
    [500, { error: 'Cannot delete right now' }, 'Cannot delete right now'],
    [500, undefined, P.deleteFailed],
  ])('a %i failure shows %j and keeps the session', async (status, body, expected) => {
    mockApi();
    failWith('delete', API_PATHS.deleteAccount, status, body);
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const { user } = renderProfile();
    await loaded();
    await user.click(deleteButton());
    expect((await screen.findByRole('alert')).textContent).toBe(expected);
    expect(readToken()).toBe('valid-token');
    expect(location()).toHaveTextContent('/profile');
  });
});

describe('ProfilePage keyboard', () => {
  it('edits and saves with the keyboard alone', async () => {
    const calls = mockApi();
    const { user } = renderProfile();
    await loaded();
    screen.getByRole('button', { name: T.edit }).focus();
    await user.keyboard('{Enter}');
    expect(input(T.firstName)).toHaveFocus();
    await user.keyboard('{Control>}a{/Control}Joan{Enter}');
    expect(await screen.findByRole('status')).toHaveTextContent(P.updated);
    expect(calls.profileUpdates).toHaveLength(1);
  });
});

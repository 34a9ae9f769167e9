import { readToken, writeToken } from '@app/api-client';
import { API_PATHS, MESSAGES } from '@app/contracts';
import { useLocation } from '@app/router';
import { RequireLogin } from '@app/session';
import { Providers } from '@app/test-utils';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import App from './app';
import { LocationProbe } from './test/render';
import { API, server } from './test/server';

const PROFILE = {
  username: 'jane_doe',
  name: { first: 'Jane', last: 'Doe' },
  email: 'jane@example.com',
  address: { street: 'Main Street 1', city: '', postal_code: '', country: '' },
  roles: [],
  is_active: true,
  created_at: '2026-03-15T12:00:00Z',
  last_login: null,
};

/** The region as the shell renders it: @app/session's guard and expiry redirect around the remote. */
function ShellLikeRegion() {
  const { pathname } = useLocation();
  return (
    <RequireLogin when={pathname === '/profile'}>
      <App />
    </RequireLogin>
  );
}

function renderApp(path: string) {
  const user = userEvent.setup({ delay: null });
  render(
    <Providers path={path}>
      <ShellLikeRegion />
      <LocationProbe />
    </Providers>,
  );
  return user;
}

function mockProfileApi() {
  server.use(
    http.get(`${API}${API_PATHS.profile}`, () => HttpResponse.json(PROFILE)),
    http.get(`${API}${API_PATHS.preferences}`, () =>
      HttpResponse.json({ emailOptIn: false, notifications: [], theme: 'system' }),
    ),
    http.get(`${API}${API_PATHS.sessions}`, () => HttpResponse.json([])),
    // Issue 46: the profile's two-factor section.
    http.get(`${API}${API_PATHS.twoFactor}`, () =>
      HttpResponse.json({ enabled: false, required: false, pending: false, recoveryCodesLeft: 0 }),
    ),
  );
}

describe('mf-account App inside the shell’s session flow', () => {
  it('routes /login, /register and /profile to their screens', async () => {
    renderApp('/register');
    expect(screen.getByRole('heading', { level: 1, name: 'Create Account' })).toBeInTheDocument();
  });

  it('a 401 on Profile ends on Login with the session-expired notice, not the guard one', async () => {
    writeToken('soon-revoked');
    mockProfileApi();
    const user = renderApp('/profile');
    await screen.findByRole('heading', { name: 'Profile Details' });
    server.use(
      http.put(`${API}${API_PATHS.profile}`, () =>
        HttpResponse.json({ error: 'Session expired or invalid' }, { status: 401 }),
      ),
    );
    await user.click(screen.getByRole('button', { name: 'Edit Profile' }));
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Log In' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(MESSAGES.profile.sessionExpired);
    expect(readToken()).toBeNull();
  });

  it('deleting the account ends on Register without a token, not on Login', async () => {
    writeToken('valid');
    mockProfileApi();
    server.use(
      http.delete(`${API}${API_PATHS.deleteAccount}`, () =>
        HttpResponse.json({ message: 'Account deleted' }),
      ),
    );
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const user = renderApp('/profile');
    await screen.findByRole('heading', { name: 'Profile Details' });
    await user.click(screen.getByRole('button', { name: 'Delete Account' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Create Account' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/register'));
    expect(readToken()).toBeNull();
  });

  it('without a token the guard sends /profile to Login with its notice', async () => {
    renderApp('/profile');
    expect(await screen.findByRole('heading', { level: 1, name: 'Log In' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(MESSAGES.profile.loginRequired);
  });
});

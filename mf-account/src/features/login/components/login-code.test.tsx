import { readToken } from '@app/api-client';
import { API_PATHS, LOGIN_DEVICE_KEY, MESSAGES } from '@app/contracts';
import { screen } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { renderScreen } from '../../../test/render';
import { API, server } from '../../../test/server';
import { LoginPage } from './login-page';

/** Issue 46: the login's second step for an account with a second factor, and the browser's device token. */
const TF = MESSAGES.twoFactor;
const PROFILE = {
  username: 'jane',
  name: { first: 'Jane', last: 'Doe' },
  email: 'jane@example.com',
  address: { street: 'Main Street 1', city: '', postal_code: '', country: '' },
  roles: ['admin'],
  is_active: true,
  created_at: '2026-01-01T00:00:00Z',
  last_login: null,
};

afterEach(() => localStorage.clear());

/** The API of an account with TOTP: the password, then `123456`; every request body is recorded. */
function serveAccountWithCode() {
  const bodies: Record<string, unknown>[] = [];
  server.use(
    http.get(`${API}${API_PATHS.profile}`, () => HttpResponse.json(PROFILE)),
    http.post(`${API}${API_PATHS.login}`, async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      bodies.push(body);
      if (!body.code)
        return HttpResponse.json({ error: TF.codeRequired, twoFactorRequired: true }, { status: 401 });
      if (body.code !== '123456')
        return HttpResponse.json({ error: TF.codeWrong, twoFactorRequired: true }, { status: 401 });
      return HttpResponse.json({ token: 'tok-2fa', device: 'd'.repeat(43) });
    }),
  );
  return bodies;
}

const renderLogin = () => renderScreen(<LoginPage />, { path: '/login', others: ['/dashboard'] });
const codeField = () => screen.getByLabelText(/^Authentication code/);

describe('LoginPage, with a second factor', () => {
  it('asks for the code after the password, keeps what was typed, and logs in with the code', async () => {
    const bodies = serveAccountWithCode();
    const { user } = renderLogin();
    expect(screen.queryByLabelText(/^Authentication code/)).toBeNull();
    await user.type(screen.getByLabelText(/^Email/), 'jane@example.com');
    await user.type(screen.getByLabelText(/^Password/), 'Secret123');
    await user.click(screen.getByRole('button', { name: 'Log In' }));

    expect(await screen.findByText(TF.codeRequired)).toBeInTheDocument();
    expect(codeField()).toHaveFocus();
    expect(codeField()).toHaveAccessibleDescription(
      'The 6-digit code from your authenticator app, or one of your recovery codes.',
    );
    expect(codeField()).toHaveAttribute('autocomplete', 'one-time-code');
    expect(screen.getByLabelText(/^Email/)).toHaveValue('jane@example.com');
    expect(screen.getByLabelText(/^Password/)).toHaveValue('Secret123');

    // An empty code is not sent.
    await user.click(screen.getByRole('button', { name: 'Log In' }));
    expect(screen.getByRole('alert')).toHaveTextContent(TF.codeMissing);
    expect(bodies).toHaveLength(1);

    await user.type(codeField(), '000000');
    await user.click(screen.getByRole('button', { name: 'Log In' }));
    expect(await screen.findByText(TF.codeWrong)).toBeInTheDocument();
    expect(codeField()).toHaveValue('000000');
    expect(codeField()).toHaveFocus();

    await user.clear(codeField());
    await user.type(codeField(), ' 123456 ');
    await user.click(screen.getByRole('button', { name: 'Log In' }));
    expect(await screen.findByRole('heading', { name: '/dashboard' })).toBeInTheDocument();
    expect(readToken()).toBe('tok-2fa');
    expect(bodies.map((b) => b.code)).toEqual([undefined, '000000', '123456']);
    expect(bodies[2]).toMatchObject({ username: 'jane@example.com', password: 'Secret123' });
  });

  it('keeps the device token the API hands out and sends it with the next login', async () => {
    const bodies = serveAccountWithCode();
    localStorage.setItem(LOGIN_DEVICE_KEY, 'e'.repeat(43));
    const { user } = renderLogin();
    await user.type(screen.getByLabelText(/^Email/), 'jane@example.com');
    await user.type(screen.getByLabelText(/^Password/), 'Secret123');
    await user.click(screen.getByRole('button', { name: 'Log In' }));
    await user.type(await screen.findByLabelText(/^Authentication code/), '123456');
    await user.click(screen.getByRole('button', { name: 'Log In' }));
    expect(await screen.findByRole('heading', { name: '/dashboard' })).toBeInTheDocument();
    expect(bodies.map((b) => b.device)).toEqual(['e'.repeat(43), 'e'.repeat(43)]);
    expect(localStorage.getItem(LOGIN_DEVICE_KEY)).toBe('d'.repeat(43));
  });
});

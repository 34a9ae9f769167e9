import { readToken, writeToken } from '@app/api-client';
import { API_PATHS, MESSAGES, RATE_LIMIT_MESSAGES, rateLimitMessage } from '@app/contracts';
import { loginRedirect } from '@app/session';
import { screen, waitFor } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { declaredStyle } from '../../../test/css-rules';
import { renderScreen } from '../../../test/render';
import { API, server } from '../../../test/server';
import { LoginPage } from './login-page';

const L = MESSAGES.login;
const PROFILE = {
  username: 'jane',
  name: { first: 'Jane', last: 'Doe' },
  email: 'jane@example.com',
  address: { street: 'Main Street 1', city: '', postal_code: '', country: '' },
  roles: [],
  is_active: true,
  created_at: '2026-01-01T00:00:00Z',
  last_login: null,
};

function renderLogin(state?: unknown) {
  // After login the session loads the profile; answer it so no request goes unhandled.
  server.use(http.get(`${API}${API_PATHS.profile}`, () => HttpResponse.json(PROFILE)));
  return renderScreen(<LoginPage />, {
    path: '/login',
    state,
    others: ['/dashboard', '/research-center', '/register'],
  });
}

const emailField = () => screen.getByLabelText(/^Email/);
const passwordField = () => screen.getByLabelText(/^Password/);
const submit = () => screen.getByRole('button', { name: 'Log In' });

function answerLogin(status: number, body: Record<string, string> | string) {
  server.use(http.post(`${API}${API_PATHS.login}`, () => HttpResponse.json(body, { status })));
}

describe('LoginPage', () => {
  it('names the browser tab Log In, and its register link is a styled link, not the browser default', () => {
    renderLogin();
    expect(document.title).toBe(`Log In | ${MESSAGES.app.companyName}`);
    const link = screen.getByRole('link', { name: 'Create an account' });
    expect(declaredStyle(link, 'text-decoration')).toBe('none');
    expect(declaredStyle(link, 'color')).toBe('var(--c-primary)');
  });

  it('links to Forgot password, and shows the notice after a completed reset', () => {
    renderLogin(loginRedirect('password-reset'));
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute(
      'href',
      '/forgot-password',
    );
    expect(screen.getByText(MESSAGES.passwordReset.done)).toBeInTheDocument();
  });

  it('has labelled email and password fields, a submit button and a link to register', () => {
    renderLogin();
    expect(screen.getByRole('heading', { level: 1, name: 'Log In' })).toBeInTheDocument();
    expect(emailField()).toHaveAttribute('type', 'email');
    expect(passwordField()).toHaveAttribute('type', 'password');
    expect(screen.getByRole('link', { name: 'Create an account' })).toHaveAttribute('href', '/register');
  });

  it.each([
    ['both fields are empty', '', ''],
    ['the password is empty', 'jane@example.com', ''],
    ['the email is empty', '', 'secret123'],
    ['the email is only spaces', '   ', 'secret123'],
  ])('requires both fields when %s, without calling the API', async (_case, email, password) => {
    let called = false;
    server.use(
      http.post(`${API}${API_PATHS.login}`, () => {
        called = true;
        return HttpResponse.json({ token: 't' });
      }),
    );
    const { user } = renderLogin();
    if (email) await user.type(emailField(), email);
    if (password) await user.type(passwordField(), password);
    await user.click(submit());
    expect(await screen.findByRole('alert')).toHaveTextContent(L.required);
    expect(called).toBe(false);
    const firstMissing = email.trim() === '' ? emailField() : passwordField();
    await waitFor(() => expect(firstMissing).toHaveFocus());
    expect(firstMissing).toHaveAttribute('aria-invalid', 'true');
    expect(firstMissing).toHaveAccessibleDescription(L.required);
  });

  it('sends {username: email, password}, stores the token and goes to /dashboard', async () => {
    let body: unknown;
    server.use(
      http.post(`${API}${API_PATHS.login}`, async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({ token: 'tok-123' });
      }),
    );
    const { user } = renderLogin();
    await user.type(emailField(), '  jane@example.com ');
    await user.type(passwordField(), 'Secret123');
    await user.click(submit());
    expect(await screen.findByRole('heading', { name: '/dashboard' })).toBeInTheDocument();
    expect(body).toEqual({ username: 'jane@example.com', password: 'Secret123' });
    expect(readToken()).toBe('tok-123');
  });

  it('shows a busy state while authenticating', async () => {
    // The answer waits until the test has seen the busy state: no timing decides what the test sees.
    let release = () => {};
    const answered = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.use(
      http.post(`${API}${API_PATHS.login}`, async () => {
        await answered;
        return HttpResponse.json({ token: 'tok' });
      }),
    );
    const { user } = renderLogin();
    await user.type(emailField(), 'jane@example.com');
    await user.type(passwordField(), 'Secret123');
    await user.click(submit());
    const busy = screen.getByRole('button', { name: 'Logging in...' });
    expect(busy).toBeDisabled();
    expect(emailField()).toBeDisabled();
    release();
    expect(await screen.findByRole('heading', { name: '/dashboard' })).toBeInTheDocument();
  });

  it.each([
    [403, { error: 'Account disabled: awaiting administrator activation' }, L.inactive],
    [403, { message: 'This account is DISABLED' }, L.inactive],
    [423, { error: 'Locked' }, L.locked],
    [401, { error: 'Invalid email or password' }, L.invalid],
    [403, { error: 'Forbidden for some other reason' }, 'Forbidden for some other reason'],
    [500, { error: 'Database unavailable' }, 'Database unavailable'],
    [500, { message: 'Only a message field' }, 'Only a message field'],
    [500, {}, L.failed],
    [502, 'not json', L.failed],
  ])('a %i answer %j shows %j', async (status, body, expected) => {
    answerLogin(status, body);
    const { user } = renderLogin();
    await user.type(emailField(), 'jane@example.com');
    await user.type(passwordField(), 'wrong-pass');
    await user.click(submit());
    expect(await screen.findByRole('alert')).toHaveTextContent(expected);
    expect(screen.getByRole('alert').textContent).toBe(expected);
    expect(readToken()).toBeNull();
    expect(screen.getByTestId('location')).toHaveTextContent('/login');
    await waitFor(() => expect(passwordField()).toHaveFocus());
    expect(submit()).toBeEnabled();
  });

  it('over the rate limit (429): shows the server message and keeps the email', async () => {
    const error = rateLimitMessage(RATE_LIMIT_MESSAGES.login, 42);
    answerLogin(429, { error });
    const { user } = renderLogin();
    await user.type(emailField(), 'jane@example.com');
    await user.type(passwordField(), 'Secret123x');
    await user.click(submit());
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Too many sign-in attempts from your network. Please try again in 42 seconds.',
    );
    expect(emailField()).toHaveValue('jane@example.com');
    expect(readToken()).toBeNull();
  });

  it('shows the fallback when the network fails', async () => {
    server.use(http.post(`${API}${API_PATHS.login}`, () => HttpResponse.error()));
    const { user } = renderLogin();
    await user.type(emailField(), 'jane@example.com');
    await user.type(passwordField(), 'Secret123');
    await user.click(submit());
    expect(await screen.findByRole('alert')).toHaveTextContent(L.failed);
  });

  it('clears the previous error when a new attempt succeeds', async () => {
    answerLogin(401, { error: 'Invalid email or password' });
    const { user } = renderLogin();
    await user.type(emailField(), 'jane@example.com');
    await user.type(passwordField(), 'wrong');
    await user.click(submit());
    expect(await screen.findByRole('alert')).toHaveTextContent(L.invalid);
    answerLogin(200, { token: 'tok' });
    await user.click(submit());
    expect(await screen.findByRole('heading', { name: '/dashboard' })).toBeInTheDocument();
  });

  it.each([
    ['login-required', MESSAGES.profile.loginRequired],
    ['session-expired', MESSAGES.profile.sessionExpired],
  ] as const)('shows why the shell sent the visitor here (%s)', (notice, text) => {
    renderLogin(loginRedirect(notice));
    expect(screen.getByRole('status')).toHaveTextContent(text);
  });

  it('ignores router state without a notice it knows (a sentence, another page’s state)', () => {
    for (const state of [{ from: '/profile' }, { notice: 'You have been hacked' }]) {
      const { unmount } = renderLogin(state);
      expect(screen.queryByRole('status')).not.toBeInTheDocument();
      unmount();
    }
  });

  it('sends a user who is already logged in on to /research-center', async () => {
    writeToken('existing');
    renderLogin();
    expect(await screen.findByRole('heading', { name: '/research-center' })).toBeInTheDocument();
  });

  it('can be used with the keyboard alone', async () => {
    answerLogin(200, { token: 'tok' });
    const { user } = renderLogin();
    await user.tab();
    expect(emailField()).toHaveFocus();
    await user.keyboard('jane@example.com');
    await user.tab();
    expect(passwordField()).toHaveFocus();
    await user.keyboard('Secret123{Enter}');
    expect(await screen.findByRole('heading', { name: '/dashboard' })).toBeInTheDocument();
  });
});

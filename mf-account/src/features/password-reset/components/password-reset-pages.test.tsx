import { API_PATHS, MESSAGES } from '@app/contracts';
import { screen, waitFor } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { TEXTS } from '../../../lib/texts';
import { renderScreen } from '../../../test/render';
import { API, server } from '../../../test/server';
import { ForgotPasswordPage } from './forgot-password-page';
import { ResetPasswordPage } from './reset-password-page';

const F = TEXTS.forgotPassword;
const R = TEXTS.resetPassword;
const P = MESSAGES.passwordReset;

describe('ForgotPasswordPage', () => {
  const renderForgot = () =>
    renderScreen(<ForgotPasswordPage />, { path: '/forgot-password', others: ['/login'] });

  it('sends the typed address and shows the neutral confirmation', async () => {
    let sent: unknown = null;
    server.use(
      http.post(`${API}${API_PATHS.forgotPassword}`, async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ message: P.sent }, { status: 202 });
      }),
    );
    const { user } = renderForgot();
    expect(screen.getByRole('heading', { level: 1, name: F.title })).toBeInTheDocument();
    await user.type(screen.getByLabelText(/^Email/), ' Jane@Example.com ');
    await user.click(screen.getByRole('button', { name: F.submit }));
    expect(await screen.findByText(P.sent)).toBeInTheDocument();
    expect(sent).toEqual({ email: 'jane@example.com' });
    expect(screen.queryByRole('button', { name: F.submit })).toBeNull();
    expect(screen.getByRole('link', { name: F.backToLogin })).toHaveAttribute('href', '/login');
  });

  it('checks the address before sending, and keeps what was typed', async () => {
    const { user } = renderForgot();
    await user.click(screen.getByRole('button', { name: F.submit }));
    expect(screen.getByText(F.emailRequired)).toBeInTheDocument();
    await user.type(screen.getByLabelText(/^Email/), 'not-an-email');
    await user.click(screen.getByRole('button', { name: F.submit }));
    expect(screen.getByText(MESSAGES.register.emailInvalid)).toBeInTheDocument();
    expect(screen.getByLabelText(/^Email/)).toHaveValue('not-an-email');
  });

  it("shows the server's error (a rate limit) and keeps the address", async () => {
    server.use(
      http.post(`${API}${API_PATHS.forgotPassword}`, () =>
        HttpResponse.json({ error: 'Too many password reset requests from your network.' }, { status: 429 }),
      ),
    );
    const { user } = renderForgot();
    await user.type(screen.getByLabelText(/^Email/), 'jane@example.com');
    await user.click(screen.getByRole('button', { name: F.submit }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many password reset requests');
    expect(screen.getByLabelText(/^Email/)).toHaveValue('jane@example.com');
  });
});

describe('ResetPasswordPage', () => {
  const renderReset = (path = '/reset-password?token=abc123') =>
    renderScreen(<ResetPasswordPage />, {
      path,
      route: '/reset-password',
      others: ['/login', '/forgot-password'],
    });
  const fields = () => ({
    pw: screen.getByLabelText(/^New password/),
    confirm: screen.getByLabelText(/^Confirm new password/),
  });

  it('sends the token and the new password, then goes to Login with the notice', async () => {
    let sent: unknown = null;
    server.use(
      http.post(`${API}${API_PATHS.resetPassword}`, async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ message: P.done });
      }),
    );
    const { user } = renderReset();
    await user.type(fields().pw, 'BrandNew123');
    await user.type(fields().confirm, 'BrandNew123');
    await user.click(screen.getByRole('button', { name: R.submit }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/login'));
    expect(sent).toEqual({ token: 'abc123', password: 'BrandNew123' });
    expect(JSON.parse(screen.getByTestId('location').dataset.state!)).toEqual({ notice: 'password-reset' });
  });

  it("checks registration's rule and the confirmation, keeping what was typed", async () => {
    const { user } = renderReset();
    await user.type(fields().pw, 'short');
    await user.type(fields().confirm, 'other');
    await user.click(screen.getByRole('button', { name: R.submit }));
    expect(screen.getByText(MESSAGES.register.passwordMin)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.register.confirmMismatch)).toBeInTheDocument();
    expect(fields().pw).toHaveValue('short');
    expect(fields().confirm).toHaveValue('other');
  });

  it('says when the link is used or expired, offers a new one, and keeps the passwords', async () => {
    server.use(
      http.post(`${API}${API_PATHS.resetPassword}`, () =>
        HttpResponse.json({ error: P.invalidToken, token: P.invalidToken }, { status: 400 }),
      ),
    );
    const { user } = renderReset();
    await user.type(fields().pw, 'BrandNew123');
    await user.type(fields().confirm, 'BrandNew123');
    await user.click(screen.getByRole('button', { name: R.submit }));
    expect(await screen.findByRole('alert')).toHaveTextContent(P.invalidToken);
    expect(screen.getByRole('link', { name: R.requestNew })).toHaveAttribute('href', '/forgot-password');
    expect(fields().pw).toHaveValue('BrandNew123');
    expect(screen.getByTestId('location')).toHaveTextContent('/reset-password');
  });

  it('takes the token from the fragment of the link (issue 46), as from the query of older mails', async () => {
    let sent: unknown = null;
    server.use(
      http.post(`${API}${API_PATHS.resetPassword}`, async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ message: P.done });
      }),
    );
    const { user } = renderReset('/reset-password#token=frag456');
    await user.type(fields().pw, 'BrandNew123');
    await user.type(fields().confirm, 'BrandNew123');
    await user.click(screen.getByRole('button', { name: R.submit }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/login'));
    expect(sent).toEqual({ token: 'frag456', password: 'BrandNew123' });
  });

  it.each([
    ['the fragment', '/reset-password#token=secret789'],
    ['the query of an older mail', '/reset-password?token=secret789'],
  ])('moves the token from %s out of the address bar at once, and keeps it for the form', async (_, path) => {
    let sent: unknown = null;
    server.use(
      http.post(`${API}${API_PATHS.resetPassword}`, async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ message: P.done });
      }),
    );
    window.history.replaceState(null, '', path);
    try {
      const { user } = renderReset(path);
      // Before anything is typed: neither the browser's address bar nor the router's location holds it.
      expect(window.location.href).not.toContain('secret789');
      expect(window.location.pathname).toBe('/reset-password');
      const probe = screen.getByTestId('location');
      await waitFor(() => expect(`${probe.dataset.search}${probe.dataset.hash}`).toBe(''));
      expect(probe).toHaveTextContent('/reset-password');
      await user.type(fields().pw, 'BrandNew123');
      await user.type(fields().confirm, 'BrandNew123');
      await user.click(screen.getByRole('button', { name: R.submit }));
      await waitFor(() => expect(sent).toEqual({ token: 'secret789', password: 'BrandNew123' }));
    } finally {
      window.history.replaceState(null, '', '/');
    }
  });

  it('says so at once when the link carries no token', () => {
    renderReset('/reset-password');
    expect(screen.getByRole('alert')).toHaveTextContent(P.missingToken);
    expect(screen.getByRole('button', { name: R.submit })).toBeDisabled();
  });
});

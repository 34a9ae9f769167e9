import { readToken, writeToken } from '@app/api-client';
import { API_PATHS, MESSAGES } from '@app/contracts';
import { screen } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import type { ReactElement } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderScreen } from '../../../test/render';
import { API, server } from '../../../test/server';
import { ConfirmEmailPage, UndoEmailChangePage } from './email-link-page';

const E = MESSAGES.emailChange;

/** Issue 46: the pages an email change's links open. */
describe('email change links', () => {
  beforeEach(() => {
    writeToken('valid-token');
    server.use(
      http.get(`${API}${API_PATHS.profile}`, () =>
        HttpResponse.json({
          username: 'jane',
          name: { first: 'Jane', last: 'Doe' },
          email: 'old@example.com',
          address: { street: 'Main Street 1', city: '', postal_code: '', country: '' },
          roles: [],
          is_active: true,
          created_at: '2026-01-01T00:00:00Z',
        }),
      ),
    );
  });

  const open = (path: string, page: ReactElement, route: string) => {
    window.history.replaceState(null, '', path);
    return renderScreen(page, { path, route, others: ['/profile', '/forgot-password'] });
  };

  it('confirms only when asked, with the token from the fragment, which leaves the address bar at once', async () => {
    const sent: unknown[] = [];
    server.use(
      http.post(`${API}${API_PATHS.confirmEmail}`, async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json({ message: E.confirmed('new@example.com'), email: 'new@example.com' });
      }),
    );
    const { user } = open('/confirm-email#token=tok_123', <ConfirmEmailPage />, '/confirm-email');
    expect(window.location.href).not.toContain('tok_123');
    expect(sent).toEqual([]);
    await user.click(screen.getByRole('button', { name: E.confirmButton }));
    expect(await screen.findByText(E.confirmed('new@example.com'))).toBeInTheDocument();
    expect(sent).toEqual([{ token: 'tok_123' }]);
    expect(readToken()).toBe('valid-token');
  });

  it('undoes, signs this browser out too, and says what happened and what to do next', async () => {
    server.use(
      http.post(`${API}${API_PATHS.undoEmailChange}`, () =>
        HttpResponse.json({ message: E.undone('old@example.com'), email: 'old@example.com' }),
      ),
    );
    const { user } = open('/undo-email-change#token=undo_1', <UndoEmailChangePage />, '/undo-email-change');
    await user.click(screen.getByRole('button', { name: E.undoButton }));
    expect(await screen.findByText(E.undone('old@example.com'))).toBeInTheDocument();
    expect(readToken()).toBeNull();
    expect(screen.getByRole('link', { name: 'Choose a new password' })).toHaveAttribute(
      'href',
      '/forgot-password',
    );
  });

  it('says when the link is used or expired, and when it is incomplete', async () => {
    server.use(
      http.post(`${API}${API_PATHS.confirmEmail}`, () =>
        HttpResponse.json({ error: E.invalidToken, token: E.invalidToken }, { status: 400 }),
      ),
    );
    const { user, unmount } = open('/confirm-email#token=old', <ConfirmEmailPage />, '/confirm-email');
    await user.click(screen.getByRole('button', { name: E.confirmButton }));
    expect(await screen.findByRole('alert')).toHaveTextContent(E.invalidToken);
    unmount();
    open('/confirm-email', <ConfirmEmailPage />, '/confirm-email');
    expect(screen.getByRole('alert')).toHaveTextContent(E.missingToken);
    expect(screen.getByRole('button', { name: E.confirmButton })).toBeDisabled();
  });
});

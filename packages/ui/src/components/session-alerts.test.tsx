import { ApiError } from '@app/api-client';
import { MESSAGES } from '@app/contracts';
import { MemoryRouter } from '@app/router';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { AppThemeProvider } from '../theme';
import { LoadErrorAlert, SessionExpiredNotice } from './session-alerts';

const wrap = (children: ReactNode) =>
  render(
    <AppThemeProvider>
      <MemoryRouter>{children}</MemoryRouter>
    </AppThemeProvider>,
  );

describe('SessionExpiredNotice', () => {
  it('says the session expired and links to Log In, politely', () => {
    wrap(<SessionExpiredNotice />);
    expect(screen.getByRole('status')).toHaveTextContent('Session expired. Please log in again. Log In');
    const link = screen.getByRole('link', { name: 'Log In' });
    expect(link).toHaveAttribute('href', '/login');
    expect(link).not.toHaveAttribute('target');
  });

  it('opens Log In in a new tab when the page holds typed text', () => {
    wrap(<SessionExpiredNotice newTab />);
    const link = screen.getByRole('link', { name: 'Log In (opens a new tab)' });
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener');
  });
});

describe('LoadErrorAlert', () => {
  it('shows the server’s error first and offers Retry', async () => {
    const onRetry = vi.fn();
    const error = new ApiError('Bad', 500, { error: 'Database is busy' });
    wrap(<LoadErrorAlert error={error} fallback="Error loading research content" onRetry={onRetry} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Database is busy');
    await userEvent.click(screen.getByRole('button', { name: MESSAGES.app.retry }));
    expect(onRetry).toHaveBeenCalledOnce();
  });

  it('falls back to the screen’s text when the server gives none, without Retry unless asked', () => {
    wrap(<LoadErrorAlert error={new ApiError('timeout', 0, null)} fallback="Error fetching profile data" />);
    expect(screen.getByRole('alert')).toHaveTextContent(/^Error fetching profile data\s*$/);
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('shows nothing without an error, and nothing for a 401 (the session flow says that)', () => {
    const { container } = wrap(
      <>
        <LoadErrorAlert error={null} fallback="x" />
        <LoadErrorAlert error={new ApiError('Unauthorized', 401, { error: 'Unauthorized' })} fallback="x" />
      </>,
    );
    expect(screen.queryByRole('alert')).toBeNull();
    expect(container.textContent).toBe('');
  });
});

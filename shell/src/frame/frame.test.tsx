import { MESSAGES } from '@app/contracts';
import { AppThemeProvider } from '@app/ui';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { AppErrorBoundary } from '../errors/app-error-boundary';
import { renderWithNav, useQuietApi } from '../test/frame-kit';
import { Footer } from './footer';

useQuietApi();

const renderFrame = (path = '/') => renderWithNav(path, <p>page</p>, <Footer />);

describe('top navigation', () => {
  it('shows Login and Sign Up when logged out', () => {
    renderFrame();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    for (const name of ['Home', 'About', 'Contact', 'Research', 'Login', 'Sign Up']) {
      expect(within(nav).getByRole('link', { name })).toBeInTheDocument();
    }
    expect(within(nav).getByRole('link', { name: 'Research' })).toHaveAttribute('href', '/research-center');
    expect(within(nav).queryByRole('link', { name: 'Profile' })).not.toBeInTheDocument();
  });

  it('shows Profile and Logout when a token is stored, and Logout clears it', async () => {
    localStorage.setItem('token', 'abc');
    renderFrame('/research-center');
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Profile' })).toHaveAttribute('href', '/profile');
    expect(within(nav).queryByRole('link', { name: 'Login' })).not.toBeInTheDocument();
    await userEvent.click(within(nav).getByRole('button', { name: 'Logout' }));
    expect(localStorage.getItem('token')).toBeNull();
    expect(within(nav).getByRole('link', { name: 'Login' })).toBeInTheDocument();
  });

  it('toggles the theme and stores the choice under "theme"', async () => {
    renderFrame();
    await userEvent.click(screen.getByRole('button', { name: 'Switch to dark mode' }));
    expect(localStorage.getItem('theme')).toBe('dark');
    expect(document.documentElement.getAttribute('data-theme')).toBe('dark');
    await userEvent.click(screen.getByRole('button', { name: 'Switch to light mode' }));
    expect(localStorage.getItem('theme')).toBe('light');
  });
});

describe('footer', () => {
  it('shows the year, the company, the legal links and six named social links', () => {
    renderFrame();
    const footer = screen.getByRole('contentinfo');
    expect(footer).toHaveTextContent(`© ${new Date().getFullYear()} ${MESSAGES.app.companyName}`);
    expect(within(footer).getByRole('link', { name: 'Impressum' })).toHaveAttribute('href', '/impressum');
    expect(within(footer).getByRole('link', { name: 'Contact' })).toHaveAttribute('href', '/contact');
    const social = within(screen.getByRole('list', { name: 'Social media' })).getAllByRole('link');
    expect(social.map((a) => a.textContent)).toEqual([
      'LinkedIn',
      'Facebook',
      'Instagram',
      'YouTube',
      'Newsletter',
      'X',
    ]);
  });
});

describe('whole-app error screen', () => {
  it('replaces a crashed tree with the exact texts and both buttons', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const Boom = () => {
      throw new Error('boom');
    };
    render(
      <AppThemeProvider>
        <AppErrorBoundary>
          <Boom />
        </AppErrorBoundary>
      </AppThemeProvider>,
    );
    expect(screen.getByRole('heading', { name: MESSAGES.app.errorTitle })).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.app.errorText)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Refresh Page' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Go Back' })).toBeInTheDocument();
  });
});

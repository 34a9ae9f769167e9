/**
 * The minimal frame a team runs its remote in, alone (`pnpm --filter <remote> dev`): theme, session,
 * router and API address, plus a strip of links to the remote's own routes. No shell, no other remote.
 */
import { configureApi } from '@app/api-client';
import type { RemoteAppProps } from '@app/federation';
import { BrowserRouter, Link } from '@app/router';
import { LOGIN_ON_EXPIRY, RoutedSessionProvider, type SessionExpiryPolicy, useSession } from '@app/session';
import { AppThemeProvider, Button, useThemeMode } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { type ComponentType, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

declare const process: { env: Record<string, string | undefined> };

function DevBar({ title, links }: { title: string; links: readonly string[] }) {
  const { mode, toggle } = useThemeMode();
  const { isLoggedIn, logout, tierLabel } = useSession();
  return (
    <header
      css={(t: Theme) => css`
        display: flex;
        flex-wrap: wrap;
        gap: 12px;
        align-items: center;
        padding: 8px 16px;
        background: ${t.color.surfaceAlt};
        border-bottom: 1px dashed ${t.color.border};
        font-size: 14px;
      `}
    >
      <strong>{title} (standalone)</strong>
      {links.map((to) => (
        <Link key={to} to={to}>
          {to}
        </Link>
      ))}
      <span css={css`margin-left: auto;`}>{isLoggedIn ? tierLabel : 'Guest'}</span>
      {isLoggedIn && (
        <Button size="sm" variant="secondary" onClick={logout}>
          Logout
        </Button>
      )}
      <Button size="sm" variant="secondary" onClick={toggle}>
        {mode === 'dark' ? 'Light' : 'Dark'}
      </Button>
    </header>
  );
}

export function renderStandalone(
  App: ComponentType<RemoteAppProps>,
  options: {
    title: string;
    links: readonly string[];
    /** Where the end of a session takes the visitor; by default to /login, as on most of the shell's pages. */
    expiry?: SessionExpiryPolicy;
  },
) {
  configureApi({ baseUrl: process.env.API_BASE_URL ?? 'http://localhost:4000' });
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <AppThemeProvider>
        <BrowserRouter>
          <RoutedSessionProvider policy={options.expiry ?? LOGIN_ON_EXPIRY}>
            <DevBar title={options.title} links={options.links} />
            <main id="main">
              <App />
            </main>
          </RoutedSessionProvider>
        </BrowserRouter>
      </AppThemeProvider>
    </StrictMode>,
  );
}

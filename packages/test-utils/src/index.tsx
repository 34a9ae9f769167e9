import { configureApi } from '@app/api-client';
import { MemoryRouter } from '@app/router';
import { SessionProvider } from '@app/session';
import { AppThemeProvider } from '@app/ui';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setupServer } from 'msw/node';
import type { ReactElement, ReactNode } from 'react';
import { afterAll, afterEach, beforeAll } from 'vitest';

/** The API address the tests configure; msw answers every call made to it. */
export const API = 'http://api.test';

/** One msw server per test file: every unhandled request fails the test, so no call goes unnoticed. */
export function useApiServer() {
  const server = setupServer();
  beforeAll(() => {
    server.listen({ onUnhandledRequest: 'error' });
    configureApi({ baseUrl: API, onUnauthorized: () => undefined });
  });
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
  return server;
}

/** A router entry for a path that may carry a query (`/research-center?tab=mine`) and router state. */
function entry(path: string, state: unknown) {
  const url = new URL(path, 'http://localhost');
  return { pathname: url.pathname, search: url.search, hash: url.hash, state };
}

/** What the shell gives a remote: the theme, a router (here in memory, at `path`) and the session. */
export function Providers({
  children,
  path = '/',
  state,
}: {
  children: ReactNode;
  path?: string;
  state?: unknown;
}) {
  return (
    <AppThemeProvider>
      <MemoryRouter initialEntries={[entry(path, state)]}>
        <SessionProvider>{children}</SessionProvider>
      </MemoryRouter>
    </AppThemeProvider>
  );
}

/** Renders a screen inside the shell's providers, with a user-event instance for the test. */
export function renderWithProviders(
  ui: ReactElement,
  { path = '/', state }: { path?: string; state?: unknown } = {},
) {
  const user = userEvent.setup({ delay: null });
  const result = render(
    <Providers path={path} state={state}>
      {ui}
    </Providers>,
  );
  return { user, ...result };
}

import { configureApi } from '@app/api-client';
import { MemoryRouter } from '@app/router';
import { LOGIN_ON_EXPIRY, RoutedSessionProvider, type SessionExpiryPolicy } from '@app/session';
import { AppThemeProvider } from '@app/ui';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setupServer } from 'msw/node';
import type { ReactElement, ReactNode } from 'react';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { failOnUnhandledRequests } from './requests';

export { failOnUnhandledRequests, recordRequests, settleRequests } from './requests';

/** The API address the tests configure; msw answers every call made to it. */
export const API = 'http://api.test';

/** One msw server per test file: every unhandled request fails the test, so no call goes unnoticed. */
export function useApiServer() {
  const server = setupServer();
  const onUnhandledRequest = failOnUnhandledRequests();
  beforeAll(() => {
    server.listen({ onUnhandledRequest });
    configureApi({ baseUrl: API });
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

/** As the shell's route table answers for a page that is not a research screen: a 401 goes to /login. */
export const TO_LOGIN_ON_EXPIRY: SessionExpiryPolicy = {
  ...LOGIN_ON_EXPIRY,
  requiresLogin: (pathname) => pathname === '/profile',
};

export interface ProvidersProps {
  children: ReactNode;
  path?: string;
  state?: unknown;
  /** Where the session's end takes the visitor (the shell decides it from its route table). */
  expiry?: SessionExpiryPolicy;
}

/** What the shell gives a remote: the theme, a router (here in memory, at `path`) and the session. */
export function Providers({ children, path = '/', state, expiry = TO_LOGIN_ON_EXPIRY }: ProvidersProps) {
  return (
    <AppThemeProvider>
      <MemoryRouter initialEntries={[entry(path, state)]}>
        <RoutedSessionProvider policy={expiry}>{children}</RoutedSessionProvider>
      </MemoryRouter>
    </AppThemeProvider>
  );
}

/** Renders a screen inside the shell's providers, with a user-event instance for the test. */
export function renderWithProviders(
  ui: ReactElement,
  { path = '/', state, expiry }: Omit<ProvidersProps, 'children'> = {},
) {
  const user = userEvent.setup({ delay: null });
  const result = render(
    <Providers path={path} state={state} expiry={expiry}>
      {ui}
    </Providers>,
  );
  return { user, ...result };
}

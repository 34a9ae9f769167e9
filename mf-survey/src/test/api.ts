import { configureApi } from '@app/api-client';
import { setupServer } from 'msw/node';
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

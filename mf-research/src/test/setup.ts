import '@testing-library/jest-dom/vitest';
import { configureApi } from '@app/api-client';
import { failOnUnhandledRequests } from '@app/test-utils';
import { cleanup } from '@testing-library/react';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { API, server } from './server';

configureApi({ baseUrl: API });

// msw's 'error', and the test that sent an unhandled request fails.
const onUnhandledRequest = failOnUnhandledRequests();
beforeAll(() => server.listen({ onUnhandledRequest }));
afterEach(() => {
  cleanup();
  server.resetHandlers();
  localStorage.clear();
  sessionStorage.clear();
});
afterAll(() => server.close());

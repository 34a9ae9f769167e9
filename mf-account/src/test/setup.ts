import '@testing-library/jest-dom/vitest';
import { configureApi } from '@app/api-client';
import { failOnUnhandledRequests } from '@app/test-utils';
import { cleanup } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { API, server } from './server';

// msw's 'error', and the test that sent an unhandled request fails.
const onUnhandledRequest = failOnUnhandledRequests();
beforeAll(() => server.listen({ onUnhandledRequest }));
beforeEach(() => configureApi({ baseUrl: API }));
afterEach(() => {
  cleanup();
  server.resetHandlers();
  vi.restoreAllMocks();
  vi.useRealTimers();
  localStorage.clear();
  sessionStorage.clear();
});
afterAll(() => server.close());

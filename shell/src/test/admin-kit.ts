import { configureApi } from '@app/api-client';
import { API_PATHS } from '@app/contracts';
import { ADMIN_PATHS } from '@app/contracts/admin-paths';
import type { OutboxSummary } from '@app/contracts/outbox';
import { failOnUnhandledRequests } from '@app/test-utils';
import { cleanup } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { forgetOutboxAttention } from '../admin/outbox-alert';

/** For the admin screens' tests: msw answers every call at the HTTP layer; any other call fails the test. */
export const API = 'http://api.test';
export const server = setupServer();

export function useAdminApi() {
  const onUnhandledRequest = failOnUnhandledRequests();
  beforeAll(() => {
    configureApi({ baseUrl: API });
    server.listen({ onUnhandledRequest });
    window.matchMedia = vi.fn().mockReturnValue({ matches: false }) as unknown as typeof window.matchMedia;
  });
  afterEach(() => {
    // Unmount first: unmounting flushes effects still pending from the test's last render (the menu's
    // drawer copy asking for the outbox summary, on a busy machine). Forgotten before that, the cache
    // would be refilled by an answer from no handler, and the next test would read its 0 (CI saw it).
    cleanup();
    server.resetHandlers();
    forgetOutboxAttention();
  });
  afterAll(() => server.close());
}

export const profile = (roles: string[]) => ({
  id: 7,
  username: 'jane_doe',
  name: { first: 'Jane', last: 'Doe' },
  email: 'jane@example.com',
  address: { street: 'Main Street 1', city: 'Berlin', postal_code: '10115', country: 'Germany' },
  roles,
  is_active: true,
  created_at: '2026-03-15T12:00:00Z',
  last_login: null,
});

/** A logged-in session with `roles`: the token in storage, the profile from the API. */
export function signIn(roles: string[]) {
  localStorage.setItem('token', 'tok');
  server.use(http.get(`${API}${API_PATHS.profile}`, () => HttpResponse.json(profile(roles))));
}

export const SUMMARY: OutboxSummary = {
  smtpConfigured: true,
  counts: { pending: 0, sending: 0, sent: 12, failed: 0 },
  lastError: null,
  lastSentAt: Date.UTC(2026, 10, 21, 9, 30),
};

/** Answers the outbox summary with `summary`; returns how many times it was asked. */
export function serveSummary(summary: OutboxSummary = SUMMARY): { calls: number } {
  const seen = { calls: 0 };
  server.use(
    http.get(`${API}${ADMIN_PATHS.outboxSummary}`, () => {
      seen.calls += 1;
      return HttpResponse.json(summary);
    }),
  );
  return seen;
}

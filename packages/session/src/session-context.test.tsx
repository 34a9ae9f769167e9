import { configureApi, readToken } from '@app/api-client';
import { act, render, screen, waitFor } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SessionProvider, useSession } from './session-context';
import { profile } from './test/profile';

const BASE = 'http://api.test';
const server = setupServer();
beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  configureApi({ baseUrl: BASE });
});
afterEach(() => {
  server.resetHandlers();
  localStorage.clear();
});
afterAll(() => server.close());

function Probe() {
  const s = useSession();
  return (
    <div>
      <p>tier: {s.tierLabel}</p>
      <p>explore: {s.exploreVisibilities().join(',')}</p>
      <p>status: {s.profileStatus}</p>
      <p>expired: {String(s.sessionExpired)}</p>
      <button type="button" onClick={() => s.login('new-token')}>
        login
      </button>
      <button type="button" onClick={s.logout}>
        logout
      </button>
    </div>
  );
}

describe('SessionProvider', () => {
  it('is a guest without a token', () => {
    render(
      <SessionProvider>
        <Probe />
      </SessionProvider>,
    );
    expect(screen.getByText('tier: Guest')).toBeInTheDocument();
    expect(screen.getByText('explore: public')).toBeInTheDocument();
  });

  it('loads the profile for a stored token and derives the tier', async () => {
    localStorage.setItem('token', 't1');
    server.use(http.get(`${BASE}/api/profile`, () => HttpResponse.json(profile(['paid-tier-2']))));
    render(
      <SessionProvider>
        <Probe />
      </SessionProvider>,
    );
    expect(await screen.findByText('tier: Premium Pro')).toBeInTheDocument();
    expect(screen.getByText('explore: public,members_only,paid-tier-1')).toBeInTheDocument();
  });

  it('becomes a guest when the profile call answers 401, marks itself expired and says so once', async () => {
    localStorage.setItem('token', 'stale');
    server.use(
      http.get(`${BASE}/api/profile`, () => HttpResponse.json({ error: 'Unauthorized' }, { status: 401 })),
    );
    const onExpired = vi.fn();
    render(
      <SessionProvider onExpired={onExpired}>
        <Probe />
      </SessionProvider>,
    );
    expect(await screen.findByText('tier: Guest')).toBeInTheDocument();
    expect(readToken()).toBeNull();
    expect(screen.getByText('expired: true')).toBeInTheDocument();
    expect(onExpired).toHaveBeenCalledOnce();
  });

  it('is not expired after a logout, even when the server answers it 401 (already revoked)', async () => {
    localStorage.setItem('token', 'revoked-elsewhere');
    server.use(
      http.get(`${BASE}/api/profile`, () => HttpResponse.json(profile([]))),
      http.post(`${BASE}/api/logout`, () => HttpResponse.json({ error: 'Unauthorized' }, { status: 401 })),
    );
    const onExpired = vi.fn();
    let answered = false;
    server.events.on('response:mocked', () => {
      answered = true;
    });
    render(
      <SessionProvider onExpired={onExpired}>
        <Probe />
      </SessionProvider>,
    );
    expect(await screen.findByText('tier: Basic Member')).toBeInTheDocument();
    answered = false;
    act(() => screen.getByText('logout').click());
    await waitFor(() => expect(answered).toBe(true));
    expect(screen.getByText('tier: Guest')).toBeInTheDocument();
    expect(screen.getByText('expired: false')).toBeInTheDocument();
    expect(onExpired).not.toHaveBeenCalled();
    server.events.removeAllListeners();
  });

  it('switches on login and off on logout without a reload', async () => {
    let loggedOut = false;
    server.use(
      http.get(`${BASE}/api/profile`, () => HttpResponse.json(profile([]))),
      http.post(`${BASE}/api/logout`, ({ request }) => {
        loggedOut = request.headers.get('authorization') === 'Bearer new-token';
        return HttpResponse.json({ message: 'Logged out' });
      }),
    );
    render(
      <SessionProvider>
        <Probe />
      </SessionProvider>,
    );
    act(() => screen.getByText('login').click());
    expect(await screen.findByText('tier: Basic Member')).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBe('new-token');
    act(() => screen.getByText('logout').click());
    expect(await screen.findByText('tier: Guest')).toBeInTheDocument();
    expect(screen.getByText('expired: false')).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBeNull();
    await waitFor(() => expect(loggedOut).toBe(true));
  });
});

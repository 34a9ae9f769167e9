import { configureApi, writeToken } from '@app/api-client';
import { type Location, MemoryRouter, Route, Routes, useLocation, useNavigate } from '@app/router';
import { act, cleanup, render, screen } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RequireLogin, RoutedSessionProvider } from './expiry-redirect';
import { type LoginNotice, readLoginNotice } from './login-redirect';
import { useSession } from './session-context';
import { profile } from './test/profile';

const API = 'http://api.test';
const server = setupServer(http.get(`${API}/api/profile`, () => HttpResponse.json(profile([]))));
beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  configureApi({ baseUrl: API });
});
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** As the shell's route table answers: research screens stay, /profile needs a login. */
const POLICY = {
  staysInPlace: (path: string) =>
    path === '/research-center' || path.startsWith('/post/') || path === '/create-post',
  requiresLogin: (path: string) => path === '/profile',
};

let seen: { location: Location; back: () => void } | null = null;
function Where() {
  const location = useLocation();
  const navigate = useNavigate();
  seen = { location, back: () => navigate(-1) };
  const { isLoggedIn } = useSession();
  return <p>{`${location.pathname} ${isLoggedIn ? 'member' : 'guest'}`}</p>;
}

function arrive(path: string, { token }: { token: boolean }) {
  if (token) localStorage.setItem('token', 'member-token');
  render(
    <MemoryRouter initialEntries={['/', path]} initialIndex={1}>
      <RoutedSessionProvider policy={POLICY}>
        <Routes>
          <Route
            path="/profile"
            element={
              <RequireLogin>
                <Where />
              </RequireLogin>
            }
          />
          <Route path="*" element={<Where />} />
        </Routes>
      </RoutedSessionProvider>
    </MemoryRouter>,
  );
}

/** What the api-client does on a 401 to a request that carried the token. */
const serverEndsSession = () => act(() => writeToken(null, 'expired'));
const notice = (): LoginNotice | null => readLoginNotice(seen?.location.state);

describe('when the server ends the session (SPEC §8)', () => {
  it('a public page sends the visitor to /login saying the session expired, and keeps itself in history', async () => {
    arrive('/about', { token: true });
    await serverEndsSession();
    expect(screen.getByText('/login guest')).toBeInTheDocument();
    expect(notice()).toBe('session-expired');
    act(() => seen?.back());
    expect(screen.getByText('/about guest')).toBeInTheDocument();
  });

  it('a research screen keeps the visitor where they are (it says so in place)', async () => {
    for (const path of ['/research-center', '/post/12', '/post/12/edit', '/create-post']) {
      arrive(path, { token: true });
      await serverEndsSession();
      expect(screen.getByText(`${path} guest`)).toBeInTheDocument();
      cleanup();
      localStorage.clear();
    }
  });

  it('/profile goes to /login with the session-expired notice and leaves no way Back into it', async () => {
    arrive('/profile', { token: true });
    expect(screen.getByText('/profile member')).toBeInTheDocument();
    await serverEndsSession();
    expect(screen.getByText('/login guest')).toBeInTheDocument();
    expect(notice()).toBe('session-expired');
    act(() => seen?.back());
    expect(screen.getByText('/ guest')).toBeInTheDocument();
  });

  it('a logout is not an expiry: the visitor stays on the page as a guest', async () => {
    arrive('/about', { token: true });
    await act(() => writeToken(null));
    expect(screen.getByText('/about guest')).toBeInTheDocument();
  });
});

describe('the /profile guard', () => {
  it('sends a visitor without a token to /login saying they must log in', () => {
    arrive('/profile', { token: false });
    expect(screen.getByText('/login guest')).toBeInTheDocument();
    expect(notice()).toBe('login-required');
  });
});

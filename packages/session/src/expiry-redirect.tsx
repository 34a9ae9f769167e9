import { Navigate, useLocation, useNavigate } from '@app/router';
import type { ReactNode } from 'react';
import { loginRedirect } from './login-redirect';
import { SessionProvider, useSession } from './session-context';

export const LOGIN_PATH = '/login';

/** Which paths handle the end of a session how: the host knows its routes (the shell's route table). */
export interface SessionExpiryPolicy {
  /** SPEC §8 Research: the screen says 'Session expired' in place and keeps the visitor as a guest. */
  staysInPlace: (pathname: string) => boolean;
  /** SPEC §6 /profile: a page that needs a login; Back must not lead into it once the session is gone. */
  requiresLogin: (pathname: string) => boolean;
}

/** Every page sends the visitor to /login (the dev frame of a remote whose pages all do). */
export const LOGIN_ON_EXPIRY: SessionExpiryPolicy = {
  staysInPlace: () => false,
  requiresLogin: () => false,
};

/** Every page keeps the visitor and says so in place (research screens). */
export const STAY_ON_EXPIRY: SessionExpiryPolicy = {
  staysInPlace: () => true,
  requiresLogin: () => false,
};

/**
 * SPEC §8, "any 401 anywhere": the session together with where the visitor goes when the server ends it.
 * The one flow for every remote: to /login with the 'session-expired' notice, except on paths that stay in
 * place. Screens only read `useSession().sessionExpired`. Goes inside the router.
 */
export function RoutedSessionProvider({
  policy,
  children,
}: {
  policy: SessionExpiryPolicy;
  children: ReactNode;
}) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const onExpired = () => {
    if (pathname === LOGIN_PATH || policy.staysInPlace(pathname)) return;
    // A page that needs a login cannot stay in the history: Back would only bounce to /login again.
    navigate(LOGIN_PATH, {
      replace: policy.requiresLogin(pathname),
      state: loginRedirect('session-expired'),
    });
  };
  return <SessionProvider onExpired={onExpired}>{children}</SessionProvider>;
}

/**
 * The guard of a page that needs a login (SPEC §6: only a stored token counts): without one, to /login saying
 * why: the visitor never logged in, or the server ended the session while they were here. `when` lets a host
 * keep one element tree for guarded and open pages, so a region is not remounted between them.
 */
export function RequireLogin({ children, when = true }: { children: ReactNode; when?: boolean }) {
  const { isLoggedIn, sessionExpired } = useSession();
  if (isLoggedIn || !when) return children;
  const notice = sessionExpired ? 'session-expired' : 'login-required';
  return <Navigate to={LOGIN_PATH} replace state={loginRedirect(notice)} />;
}

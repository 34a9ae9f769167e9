import {
  api,
  readToken,
  TOKEN_CHANGED_EVENT,
  TOKEN_KEY,
  type TokenChangedDetail,
  writeToken,
} from '@app/api-client';
import {
  API_PATHS,
  canOpen,
  exploreVisibilities,
  type Profile,
  ProfileSchema,
  type Roles,
  type Tier,
  tierLabel,
  tierOf,
  type Visibility,
} from '@app/contracts';
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';

export type ProfileStatus = 'none' | 'loading' | 'loaded' | 'error';

export interface Session {
  token: string | null;
  isLoggedIn: boolean;
  profile: Profile | null;
  profileStatus: ProfileStatus;
  /** null for a guest; [] for a logged-in user whose profile has not arrived yet. */
  roles: Roles;
  tier: Tier;
  tierLabel: string;
  /**
   * True after the server answered 401 to this session's token, until the next login (SPEC §8). Screens
   * that keep the visitor in place (Research) read this one flag to say why they now show the guest view.
   */
  sessionExpired: boolean;
  /** Store a new token (after login); the profile is then loaded. */
  login: (token: string) => void;
  /** Revoke the token on the server (best effort) and forget it here. */
  logout: () => void;
  /** Reload the profile, e.g. after the user edits it. */
  refreshProfile: () => Promise<void>;
  setProfile: (profile: Profile) => void;
  canOpen: (visibility: Visibility) => boolean;
  exploreVisibilities: () => Visibility[];
}

const SessionContext = createContext<Session | null>(null);

export interface SessionProviderProps {
  children: ReactNode;
  /**
   * Called once when a 401 ends the session (not on logout): the shell decides there where the visitor goes
   * (SPEC §8: to /login, except screens that say so in place). The latest one is called, so it may change
   * with every render (the current path) without re-subscribing the token listeners.
   */
  onExpired?: () => void;
}

export function SessionProvider({ children, onExpired }: SessionProviderProps) {
  const [token, setToken] = useState<string | null>(() => readToken());
  const [profile, setProfileState] = useState<Profile | null>(null);
  const [profileStatus, setProfileStatus] = useState<ProfileStatus>('none');
  const [sessionExpired, setSessionExpired] = useState(false);
  const onExpiredRef = useRef(onExpired);
  onExpiredRef.current = onExpired;

  // Follow the token wherever it changes: this tab (login, logout, a 401 in any remote) or another tab.
  useEffect(() => {
    const sync = (event?: Event) => {
      const detail = (event as CustomEvent<TokenChangedDetail> | undefined)?.detail;
      const next = readToken();
      setToken(next);
      if (next) setSessionExpired(false);
      else if (detail?.reason === 'expired') {
        setSessionExpired(true);
        onExpiredRef.current?.();
      } else if (detail) setSessionExpired(false);
    };
    const onStorage = (event: StorageEvent) => {
      if (event.key === TOKEN_KEY || event.key === null) sync();
    };
    window.addEventListener(TOKEN_CHANGED_EVENT, sync);
    window.addEventListener('storage', onStorage);
    return () => {
      window.removeEventListener(TOKEN_CHANGED_EVENT, sync);
      window.removeEventListener('storage', onStorage);
    };
  }, []);

  const loadProfile = useCallback(async (signal?: AbortSignal) => {
    setProfileStatus('loading');
    try {
      // A 401 here ends the session like any other (api-client), and onExpired follows.
      const loaded = await api.get(API_PATHS.profile, ProfileSchema, { signal });
      setProfileState(loaded);
      setProfileStatus('loaded');
    } catch {
      if (signal?.aborted) return;
      setProfileStatus('error');
    }
  }, []);

  useEffect(() => {
    if (!token) {
      setProfileState(null);
      setProfileStatus('none');
      return;
    }
    const controller = new AbortController();
    void loadProfile(controller.signal);
    return () => controller.abort();
  }, [token, loadProfile]);

  const login = useCallback((next: string) => writeToken(next), []);
  const logout = useCallback(() => {
    const current = readToken();
    // The header is set here because the token is forgotten below, before the request goes out.
    if (current) {
      const headers = { Authorization: `Bearer ${current}` };
      // Its answer comes after the token is gone, so even a 401 (already revoked) ends nothing more.
      void api.post(API_PATHS.logout, {}, null, { headers }).catch(() => undefined);
    }
    writeToken(null);
  }, []);
  const refreshProfile = useCallback(() => loadProfile(), [loadProfile]);
  const setProfile = useCallback((next: Profile) => {
    setProfileState(next);
    setProfileStatus('loaded');
  }, []);

  const value = useMemo<Session>(() => {
    const roles: Roles = token ? (profile?.roles ?? []) : null;
    // SPEC §6: Explore adds tiers only "for a logged-in user with a profile".
    const exploreRoles: Roles = token && profile ? profile.roles : null;
    return {
      token,
      isLoggedIn: token !== null,
      profile,
      profileStatus,
      roles,
      tier: tierOf(roles),
      tierLabel: tierLabel(roles),
      sessionExpired,
      login,
      logout,
      refreshProfile,
      setProfile,
      canOpen: (visibility) => canOpen(visibility, roles),
      exploreVisibilities: () => exploreVisibilities(exploreRoles),
    };
  }, [token, profile, profileStatus, sessionExpired, login, logout, refreshProfile, setProfile]);

  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session)
    throw new Error('useSession must be used inside <SessionProvider> (the shell or a dev frame).');
  return session;
}

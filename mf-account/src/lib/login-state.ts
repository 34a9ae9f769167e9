/**
 * The router state that travels with a redirect to /login: the shell's guard sends
 * `{ notice: MESSAGES.profile.loginRequired, from }`, and Profile sends the session-expired text the same way.
 */
export interface LoginRedirectState {
  notice: string;
  from?: string;
}

export function loginState(notice: string, from?: string): LoginRedirectState {
  return from ? { notice, from } : { notice };
}

/** The notice to show on the Login page, if the state carries one. */
export function readNotice(state: unknown): string | null {
  if (typeof state !== 'object' || state === null || !('notice' in state)) return null;
  const { notice } = state as { notice: unknown };
  return typeof notice === 'string' && notice.trim() !== '' ? notice : null;
}

/**
 * A notice for the next Login page of this remote, kept outside the router. Needed because a 401 clears the
 * token before Profile can navigate: the shell's /profile guard then redirects to /login with its own
 * 'Please log in' state, and router navigations are transitions, so whichever redirect lands last would win.
 * The Login page prefers this notice and forgets it once shown.
 */
let pendingNotice: string | null = null;

export function setPendingNotice(notice: string | null): void {
  pendingNotice = notice;
}

export function peekPendingNotice(): string | null {
  return pendingNotice;
}

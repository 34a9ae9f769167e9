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

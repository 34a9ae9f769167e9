import { TOKEN_KEY } from '@app/contracts';

/** The session token lives in localStorage under TOKEN_KEY (SPEC §3). This is the only code that writes it. */
export { TOKEN_KEY };
/** Fired on window whenever the token is set or cleared in this tab. */
export const TOKEN_CHANGED_EVENT = 'app:token-changed';

export function readToken(): string | null {
  try {
    return window.localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

/** Why the token changed: a login or logout by the user, or a 401 from the server (session expired). */
export type TokenChangeReason = 'user' | 'expired';
export interface TokenChangedDetail {
  token: string | null;
  reason: TokenChangeReason;
}

export function writeToken(token: string | null, reason: TokenChangeReason = 'user'): void {
  try {
    if (token) window.localStorage.setItem(TOKEN_KEY, token);
    else window.localStorage.removeItem(TOKEN_KEY);
  } catch {
    // Storage can be unavailable (private mode, quota); the session then lasts for this page only.
  }
  window.dispatchEvent(
    new CustomEvent(TOKEN_CHANGED_EVENT, { detail: { token, reason } satisfies TokenChangedDetail }),
  );
}

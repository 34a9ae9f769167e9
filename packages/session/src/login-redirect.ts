import { MESSAGES } from '@app/contracts';

/**
 * Why the visitor was sent to /login. The shell sends one with every redirect it makes (the /profile guard,
 * the end of an expired session); the Login page (mf-account) shows its text. A typed contract between the
 * shell and a remote that deploy separately: a kind, not a sentence, so each side can be checked.
 */
export const LOGIN_NOTICES = ['login-required', 'session-expired', 'password-reset'] as const;
export type LoginNotice = (typeof LOGIN_NOTICES)[number];

/** The router state of a redirect to /login. */
export interface LoginRedirect {
  notice: LoginNotice;
}

/** SPEC §8 Profile: the texts of the reasons (/profile is the only page that requires a login), and a completed reset. */
export const LOGIN_NOTICE_TEXT: Readonly<Record<LoginNotice, string>> = {
  'login-required': MESSAGES.profile.loginRequired,
  'session-expired': MESSAGES.profile.sessionExpired,
  // Issue 34: mf-account's Reset password sends the member here once every session has ended.
  'password-reset': MESSAGES.passwordReset.done,
};

export function loginRedirect(notice: LoginNotice): LoginRedirect {
  return { notice };
}

const isLoginNotice = (value: unknown): value is LoginNotice =>
  (LOGIN_NOTICES as readonly unknown[]).includes(value);

/**
 * The notice a /login visit carries, or null (none, or state from something else: a reload, a bookmark).
 * Checked by hand, not with valibot: the shell's first screen would carry a validator for one membership test.
 */
export function readLoginNotice(state: unknown): LoginNotice | null {
  const notice = typeof state === 'object' && state !== null ? (state as { notice?: unknown }).notice : null;
  return isLoginNotice(notice) ? notice : null;
}

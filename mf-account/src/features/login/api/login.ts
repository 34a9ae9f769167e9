import { ApiError, api, errorMessage } from '@app/api-client';
import { API_PATHS, LOGIN_DEVICE_KEY, LoginResponseSchema, MESSAGES } from '@app/contracts';

/**
 * Issue 46: this browser's device token, kept between logins. An account's lockout does not hold back a
 * browser that has logged in to it before, so a stranger failing on purpose cannot lock its owner out.
 * Storage may be unavailable (a private window's quota): the login then works as a new browser's.
 */
function readDevice(): string | undefined {
  try {
    return localStorage.getItem(LOGIN_DEVICE_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

function keepDevice(device: string | undefined): void {
  if (!device) return;
  try {
    localStorage.setItem(LOGIN_DEVICE_KEY, device);
  } catch {
    // Not kept: the next login is a new browser's, nothing else changes.
  }
}

/**
 * POST /api/login: the username field carries the email (SPEC §7); `code` is the authenticator's code (or a
 * recovery code) when the account asked for one.
 */
export async function requestLogin(email: string, password: string, code?: string): Promise<string> {
  // No token is sent with a login, so a 401 here means wrong credentials, never an expired session.
  const body = { username: email, password, device: readDevice(), ...(code ? { code } : {}) };
  const { token, device } = await api.post(API_PATHS.login, body, LoginResponseSchema);
  keepDevice(device);
  return token;
}

/** The account has a second factor: the form asks for its code (issue 46). */
export const needsCode = (error: unknown): boolean =>
  error instanceof ApiError && error.status === 401 && error.body?.twoFactorRequired === true;

const L = MESSAGES.login;

/** The login error catalogue of SPEC §8, checked in this order. */
export function loginErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    const serverText = `${error.body?.error ?? ''} ${error.body?.message ?? ''}`;
    if (error.status === 403 && /disabled/i.test(serverText)) return L.inactive;
    if (error.status === 423) return L.locked;
    // Issue 46: the code step's own words (asked for, or not correct).
    if (needsCode(error)) return error.body?.error || MESSAGES.twoFactor.codeRequired;
    if (error.status === 401) return L.invalid;
  }
  return errorMessage(error, L.failed);
}

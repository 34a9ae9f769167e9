import { ApiError, api, errorMessage } from '@app/api-client';
import { API_PATHS, LoginResponseSchema, MESSAGES } from '@app/contracts';

/** POST /api/login: the username field carries the email (SPEC §7). */
export async function requestLogin(email: string, password: string): Promise<string> {
  // No token is sent with a login, so a 401 here means wrong credentials, never an expired session.
  const { token } = await api.post(API_PATHS.login, { username: email, password }, LoginResponseSchema);
  return token;
}

const L = MESSAGES.login;

/** The login error catalogue of SPEC §8, checked in this order. */
export function loginErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    const serverText = `${error.body?.error ?? ''} ${error.body?.message ?? ''}`;
    if (error.status === 403 && /disabled/i.test(serverText)) return L.inactive;
    if (error.status === 423) return L.locked;
    if (error.status === 401) return L.invalid;
  }
  return errorMessage(error, L.failed);
}

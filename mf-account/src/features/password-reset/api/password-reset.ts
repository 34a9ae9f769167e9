import { ApiError, api, errorMessage } from '@app/api-client';
import { API_PATHS, MESSAGES, MessageResponseSchema } from '@app/contracts';

/** POST /api/auth/forgot-password: the same answer whether or not the address has an account (issue 34). */
export async function requestResetLink(email: string): Promise<void> {
  await api.post(API_PATHS.forgotPassword, { email }, MessageResponseSchema);
}

/** POST /api/auth/reset-password: sets the password; every session of the account ends. */
export async function resetPassword(token: string, password: string): Promise<void> {
  await api.post(API_PATHS.resetPassword, { token, password }, MessageResponseSchema);
}

export type ResetFailure = { field: 'password' | 'token' | null; message: string };

/** A field error for the password or the token when the API names one; otherwise its error (or ours). */
export function resetFailure(error: unknown): ResetFailure {
  const body = error instanceof ApiError ? error.body : null;
  if (typeof body?.password === 'string' && body.password)
    return { field: 'password', message: body.password };
  if (typeof body?.token === 'string' && body.token) return { field: 'token', message: body.token };
  return { field: null, message: errorMessage(error, MESSAGES.passwordReset.failed) };
}

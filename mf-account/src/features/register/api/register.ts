import { ApiError, api } from '@app/api-client';
import {
  API_PATHS,
  MESSAGES,
  type RegistrationPayload,
  type RegistrationResponse,
  RegistrationResponseSchema,
} from '@app/contracts';

/** POST /api/register, no auth (SPEC §7). */
export function requestRegistration(payload: RegistrationPayload): Promise<RegistrationResponse> {
  return api.post(API_PATHS.register, payload, RegistrationResponseSchema);
}

/** The field keys the API may answer with (SPEC §8), which are also the form's field names. */
export const SERVER_FIELD_KEYS = ['username', 'email', 'password'] as const;

export type RegistrationFailure =
  | { kind: 'fields'; fields: Partial<Record<(typeof SERVER_FIELD_KEYS)[number], string>> }
  | { kind: 'general'; message: string };

/**
 * SPEC §8 registration failure: a body with username, email or password keys gives field errors; otherwise
 * a general message from its error (or 'Registration failed'); no usable body gives the retry message.
 */
export function registrationFailure(error: unknown): RegistrationFailure {
  const body = error instanceof ApiError ? error.body : null;
  if (!body) return { kind: 'general', message: MESSAGES.register.failedRetry };
  const fields: Partial<Record<(typeof SERVER_FIELD_KEYS)[number], string>> = {};
  for (const key of SERVER_FIELD_KEYS) {
    const value = body[key];
    if (typeof value === 'string' && value.trim() !== '') fields[key] = value;
  }
  if (Object.keys(fields).length > 0) return { kind: 'fields', fields };
  const message = body.error?.trim() ? body.error : MESSAGES.register.failed;
  return { kind: 'general', message };
}

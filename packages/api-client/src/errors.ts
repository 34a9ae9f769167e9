import { type ApiErrorBody, ApiErrorBodySchema, MESSAGES } from '@app/contracts';
import * as v from 'valibot';

/** Every failed call becomes an ApiError: status 0 means no HTTP answer (network error, timeout). */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    message: string,
    readonly status: number,
    readonly body: ApiErrorBody | null,
  ) {
    super(message);
  }
}

export function parseErrorBody(raw: unknown): ApiErrorBody | null {
  const parsed = v.safeParse(ApiErrorBodySchema, raw);
  return parsed.success ? parsed.output : null;
}

const nonEmpty = (s: unknown): s is string => typeof s === 'string' && s.trim() !== '';

/**
 * The message rule of SPEC §8, in one place: the server's `error`, then its `message`, then (when the
 * screen names one) the screen's own fallback, then the error's own message, then 'An error occurred'.
 */
export function errorMessage(error: unknown, fallback?: string): string {
  const body = error instanceof ApiError ? error.body : null;
  if (nonEmpty(body?.error)) return body.error;
  if (nonEmpty(body?.message)) return body.message;
  if (fallback) return fallback;
  if (error instanceof Error && nonEmpty(error.message)) return error.message;
  return MESSAGES.general.fallback;
}

export const isStatus = (error: unknown, status: number): boolean =>
  error instanceof ApiError && error.status === status;

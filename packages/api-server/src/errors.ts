import { fieldErrors } from '@app/contracts';
import * as v from 'valibot';

/** An expected failure with its HTTP status and JSON body. Anything else thrown becomes a logged 500. */
export class HttpError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 422 | 423 | 429,
    message: string,
    readonly extra: Record<string, string> = {},
  ) {
    super(message);
  }
  body(): Record<string, string> {
    return { error: this.message, ...this.extra };
  }
}

export const notFound = (what = 'Not found') => new HttpError(404, what);
export const forbidden = (why = 'Forbidden') => new HttpError(403, why);
export const unauthorized = (why = 'Authentication required') => new HttpError(401, why);

/** Validate with a contracts schema; a failure is a 400 with the first message overall and per field. */
export function parseWith<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, input);
  if (result.success) return result.output;
  const fields = fieldErrors(result.issues);
  const first = result.issues[0]?.message ?? 'Invalid request';
  const extra: Record<string, string> = {};
  for (const [key, message] of Object.entries(fields)) {
    if (key !== '' && key !== 'error') extra[key] = message;
  }
  throw new HttpError(400, first, extra);
}

/** A UNIQUE constraint refused the write: SQLite's SQLITE_CONSTRAINT_UNIQUE, PostgreSQL's 23505. */
export function isUniqueViolation(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}

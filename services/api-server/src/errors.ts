import { fieldErrors } from '@app/contracts';
import * as v from 'valibot';

/** An expected failure with its HTTP status and JSON body. Anything else thrown becomes a logged 500. */
export class HttpError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 422 | 423 | 429,
    message: string,
    /** More of the body: per-field messages (strings), or a flag the client acts on (issue 46's `stepUpRequired`). */
    readonly extra: Record<string, string | boolean> = {},
  ) {
    super(message);
  }
  body(): Record<string, unknown> {
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

/** The answer while the database cannot be reached: a retry soon will do, the request was not wrong. */
export const DATABASE_UNAVAILABLE = 'The service is briefly unavailable. Please try again in a moment.';
/** Seconds a client is told to wait (Retry-After) while the database is away or the instance drains. */
export const DATABASE_RETRY_AFTER_S = 2;

// Errors that say the database is not there (stopped, restarting, unreachable, too slow), not that the
// query was wrong: sockets refused or reset, PostgreSQL's admin_shutdown (57P01), crash_shutdown (57P02),
// cannot_connect_now (57P03), too_many_connections (53300), statement_timeout (57014), the connection
// exceptions (class 08), and SQLite's lock wait running out.
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '57014',
]);
// pg's own errors carry no code: a pool that could not connect in time, a connection that ended under a
// query, a client-side query_timeout, a client that had already failed.
const UNAVAILABLE_MESSAGES =
  /timeout exceeded when trying to connect|Connection terminated|Query read timeout|not queryable|connection timeout/i;

/** True when `err` (or what it wraps) means the database cannot answer now: the caller gets a 503. */
export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (!(err instanceof Error) || depth > 3) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || /^(08[0-9A-Z]{3}$|SQLITE_BUSY)/.test(code)))
    return true;
  if (UNAVAILABLE_MESSAGES.test(err.message)) return true;
  // Node's connect to several addresses fails with an AggregateError of each attempt's error.
  const inner = err instanceof AggregateError ? err.errors : [];
  return [err.cause, ...inner].some((e) => isDatabaseUnavailable(e, depth + 1));
}

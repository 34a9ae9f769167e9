import { API_PATHS } from '@app/contracts';
import { writeLogLine } from '@app/server-telemetry/log';
import type { Config } from '../config';
import { DATABASE_RETRY_AFTER_S, DATABASE_UNAVAILABLE, HttpError, isDatabaseUnavailable } from '../errors';
import { type Caller, MSG } from '../services/accounts';

/**
 * What every request goes through whichever way it is served: the hono app (app.ts) or the list lane
 * (src/http-list-lane.ts). One place each for who the caller is, what an error answers and the log line.
 */

/** Paths whose bearer is not a session: health reports and edges' render figures carry none, the deploy API's is a deploy token. */
export const sessionlessPath = (path: string) =>
  path === API_PATHS.rolloutHealth ||
  path === API_PATHS.rolloutRenders ||
  path.startsWith('/api/deploy/') ||
  path.startsWith('/api/deployment/');

/**
 * The session token an Authorization header carries: null without a header (a guest). A header that is
 * not a bearer token of ours is answered as a stale session is (401, the same message).
 */
export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match?.[1] || match[1].length > 200) throw new HttpError(401, MSG.sessionInvalid);
  return match[1];
}

/**
 * The caller a token's session belongs to. A token that is sent but no longer valid is a 401 on every route,
 * so the client clears it (SPEC §8) instead of silently browsing as a guest. Used as
 * `sessionCaller(await accounts.authenticate(token))`: one turn of the event loop per request, not two.
 */
export function sessionCaller(who: Caller | null): Caller {
  if (!who) throw new HttpError(401, MSG.sessionInvalid);
  return who;
}

export interface ErrorAnswer {
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, string>;
}

/** A JSON line on stdout (with the request's trace when traces are on), or nothing at LOG_LEVEL=silent. */
export type LogLine = ((line: object) => void) | null;

export function logLine(config: Pick<Config, 'logLevel'>): LogLine {
  return config.logLevel === 'silent' ? null : (line) => writeLogLine(line);
}

/**
 * What a thrown error answers. An HttpError is its status and body. The database being away (PostgreSQL
 * restarting, a failover) is a 503 the client may retry, not a 500 with a stack: one short line, since there
 * will be one per request until it is back. Anything else is a logged 500 without details.
 */
export function errorAnswer(
  err: unknown,
  request: { method: string; path: string },
  config: Pick<Config, 'logLevel'>,
  now: () => number,
): ErrorAnswer {
  if (err instanceof HttpError) return { status: err.status, body: err.body(), headers: {} };
  const logs = config.logLevel !== 'silent';
  if (isDatabaseUnavailable(err)) {
    if (logs) {
      writeLogLine(
        { level: 'warn', time: isoTime(now), ...request, msg: 'database unavailable', error: String(err) },
        'stderr',
      );
    }
    return {
      status: 503,
      body: { error: DATABASE_UNAVAILABLE },
      headers: { 'Retry-After': String(DATABASE_RETRY_AFTER_S) },
    };
  }
  if (logs) {
    writeLogLine(
      {
        level: 'error',
        time: isoTime(now),
        ...request,
        error: String(err),
        stack: err instanceof Error ? err.stack : undefined,
      },
      'stderr',
    );
  }
  return { status: 500, body: { error: 'Internal server error' }, headers: {} };
}

/** A log line's time on the server's clock (ctx.now). */
export const isoTime = (now: () => number) => new Date(now()).toISOString();

/** The access line written per request at LOG_LEVEL=info; `started` is performance.now() at its start. */
export const accessLine = (time: string, method: string, path: string, status: number, started: number) => ({
  level: 'info',
  time,
  method,
  path,
  status,
  ms: Math.round((performance.now() - started) * 10) / 10,
});

// Liveness and readiness, separately (docs/decisions/0028-process-lifecycle.md).
// - live: the event loop answers. Never touches the database: a supervisor that restarts on a failed
//   liveness check must not restart every instance because PostgreSQL is restarting.
// - ready: this instance can serve now: the database answers a trivial query within READY_QUERY_MS and the
//   instance is not draining. The runner and a load balancer send traffic only to ready instances.
import { API_PATHS } from '@app/contracts';
import type { Lifecycle } from '@app/http-lifecycle';
import type { Hono } from 'hono';
import type { Sql } from '../db/sql';
import { DATABASE_RETRY_AFTER_S, DATABASE_UNAVAILABLE } from '../errors';
import type { Env } from './http-helpers';

/** The longest readiness waits for `SELECT 1`: a check that hangs tells a balancer nothing. */
const READY_QUERY_MS = 1000;
export const DRAINING_MESSAGE = 'This instance is shutting down. Please try again.';

/** Resolves true when the database answered in time, false when it failed or did not answer. */
async function databaseAnswers(sql: Sql): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), READY_QUERY_MS);
  });
  try {
    return await Promise.race([sql.value<number>('SELECT 1').then(() => true), late]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

export function registerHealthRoutes(app: Hono<Env>, sql: Sql, lifecycle: Lifecycle): void {
  const ok = { status: 'ok' } as const;
  app.get(API_PATHS.healthLive, (c) => c.json(ok));
  app.get(API_PATHS.healthReady, async (c) => {
    c.header('Cache-Control', 'no-store');
    if (lifecycle.draining) {
      c.header('Retry-After', String(DATABASE_RETRY_AFTER_S));
      return c.json({ error: DRAINING_MESSAGE }, 503);
    }
    if (!(await databaseAnswers(sql))) {
      c.header('Retry-After', String(DATABASE_RETRY_AFTER_S));
      return c.json({ error: DATABASE_UNAVAILABLE }, 503);
    }
    return c.json(ok);
  });
}

import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { Sql } from './sql';

// BIGINT (ids, millisecond times, COUNT and SUM) and NUMERIC come back as JavaScript numbers, as SQLite
// gives them: every value we store fits in 2^53. pg's default is a string, to be safe with larger ones.
pg.types.setTypeParser(pg.types.builtins.INT8, (text) => Number(text));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (text) => Number(text));

/** How many connections one API instance keeps to PostgreSQL: the server does the work, not this process. */
const POOL_SIZE = 10;

/**
 * Bounds that make a missing database an error instead of a wait (docs/decisions/0028-process-lifecycle.md):
 * a connection must be made (or a pooled one freed) within CONNECT_MS; the server cancels a statement after
 * STATEMENT_MS (nginx's read timeout is 15 s: an answer after it reaches nobody; migrations lift it for their
 * own transaction); the client gives up on an answer after QUERY_MS, for a server that is gone without
 * closing the socket (a partition, a frozen host), long enough for any migration statement we have. Each of
 * these errors is answered 503 with Retry-After (errors.ts isDatabaseUnavailable).
 */
const CONNECT_MS = 2000;
const STATEMENT_MS = 15_000;
const QUERY_MS = 60_000;

/** PostgreSQL behind `Sql` (DATABASE_URL=postgres://…): Kysely's dialect over a pg connection pool. */
export function openPostgres(url: string, poolSize = POOL_SIZE): Sql {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: CONNECT_MS,
    statement_timeout: STATEMENT_MS,
    query_timeout: QUERY_MS,
    keepAlive: true,
  });
  // A connection the server drops (a restart, a failover, a shutdown) must not crash the process: the pool
  // discards an idle one and makes a new one for the next query; a query on a busy one fails with its own
  // error, answered 503. Nothing is retried here: the client decides (Retry-After).
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  return new Sql('postgres', new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) }), null);
}

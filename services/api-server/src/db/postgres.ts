import { createHash } from 'node:crypto';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { Sql } from './sql';

// BIGINT (ids, millisecond times, COUNT and SUM) and NUMERIC come back as JavaScript numbers, as SQLite
// gives them: every value we store fits in 2^53. pg's default is a string, to be safe with larger ones.
pg.types.setTypeParser(pg.types.builtins.INT8, (text) => Number(text));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (text) => Number(text));

// PostgreSQL's own types (migration 28, docs/decisions/0046-postgresql-native-types.md) read as SQLite's rows
// hold the same values, so the services read one shape from both engines: a boolean as 1 or 0, a timestamptz
// as the ISO text the API writes (`toISOString()`, UTC with milliseconds), a jsonb document as its JSON text
// (the services parse and validate what they read, as they do SQLite's TEXT).
const parseTimestamptz = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ, 'text');
pg.types.setTypeParser(pg.types.builtins.BOOL, (text) => (text === 't' ? 1 : 0));
pg.types.setTypeParser(pg.types.builtins.TIMESTAMPTZ, (text) =>
  (parseTimestamptz(text) as Date).toISOString(),
);
pg.types.setTypeParser(pg.types.builtins.JSONB, (text) => text);

/** How many connections one API instance keeps to PostgreSQL: the server does the work, not this process. */
const POOL_SIZE = 10;

/**
 * Bounds that make a missing database an error instead of a wait (docs/decisions/0028-process-lifecycle.md):
 * a new connection must be made within CONNECT_MS (a database that is down answers 503 in about that
 * time); a request waits at most QUEUE_MS for a pooled connection to come free (a burst of writes queues
 * for the pool's connections rather than failing: when every write took one global lock, 60 concurrent
 * post writes on a slow CI machine waited past 2 s and 10 of them got 503; QUEUE_MS stays under nginx's
 * 15 s read timeout with room for the statement itself); the server cancels a statement after
 * STATEMENT_MS (nginx's read timeout is 15 s: an answer after it reaches nobody; migrations lift it for their
 * own transaction); the client gives up on an answer after QUERY_MS, for a server that is gone without
 * closing the socket (a partition, a frozen host), long enough for any migration statement we have. Each of
 * these errors is answered 503 with Retry-After (errors.ts isDatabaseUnavailable).
 */
const CONNECT_MS = 2000;
const QUEUE_MS = 8000;
const STATEMENT_MS = 15_000;
const QUERY_MS = 60_000;

/** Statement names by text: the texts are our constants and shapes, a bounded set (as SQLite's cache). */
const statementNames = new Map<string, string>();
const statementName = (text: string) => {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `q${createHash('sha256').update(text).digest('base64url').slice(0, 24)}`;
    statementNames.set(text, name);
  }
  return name;
};

/**
 * A pg client that runs every statement with parameters as a prepared statement named by its text, so
 * PostgreSQL parses and analyses it once per connection rather than on every execution (pg sends Parse
 * only the first time a connection sees the name; plans stay per execution: `plan_cache_mode` below).
 * Kysely calls `query(text, values)`; the rest (transaction control, migrations' scripts, statements
 * without parameters) goes on as it came. Issue 36: Explore's page and the session's lookup were parsed
 * and analysed again for each of thousands of requests a second.
 *
 * A restore replaces the tables under a running server (src/db/backup-postgres.ts, or the CLI from another
 * process): a statement prepared before it may then be refused with "cached plan must not change result
 * type". The client then prepares it again under a new name (the old one goes with the connection) and runs
 * it once more; inside a transaction the retry cannot help (the transaction is already aborted), so the
 * first error is the one that counts.
 */
class PreparingClient extends pg.Client {
  /** Bumped when a plan went stale: every statement of this connection is prepared afresh. */
  private generation = 0;

  /** The pool's connectionTimeoutMillis is its queue wait (QUEUE_MS); making a connection has its own bound. */
  constructor(config: pg.ClientConfig = {}) {
    super({ ...config, connectionTimeoutMillis: CONNECT_MS });
  }

  override query(...args: unknown[]): never {
    const [text, values] = args;
    const query = super.query as (...a: unknown[]) => never;
    if (typeof text !== 'string' || !Array.isArray(values) || values.length === 0 || args.length > 2) {
      return query.apply(this, args);
    }
    const run = () =>
      query.call(this, {
        name: `${statementName(text)}_${this.generation}`,
        text,
        values,
      }) as Promise<unknown>;
    return run().catch((error: unknown) => {
      if (!isStalePlan(error)) throw error;
      this.generation += 1;
      return run().catch(() => {
        throw error;
      });
    }) as never;
  }
}

/** PostgreSQL's refusal to run a prepared statement whose result columns changed (SQLSTATE 0A000). */
const isStalePlan = (error: unknown) =>
  (error as { code?: string }).code === '0A000' &&
  /cached plan must not change result type/.test((error as Error).message);

/** A pool's connections as /metrics shows them (src/metrics.ts). */
export interface PoolStats {
  /** Connections open (at most `max`), and of those the ones idle. */
  total: number;
  idle: number;
  /** Queries waiting for a connection to come free (each waits at most QUEUE_MS, then a 503). */
  waiting: number;
  max: number;
}

/** Each PostgreSQL `Sql`'s pool, for `poolStats` (Kysely keeps it out of sight). */
const pools = new WeakMap<Sql, { pool: pg.Pool; max: number }>();

/** The pool behind a PostgreSQL `Sql` now; null for SQLite (one connection, no pool). */
export function poolStats(sql: Sql): PoolStats | null {
  const held = pools.get(sql);
  if (!held) return null;
  const { pool, max } = held;
  return { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max };
}

/** PostgreSQL behind `Sql` (DATABASE_URL=postgres://…): Kysely's dialect over a pg connection pool. */
export function openPostgres(url: string, poolSize = POOL_SIZE): Sql {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    idleTimeoutMillis: 30_000,
    // How long a request waits for a pooled connection; a new connection's own bound is the Client's.
    connectionTimeoutMillis: QUEUE_MS,
    statement_timeout: STATEMENT_MS,
    query_timeout: QUERY_MS,
    keepAlive: true,
    // Prepared statements save parsing and analysis; the plan is still made for each execution's values.
    // PostgreSQL's default switches a statement to a generic plan after five runs, and under the benchmark's
    // mixed load (lists, reads, searches for different words, writes) one of those generic plans held
    // connections long enough to exhaust the pool: 356-394 req/s with 22-39 answers 503 after CONNECT_MS,
    // against 558-582 and none unprepared, 576 and none with custom plans (decision 0035).
    options: '-c plan_cache_mode=force_custom_plan',
    Client: PreparingClient,
  });
  // A connection the server drops (a restart, a failover, a shutdown) must not crash the process: the pool
  // discards an idle one and makes a new one for the next query; a query on a busy one fails with its own
  // error, answered 503. Nothing is retried here: the client decides (Retry-After).
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const sql = new Sql('postgres', new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) }), null);
  pools.set(sql, { pool, max: poolSize });
  return sql;
}

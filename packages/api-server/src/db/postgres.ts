import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { Sql } from './sql';

// BIGINT (ids, millisecond times, COUNT and SUM) and NUMERIC come back as JavaScript numbers, as SQLite
// gives them: every value we store fits in 2^53. pg's default is a string, to be safe with larger ones.
pg.types.setTypeParser(pg.types.builtins.INT8, (text) => Number(text));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (text) => Number(text));

/** How many connections one API instance keeps to PostgreSQL: the server does the work, not this process. */
const POOL_SIZE = 10;

/** PostgreSQL behind `Sql` (DATABASE_URL=postgres://…): Kysely's dialect over a pg connection pool. */
export function openPostgres(url: string, poolSize = POOL_SIZE): Sql {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, idleTimeoutMillis: 30_000 });
  // A connection the server drops (a restart, a failover, a shutdown) must not crash the process: an idle
  // one is replaced on the next query, and a query on a busy one fails with its own error, answered 500.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  return new Sql('postgres', new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) }), null);
}

import os from 'node:os';
import path from 'node:path';
import { startLocalPostgres } from '@app/local-postgres';

/**
 * Global setup of the API suite. With TEST_DATABASE=postgres (`pnpm test:postgres`) it starts a throwaway
 * PostgreSQL server for the run (@app/local-postgres, testing/local-postgres); every test server then gets a fresh
 * database on it (test/helpers.ts tempDatabase). Without it, the suite runs on SQLite files.
 */
export default function setup() {
  if (process.env.TEST_DATABASE !== 'postgres') return undefined;
  const port = Number(process.env.TEST_POSTGRES_PORT ?? 55432);
  const pg = startLocalPostgres({
    dir: path.join(os.tmpdir(), `api-test-postgres-${port}`),
    port,
    fast: true,
  });
  process.env.TEST_POSTGRES_URL = pg.url('postgres');
  process.env.TEST_POSTGRES_PSQL = path.join(pg.bin, 'psql');
  return () => pg.stop();
}

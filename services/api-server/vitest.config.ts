import { defineConfig } from 'vitest/config';

/**
 * The API suite runs on SQLite (`pnpm test`) and on PostgreSQL (`pnpm test:postgres`: TEST_DATABASE=postgres).
 * On PostgreSQL, the files about SQLite's own machinery are left out: its online backup, the search workers'
 * read-only connections and its query plans. Only on PostgreSQL: its
 * backups, search compared with SQLite's on the same content, its outage behaviour, its prepared statements
 * and the conversion of a database of schema 27 to its own types (migration 28).
 */
const SQLITE_ONLY = [
  'test/backup.test.ts',
  'test/backup-cli.test.ts',
  'test/read-pool.test.ts',
  'test/query-plans.test.ts',
];
const POSTGRES_ONLY = [
  'test/backup-postgres.test.ts',
  'test/search-parity.test.ts',
  'test/postgres-outage.test.ts',
  'test/postgres-prepared.test.ts',
  'test/postgres-native.test.ts',
];
const onPostgres = process.env.TEST_DATABASE === 'postgres';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    exclude: ['**/node_modules/**', ...(onPostgres ? SQLITE_ONLY : POSTGRES_ONLY)],
    globalSetup: ['test/postgres-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});

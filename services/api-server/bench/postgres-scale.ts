/** The 100,000-post database on PostgreSQL for the benchmark and the profile (issue 36). */
import path from 'node:path';
import type { BenchDatabase } from './run';
import { seedScalePostgres } from './seed-postgres';
import type { ScaleOptions } from './seed-scale';

/**
 * A PostgreSQL server of our own (Debian's programs, scripts/pg/local-postgres.mjs) in `dir`, on
 * BENCH_POSTGRES_PORT (default 55470), with a database seeded with seed-scale's rows.
 */
export async function postgresScale(
  dir: string,
  scale: ScaleOptions,
): Promise<{ db: BenchDatabase; stop: () => void }> {
  // @ts-expect-error: a plain ES module of the workspace's scripts, without types
  const { startLocalPostgres } = await import('../../../scripts/pg/local-postgres.mjs');
  const server = startLocalPostgres({
    dir: path.join(dir, 'postgres'),
    port: Number(process.env.BENCH_POSTGRES_PORT ?? 55470),
  }) as { createDatabase(name: string): string; stop(): void };
  const url = server.createDatabase('bench_scale');
  const seeded = Date.now();
  await seedScalePostgres(url, scale, 'not-a-login-hash');
  console.log(`seeded PostgreSQL in ${((Date.now() - seeded) / 1000).toFixed(1)} s`);
  return { db: { name: 'postgres', dbPath: path.join(dir, 'unused.db'), url }, stop: () => server.stop() };
}

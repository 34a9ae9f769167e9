/** The 100,000-post database on PostgreSQL for the benchmark and the profile (issue 36). */
import path from 'node:path';
import { startLocalPostgres } from '@app/local-postgres';
import type { BenchDatabase } from './run';
import { seedScalePostgres } from './seed-postgres';
import type { ScaleOptions } from './seed-scale';

/**
 * A PostgreSQL server of our own (Debian's programs, @app/local-postgres) in `dir`, on
 * BENCH_POSTGRES_PORT (default 55470), with a database seeded with seed-scale's rows.
 */
export async function postgresScale(
  dir: string,
  scale: ScaleOptions,
): Promise<{ db: BenchDatabase; stop: () => void }> {
  const server = startLocalPostgres({
    dir: path.join(dir, 'postgres'),
    port: Number(process.env.BENCH_POSTGRES_PORT ?? 55470),
  });
  const url = server.createDatabase('bench_scale');
  const seeded = Date.now();
  await seedScalePostgres(url, scale, 'not-a-login-hash');
  console.log(`seeded PostgreSQL in ${((Date.now() - seeded) / 1000).toFixed(1)} s`);
  return { db: { name: 'postgres', dbPath: path.join(dir, 'unused.db'), url }, stop: () => server.stop() };
}

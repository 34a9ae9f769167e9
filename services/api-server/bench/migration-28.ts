/**
 * What migration 28 (PostgreSQL's own types, docs/decisions/0046-postgresql-native-types.md) costs on a
 * database of the benchmark's scale: the 100,000 posts and 10,000 users of seed-scale.ts written at schema
 * 27, then the conversion timed while a reader asks for a post's card every 20 ms on its own connection and
 * notes how long its longest wait was (the conversion holds each table it rewrites). `pnpm bench:api
 * --migration-28`; a PostgreSQL server of its own on BENCH_POSTGRES_PORT (default 55470).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startLocalPostgres } from '@app/local-postgres';
import pg from 'pg';
import { migrate } from '../src/db/database';
import { MIGRATIONS } from '../src/db/migrations';
import { openPostgres } from '../src/db/postgres';
import { seedScalePostgres } from './seed-postgres';

const SCALE = { posts: 100_000, users: 10_000 };
const READ_EVERY_MS = 20;

export async function benchMigration28(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'api-bench-28-'));
  fs.chmodSync(dir, 0o755); // PostgreSQL's server runs as its own user and keeps its data in here
  const server = startLocalPostgres({
    dir: path.join(dir, 'postgres'),
    port: Number(process.env.BENCH_POSTGRES_PORT ?? 55470),
  });
  try {
    const url = server.createDatabase('bench_28');
    const seeded = Date.now();
    await seedScalePostgres(
      url,
      SCALE,
      'not-a-login-hash',
      MIGRATIONS.filter((m) => m.version <= 27),
    );
    console.log(
      `seeded ${SCALE.posts} posts and ${SCALE.users} users at schema 27 in ${secs(Date.now() - seeded)}`,
    );

    const reader = new pg.Client({ connectionString: url });
    await reader.connect();
    const waits: number[] = [];
    let reading = true;
    const reads = (async () => {
      for (let id = 1; reading; id = (id % SCALE.posts) + 1) {
        const started = performance.now();
        await reader.query('SELECT card_json FROM posts WHERE id = $1', [id]);
        waits.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, READ_EVERY_MS));
      }
    })();
    const sql = openPostgres(url);
    const started = Date.now();
    const applied = await migrate(sql);
    const took = Date.now() - started;
    reading = false;
    await reads;
    await reader.end();
    const types = await sql.all<{ data_type: string; n: number }>(
      `SELECT data_type, COUNT(*) AS n FROM information_schema.columns WHERE table_schema = current_schema()
       AND data_type IN ('boolean', 'timestamp with time zone', 'jsonb') GROUP BY data_type ORDER BY data_type`,
    );
    await sql.close();
    waits.sort((a, b) => a - b);
    console.log(`migration ${applied.join(', ')} took ${secs(took)}`);
    console.log(`columns now: ${types.map((t) => `${t.n} ${t.data_type}`).join(', ')}`);
    console.log(
      `a reader beside it: ${waits.length} reads, p50 ${ms(waits[Math.floor(waits.length / 2)])}, ` +
        `longest wait ${ms(waits.at(-1))}`,
    );
  } finally {
    server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const secs = (t: number) => `${(t / 1000).toFixed(1)} s`;
const ms = (t: number | undefined) => `${(t ?? 0).toFixed(1)} ms`;

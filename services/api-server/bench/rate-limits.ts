/**
 * Issue 19's benchmark: the rate limiter's cost on the list route (req/s with limits on and off, same run,
 * two API processes on one database, measured in turns so drift hits both alike) and a flood of 10,000
 * registrations from one address against the default limits, counted in the database afterwards.
 */
import Database from 'better-sqlite3';
import { DEFAULT_CONFIG } from '../src/config';
import { migrate, openSqliteConnection, sqliteOver } from '../src/db/database';
import { SqlRateLimitStore } from '../src/rate-limit/sql-store';
import { ApiProcess, cannon, DURATION, type Figure, figure, formatFigure } from './measure';

const LIST = '/api/posts?status=published&visibility=public&limit=6';
const ROUNDS = 3;
const FLOOD = 10_000;

export interface RateLimitBench {
  listOff: Figure;
  listOn: Figure;
  costPercent: number;
  storeHitMicros: number;
  flood: {
    sent: number;
    created: number;
    refused: number;
    other: number;
    stored: number;
    limit: number;
    seconds: number;
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/** One counter hit straight on the store (no HTTP), the cost every limited request pays. */
async function storeHitMicros(dbPath: string): Promise<number> {
  const sql = sqliteOver(openSqliteConnection(`${dbPath}.store-bench`));
  await migrate(sql);
  const store = new SqlRateLimitStore(sql);
  const n = 50_000;
  const started = performance.now();
  for (let i = 0; i < n; i++) await store.hit(`bench:198.18.0.${i % 200}`, 60_000, Date.now());
  const micros = ((performance.now() - started) * 1000) / n;
  await sql.close();
  return Math.round(micros * 10) / 10;
}

async function flood(base: string, dbPath: string) {
  const counts = { created: 0, refused: 0, other: 0 };
  let next = 0;
  const started = Date.now();
  const worker = async () => {
    while (next < FLOOD) {
      const i = next++;
      const res = await fetch(`${base}/api/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          username: `flood_${i}`,
          password: 'FloodPass123',
          name: { first: 'Flood', last: '' },
          email: `flood-${i}@example.com`,
          address: { street: 'Flood Street 1', city: '', postal_code: '', country: '' },
        }),
      });
      await res.arrayBuffer();
      if (res.status === 201) counts.created++;
      else if (res.status === 429) counts.refused++;
      else counts.other++;
    }
  };
  await Promise.all(Array.from({ length: 50 }, worker));
  const seconds = (Date.now() - started) / 1000;
  const db = new Database(dbPath, { readonly: true });
  const stored = db
    .prepare("SELECT COUNT(*) FROM users WHERE username LIKE 'flood\\_%' ESCAPE '\\'")
    .pluck()
    .get() as number;
  db.close();
  return { sent: FLOOD, ...counts, stored, limit: DEFAULT_CONFIG.rateLimits.limits.register.limit, seconds };
}

export async function benchRateLimits(dbPath: string): Promise<RateLimitBench> {
  const off = new ApiProcess(dbPath, { RATE_LIMITS: 'off' });
  const on = new ApiProcess(dbPath, {});
  await off.start();
  await on.start();
  try {
    for (const api of [off, on]) await cannon({ url: `${api.base}${LIST}`, duration: 2, connections: 10 });
    const runs: { off: Figure[]; on: Figure[] } = { off: [], on: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, api] of round % 2
        ? ([
            ['on', on],
            ['off', off],
          ] as const)
        : ([
            ['off', off],
            ['on', on],
          ] as const)) {
        await api.settle();
        const f = figure(await cannon({ url: `${api.base}${LIST}` }));
        runs[name].push(f);
        console.log(`[rate limits] list, limits ${name}, round ${round + 1}: ${formatFigure(f)}`);
      }
    }
    const pick = (fs: Figure[]) => fs.find((f) => f.rps === median(fs.map((x) => x.rps))) as Figure;
    const listOff = pick(runs.off);
    const listOn = pick(runs.on);
    const costPercent = Math.round(((listOff.rps - listOn.rps) / listOff.rps) * 1000) / 10;
    const floodResult = await flood(on.base, dbPath);
    return { listOff, listOn, costPercent, storeHitMicros: await storeHitMicros(dbPath), flood: floodResult };
  } finally {
    await off.stop('SIGKILL');
    await on.stop('SIGKILL');
  }
}

export function printRateLimitBench(r: RateLimitBench) {
  const f = r.flood;
  console.log(`\nRate limits (issue 19), median of ${ROUNDS} turns of ${DURATION} s each, same database:`);
  console.log('| | |\n|---|---|');
  console.log(`| list route, limits off | ${formatFigure(r.listOff)} |`);
  console.log(`| list route, limits on | ${formatFigure(r.listOn)} |`);
  console.log(`| limiter cost on the list route | ${r.costPercent} % (budget < 5 %) |`);
  console.log(`| one counter hit in SQLite (a limited request's cost) | ${r.storeHitMicros} µs |`);
  console.log(
    `| ${f.sent.toLocaleString('en')} registrations from one address in ${f.seconds.toFixed(1)} s | ${f.created} created, ${f.refused.toLocaleString('en')} refused (429), ${f.other} other; ${f.stored} stored (limit ${f.limit}) |`,
  );
}

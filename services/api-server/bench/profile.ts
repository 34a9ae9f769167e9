/**
 * pnpm bench:api --profile (issue 36): where Explore's time goes. Seeds the 100,000-post database (as
 * --scale), starts the compiled API (dist/main.mjs, as production runs; BENCH_API_DIR for another checkout)
 * under `node --cpu-prof`, loads Explore as a member for BENCH_DURATION seconds at 50 connections, stops it
 * with SIGTERM (the profile is written on exit) and prints the main thread's self time by area, by module and
 * by function, in microseconds per request (`BENCH_DATABASES=postgres`: on PostgreSQL); the floor (bench/floor.ts) first, under the same profiler and
 * load, for comparison. The .cpuprofile files stay in bench-results/ (open it in Chrome's
 * DevTools or speedscope for the flame graph).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startFloor } from './floor';
import { API_DIR, benchUser, cannon, figure, formatFigure, probe } from './measure';
import { postgresScale } from './postgres-scale';
import { EXPLORE_PATH } from './scenarios';
import { seedScale } from './seed-scale';

const SCALE = { posts: 100_000, users: 10_000 };

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Areas of the breakdown, by the first pattern that matches a frame's function and file. */
const AREAS: [string, RegExp][] = [
  ["the floor's handler (its statement through the driver, the join)", /\[eval1\]/],
  ['SQLite (statements)', /^(all|run|get|iterate) .*(main\.mjs|database\.ts)|better-sqlite3/],
  ['pg, pg-pool, pg-protocol, Kysely (PostgreSQL)', /pg@|pg-protocol|pg-pool|kysely/],
  [
    'writing to sockets (the answer; on PostgreSQL the queries too)',
    /^(writev|writevGeneric|writeBuffer|writeUtf8String|utf8Write) /,
  ],
  ['garbage collector', /^\(garbage collector\)/],
  ['idle', /^\(idle\)/],
  ['Node HTTP (parse, headers, streams)', /node:(_http|internal\/streams|net|events|internal\/stream_base)/],
  ['text to bytes (Buffer)', /node:buffer|node:internal\/buffer|^utf8Write /],
  ['hono and @hono/node-server', /hono/],
  ['valibot', /valibot/],
  [
    'ours: building the answer (cards, teasers, body)',
    /^(cardText|cardRow|listItemTexts|listBody|toTeaser|teaserText|storedCard|cardId|pageJson|pageHeaders|encodeCursor) /,
  ],
  ['ours: everything else', /main\.mjs|src\//],
];

function summarise(profile: CpuProfile, requests: number) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const areas = new Map<string, number>();
  const modules = new Map<string, number>();
  const functions = new Map<string, number>();
  let total = 0;
  for (const [id, us] of self) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const file =
      url
        .replace(/^file:\/\//, '')
        .replace(/.*node_modules\/\.pnpm\/([^/]+)\/.*/, '$1')
        .replace(/.*\/packages\//, 'packages/') || '(native)';
    const fn = `${functionName || '(anonymous)'} ${file}${url ? `:${lineNumber + 1}` : ''}`;
    const area = AREAS.find(([, re]) => re.test(fn))?.[0] ?? 'other (Node internals, V8)';
    total += us;
    for (const [map, key] of [
      [areas, area],
      [modules, file],
      [functions, fn],
    ] as const)
      map.set(key, (map.get(key) ?? 0) + us);
  }
  const print = (title: string, map: Map<string, number>, top: number) => {
    console.log(`\n${title} (µs per request, share of the samples)`);
    for (const [key, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
      const per = (us / requests).toFixed(1).padStart(7);
      console.log(`${per} µs  ${((100 * us) / total).toFixed(1).padStart(5)} %  ${key}`);
    }
  };
  console.log(`\n${(total / 1e6).toFixed(2)} s sampled on the main thread, ${requests} requests`);
  print('By area', areas, AREAS.length + 1);
  print('By module', modules, 15);
  print('By function', functions, 25);
}

/** The main thread's profile in `dir`: the first one written (the search workers write their own). */
function readProfile(dir: string): CpuProfile {
  const [main] = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .sort();
  return JSON.parse(fs.readFileSync(path.join(dir, main!), 'utf8')) as CpuProfile;
}

function member(base: string): Promise<Record<string, string>> {
  return benchUser(base, { username: 'profile_member', email: 'profile-member@example.com' });
}

export async function benchProfile(outDir: string): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'api-profile-'));
  const profDir = path.join(outDir, `profile-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  let child: ChildProcess | null = null;
  let stopPostgres: (() => void) | null = null;
  try {
    // BENCH_DATABASES=postgres: the same rows on PostgreSQL, the floor a bare pg query of the page.
    const onPostgres = process.env.BENCH_DATABASES === 'postgres';
    fs.chmodSync(dir, 0o755); // PostgreSQL's server runs as its own user and keeps its data in here
    const dbPath = path.join(dir, 'scale.db');
    const pgScale = onPostgres ? await postgresScale(dir, SCALE) : null;
    stopPostgres = pgScale?.stop ?? null;
    if (!pgScale) await seedScale(dbPath, SCALE, 'not-a-login-hash');
    const database = pgScale?.db.url ?? dbPath;
    // The floor first, under the same profiler and load: what reading the same page costs, by the same areas.
    const floorDir = path.join(profDir, 'floor');
    const floor = await startFloor(database, ['--cpu-prof', `--cpu-prof-dir=${floorDir}`]);
    const floorWarm = figure(await cannon({ url: `${floor.base}/`, duration: 1 }));
    const floorRun = figure(await cannon({ url: `${floor.base}/` }));
    await floor.stop('SIGTERM');
    console.log(`The floor under the profiler: ${formatFigure(floorRun)}`);
    summarise(readProfile(floorDir), floorWarm.total + floorRun.total + 1);
    const built = spawnSync(process.execPath, ['build.mjs'], { cwd: API_DIR.dir, stdio: 'inherit' });
    if (built.status !== 0) throw new Error('the API did not build');
    const port = 4600 + Math.floor(Math.random() * 300);
    const base = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${profDir}`, 'dist/main.mjs'], {
      cwd: API_DIR.dir,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DB_PATH: dbPath,
        LOG_LEVEL: 'silent',
        REQUIRES_ACTIVATION: 'false',
        LIST_CACHE_SIZE: '0',
        RATE_LIMITS: 'off',
        ...(pgScale ? { DATABASE_URL: database } : {}),
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    while (!Number.isFinite(await probe(`${base}/api/health`, 1000)))
      await new Promise((r) => setTimeout(r, 200));
    const auth = await member(base);
    const warm = figure(await cannon({ url: `${base}${EXPLORE_PATH}`, headers: auth, duration: 1 }));
    const result = figure(await cannon({ url: `${base}${EXPLORE_PATH}`, headers: auth }));
    console.log(`Explore under the profiler: ${formatFigure(result)}`);
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
    console.log('\nThe API:');
    summarise(readProfile(profDir), warm.total + result.total + 1);
    console.log(`\nprofiles: ${profDir}`);
  } finally {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    stopPostgres?.();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

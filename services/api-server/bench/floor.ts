/**
 * The floor of issue 36: a bare reader of Explore's page, with nothing of ours in the way. A ~20-line
 * node:http server in its own process opens the very same database (SQLite read-only with the project's own
 * better-sqlite3, or PostgreSQL with the project's own pg), runs the list's filter and order, and answers the
 * stored card_json of 50 cards joined into one array. No session, no routing, no access rule, no per-read
 * additions, no headers beyond the content type: what reading the same page costs on these cores. Every
 * list row of the table is printed as a share of it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';

/** The page the floor answers: Explore's filter and order (the text), 51 rows, 50 answered. */
export const FLOOR_SQL = `SELECT card_json FROM posts
  WHERE status = 'published' AND visibility IN ('public', 'members_only')
  ORDER BY published_at DESC, id DESC LIMIT 51`;

const SQLITE_FLOOR = `
  import http from 'node:http';
  import Database from 'better-sqlite3';
  const db = new Database(process.env.FLOOR_DB, { readonly: true });
  const page = db.prepare(process.env.FLOOR_SQL).pluck();
  http.createServer((req, res) => {
    const body = '[' + page.all().slice(0, 50).join(',') + ']';
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(body);
  }).listen(0, '127.0.0.1', function () { console.log(this.address().port); });
  process.on('SIGTERM', () => process.exit(0));`;

const POSTGRES_FLOOR = `
  import http from 'node:http';
  import pg from 'pg';
  const pool = new pg.Pool({ connectionString: process.env.FLOOR_DB, max: 10 });
  http.createServer(async (req, res) => {
    const { rows } = await pool.query(process.env.FLOOR_SQL);
    const body = '[' + rows.slice(0, 50).map((r) => r.card_json).join(',') + ']';
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(body);
  }).listen(0, '127.0.0.1', function () { console.log(this.address().port); });
  process.on('SIGTERM', () => process.exit(0));`;

export interface Floor {
  base: string;
  /** SIGTERM (it exits, writing a --cpu-prof profile) or SIGKILL. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts the floor over a SQLite file or a postgres:// URL; resolves once it listens. */
export async function startFloor(database: string, nodeArgs: string[] = []): Promise<Floor> {
  const source = database.startsWith('postgres') ? POSTGRES_FLOOR : SQLITE_FLOOR;
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, '--input-type=module', '-e', source], {
    cwd: new URL('..', import.meta.url),
    env: { ...process.env, FLOOR_DB: database, FLOOR_SQL },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
  return {
    base: `http://127.0.0.1:${chunk.toString().trim()}`,
    stop: async (signal = 'SIGKILL') => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill(signal);
      await exited;
    },
  };
}

import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { Config } from '../config';
import { MIGRATIONS, type Migration } from './migrations';
import { openPostgres } from './postgres';
import { type DriverStatement, Sql } from './sql';

export type { Sql } from './sql';
/** A raw SQLite connection (tests, the benchmark's seeding, backups). */
export type SqliteConnection = Database.Database;

/** The SQLite connection and its settings: WAL so readers (the search workers, other instances) never wait. */
export function openSqliteConnection(file: string): Database.Database {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  return db;
}

/**
 * The embedded database behind `Sql`. Kysely's SQLite driver prepares every statement it runs; better-sqlite3
 * preparing the same text again costs more than running most of ours, so the connection it gets keeps each
 * prepared statement by its text (our texts are constants and shapes, a bounded set). The values are spread
 * so that one object among them binds `@name` parameters (Sql passes named values so).
 */
export function openSqlite(file: string): Sql {
  return sqliteOver(openSqliteConnection(file));
}

/** `Sql` over an open better-sqlite3 connection (closed with it). */
export function sqliteOver(db: Database.Database): Sql {
  const statements = new Map<string, DriverStatement>();
  const rawStatements = new Map<string, DriverStatement>();
  const prepared = (map: Map<string, DriverStatement>, text: string, raw: boolean): DriverStatement => {
    let stmt = map.get(text);
    if (!stmt) {
      const s = db.prepare(text);
      if (raw) s.raw(true);
      stmt = {
        reader: s.reader,
        all: (values) => s.all(...values),
        run: (values) => s.run(...values),
        iterate: (values) => s.iterate(...values),
      };
      map.set(text, stmt);
    }
    return stmt;
  };
  const cached = {
    prepare: (text: string) => prepared(statements, text, false),
    prepareRaw: (text: string) => prepared(rawStatements, text, true),
    close() {
      if (db.open) db.close();
    },
  };
  return new Sql(
    'sqlite',
    new Kysely<unknown>({ dialect: new SqliteDialect({ database: cached }) }),
    db,
    cached,
  );
}

/**
 * Apply every migration not yet recorded, in order, each in its own write transaction, in the dialect's
 * spelling. Returns the versions applied. Two instances starting at once take turns (the `migrations` key
 * lock): each migration checks again inside its transaction whether another has applied it meanwhile.
 */
export async function migrate(sql: Sql, migrations: Migration[] = MIGRATIONS): Promise<number[]> {
  // Instances starting together migrate one after another (a key lock of migrations only; on SQLite the
  // writers take turns anyway): two concurrent CREATEs of one table would fail where one waits and skips.
  await sql.transaction(async (tx) => {
    await tx.lock('migrations');
    await tx.script(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      applied_at TEXT NOT NULL
    )`);
  });
  // Every start reads what is done once; only a missing migration takes a write transaction, and checks
  // again inside it, as another instance may have applied it meanwhile.
  const recorded = new Set(await sql.column<number>('SELECT version FROM schema_migrations'));
  const applied: number[] = [];
  for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
    if (recorded.has(m.version)) continue;
    const text = sql.dialect === 'sqlite' ? m.sql : m.postgres;
    if (text === undefined) throw new Error(`migration ${m.version} (${m.name}) has no ${sql.dialect} text`);
    const done = await sql.transaction(async (tx) => {
      await tx.lock('migrations');
      if (await tx.value('SELECT 1 FROM schema_migrations WHERE version = ?', [m.version])) return true;
      // PostgreSQL: the deferred data_version trigger (migration 1) fires per statement here, or a migration
      // that updates rows and then indexes the table fails on the pending trigger events.
      // A migration may take longer than a request's statement_timeout (db/postgres.ts): not bounded here.
      if (tx.dialect === 'postgres')
        await tx.script('SET CONSTRAINTS ALL IMMEDIATE; SET LOCAL statement_timeout = 0');
      await tx.script(text);
      await tx.run('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)', [
        m.version,
        m.name,
        // When the migration ran on this machine, for people reading the table: no rule depends on it.
        new Date().toISOString(),
      ]);
      return false;
    });
    if (!done) applied.push(m.version);
  }
  return applied;
}

/** The configured database: PostgreSQL when DATABASE_URL is set, else the SQLite file at DB_PATH. */
export function openDatabase(config: Pick<Config, 'dbPath' | 'databaseUrl'>): Sql {
  return config.databaseUrl ? openPostgres(config.databaseUrl) : openSqlite(config.dbPath);
}

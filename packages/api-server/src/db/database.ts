import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { MIGRATIONS, type Migration } from './migrations';

export type DB = Database.Database;

export function openDatabase(file: string): DB {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  return db;
}

/**
 * Every write transaction of the API: it takes SQLite's write lock up front (BEGIN IMMEDIATE). A deferred
 * transaction that reads first cannot wait to upgrade its lock when another process writes meanwhile, and
 * answers 'database is locked' at once instead of waiting out busy_timeout (docs/decisions/0016-cluster.md:
 * 48 of 200 concurrent creates across two instances failed so).
 */
export function writeTransaction<T>(db: DB, work: () => T): T {
  return db.transaction(work).immediate();
}

/** Apply every migration not yet recorded, in order, each in its own transaction. Returns the versions applied. */
export function migrate(db: DB, migrations: Migration[] = MIGRATIONS): number[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL
  )`);
  const done = new Set(
    (db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map(
      (r) => r.version,
    ),
  );
  const applied: number[] = [];
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
    if (done.has(m.version)) continue;
    writeTransaction(db, () => {
      db.exec(m.sql);
      record.run(m.version, m.name, new Date().toISOString());
    });
    applied.push(m.version);
  }
  return applied;
}

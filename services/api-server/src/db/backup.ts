import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Config } from '../config';
import {
  BackupError,
  CODE_SCHEMA_VERSION,
  type DatabaseBackups,
  type RestoreResult,
  type TableRows,
} from './backup-model';
import { postgresBackups } from './backup-postgres';
import { migrate, sqliteOver } from './database';

// What both kinds share lives in backup-model.ts, so backup-postgres.ts needs nothing from this file.
export {
  BackupError,
  type BackupResult,
  CODE_SCHEMA_VERSION,
  type DatabaseBackups,
  type RestoreResult,
  type TableRows,
} from './backup-model';

/** The backups of the configured database. */
export function databaseBackups(
  config: Pick<Config, 'dbPath' | 'databaseUrl' | 'pgBinDir'>,
): DatabaseBackups {
  return config.databaseUrl
    ? postgresBackups(config.databaseUrl, config.pgBinDir)
    : sqliteBackups(config.dbPath);
}

/**
 * Every page in one step of SQLite's online backup API: the step reads one snapshot of the source (in WAL
 * mode writers go on meanwhile), so the copy is consistent and never restarts because someone wrote; as a
 * destination, the step is one write transaction, so other connections see the old content or the new.
 */
const ONE_STEP = { progress: () => 0x7fffffff };

const SIDECARS = ['-wal', '-shm', '-journal'];

export function sqliteBackups(dbPath: string): DatabaseBackups {
  const live = path.resolve(dbPath);
  return {
    kind: 'sqlite',
    target: live,

    async backup(file, opts = {}) {
      const dest = path.resolve(file);
      if (sameFile(dest, live)) throw new BackupError(`${dest} is the live database itself`);
      if (!fs.existsSync(live)) throw new BackupError(`No database at ${live}`);
      if (fs.existsSync(dest) && !opts.force) {
        throw new BackupError(`${dest} already exists; add --force to overwrite it`);
      }
      if (!isDirectory(path.dirname(dest))) throw new BackupError(`No such directory: ${path.dirname(dest)}`);
      // Written beside the target and renamed only once checked: a failed run never leaves a bad backup there.
      const partial = `${dest}.partial-${process.pid}`;
      removeWithSidecars(partial);
      try {
        const source = new Database(live, { fileMustExist: true });
        try {
          source.pragma('busy_timeout = 5000');
          await source.backup(partial, ONE_STEP);
        } finally {
          source.close();
        }
        // The copy carries the live file's WAL flag; a backup is better one self-contained file.
        const copy = new Database(partial, { fileMustExist: true });
        copy.pragma('journal_mode = DELETE');
        copy.close();
        const tables = withReadOnly(partial, (db) => {
          const problem = integrityProblem(db);
          if (problem) throw new BackupError(`Integrity check of the copy failed: ${problem}`);
          return tableRows(db);
        });
        if (opts.force) removeWithSidecars(dest); // a stale -wal of an old file must not meet the new one
        fs.renameSync(partial, dest);
        return { file: dest, bytes: fs.statSync(dest).size, tables, checked: 'integrity_check ok' };
      } finally {
        removeWithSidecars(partial);
      }
    },

    async restore(file, opts = {}) {
      const src = path.resolve(file);
      if (!fs.existsSync(src)) throw new BackupError(`No such file: ${src}`);
      if (!fs.statSync(src).isFile()) throw new BackupError(`Not a file: ${src}`);
      if (sameFile(src, live)) throw new BackupError(`${src} is the live database itself`);
      const checked = withReadOnly(src, (db) => validate(db, src, live));
      const result: RestoreResult = {
        file: src,
        bytes: fs.statSync(src).size,
        schemaVersion: checked.version,
        codeVersion: CODE_SCHEMA_VERSION,
        tables: checked.tables,
        restored: false,
      };
      if (opts.dryRun) return result;

      let from = src;
      let tmpDir: string | null = null;
      try {
        if (checked.version < CODE_SCHEMA_VERSION) {
          // Running servers expect this code's schema: migrate a temporary copy, then restore that.
          tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'restore-'));
          from = path.join(tmpDir, 'migrated.db');
          await withReadOnlyAsync(src, (db) => db.backup(from, ONE_STEP));
          const tmp = new Database(from);
          tmp.pragma('journal_mode = DELETE');
          tmp.pragma('foreign_keys = ON');
          const sql = sqliteOver(tmp);
          try {
            await migrate(sql);
          } finally {
            await sql.close();
          }
        }
        fs.mkdirSync(path.dirname(live), { recursive: true });
        // The backup file is the source and the live file the destination: SQLite writes the pages through
        // its own locking and WAL, so every open connection (running API servers, their search workers)
        // reads the restored content next, as it would after any other write.
        await withReadOnlyAsync(from, (db) => db.backup(live, ONE_STEP)).catch((err: unknown) => {
          throw new BackupError(`Restore into ${live} failed: ${(err as Error).message}`);
        });
      } finally {
        if (tmpDir) fs.rmSync(tmpDir, { recursive: true, force: true });
      }
      return { ...result, restored: true };
    },
  };
}

/** The checks a file passes before it may replace the live database. Throws a BackupError saying why not. */
function validate(db: Database.Database, file: string, live: string) {
  db.prepare('SELECT COUNT(*) FROM sqlite_master').get(); // not SQLite at all: SQLITE_NOTADB here
  const problem = integrityProblem(db);
  if (problem) throw new BackupError(`${file} is corrupt: ${problem}`);
  const hasMigrations = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'")
    .get();
  if (!hasMigrations)
    throw new BackupError(`${file} is not a backup of this app (no schema_migrations table)`);
  const version = (db.prepare('SELECT MAX(version) FROM schema_migrations').pluck().get() as number) ?? 0;
  if (version > CODE_SCHEMA_VERSION) {
    throw new BackupError(
      `${file} has schema version ${version}, newer than this code knows (${CODE_SCHEMA_VERSION}); restore it with the code that wrote it`,
    );
  }
  if (fs.existsSync(live)) {
    const mine = db.pragma('page_size', { simple: true });
    const theirs = withReadOnly(live, (l) => l.pragma('page_size', { simple: true }));
    if (mine !== theirs) {
      throw new BackupError(
        `${file} has page size ${mine}, the live database ${theirs}; SQLite cannot restore across`,
      );
    }
  }
  return { version, tables: tableRows(db) };
}

/** null when `PRAGMA integrity_check` says ok, else its first complaint. */
function integrityProblem(db: Database.Database): string | null {
  try {
    const rows = db.pragma('integrity_check') as { integrity_check: string }[];
    const first = rows[0]?.integrity_check ?? 'no answer';
    return rows.length === 1 && first === 'ok' ? null : first;
  } catch (err) {
    return (err as Error).message;
  }
}

/** Rows per ordinary table (not SQLite's own, not the FTS index's shadow tables), by name. */
function tableRows(db: Database.Database): TableRows[] {
  const names = db
    .prepare(
      "SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .pluck()
    .all() as string[];
  return names.map((name) => ({
    name,
    rows: db
      .prepare(`SELECT COUNT(*) FROM "${name.replaceAll('"', '""')}"`)
      .pluck()
      .get() as number,
  }));
}

/** Opens `file` read-only for `fn`; a file SQLite cannot read is a BackupError naming it. */
function withReadOnly<T>(file: string, fn: (db: Database.Database) => T): T {
  const db = openReadOnly(file);
  try {
    return fn(db);
  } catch (err) {
    throw asBackupError(err, file);
  } finally {
    db.close();
  }
}

async function withReadOnlyAsync<T>(file: string, fn: (db: Database.Database) => Promise<T>): Promise<T> {
  const db = openReadOnly(file);
  try {
    return await fn(db);
  } finally {
    db.close();
  }
}

function openReadOnly(file: string): Database.Database {
  try {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    db.pragma('busy_timeout = 5000');
    return db;
  } catch (err) {
    throw asBackupError(err, file);
  }
}

function asBackupError(err: unknown, file: string): Error {
  if (err instanceof BackupError) return err;
  const code = (err as { code?: string }).code ?? '';
  if (code.startsWith('SQLITE_NOTADB')) return new BackupError(`${file} is not an SQLite database`);
  if (code.startsWith('SQLITE_CORRUPT'))
    return new BackupError(`${file} is corrupt: ${(err as Error).message}`);
  return new BackupError(`${file}: ${(err as Error).message}`);
}

function sameFile(a: string, b: string): boolean {
  if (a === b) return true;
  try {
    return fs.realpathSync(a) === fs.realpathSync(b);
  } catch {
    return false;
  }
}

function isDirectory(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

function removeWithSidecars(file: string) {
  for (const suffix of ['', ...SIDECARS]) fs.rmSync(file + suffix, { force: true });
}

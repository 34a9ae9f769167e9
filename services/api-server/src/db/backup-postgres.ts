import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { BackupError, CODE_SCHEMA_VERSION, type DatabaseBackups, type TableRows } from './backup-model';
import { migrate } from './database';
import { openPostgres } from './postgres';
import type { Sql } from './sql';

const run = promisify(execFile);

/**
 * Backups of a PostgreSQL database (issue 12) with PostgreSQL's own tools, behind the same interface and
 * checks as SQLite's (backup.ts):
 * - backup: `pg_dump --format=custom` of one snapshot, the rows per table counted in that same snapshot
 *   (a REPEATABLE READ transaction exports it and pg_dump reads it), written beside the target and renamed
 *   once `pg_restore --list` has read it back;
 * - restore: the file is first restored into a scratch database, where it is checked (our schema, not
 *   newer than this code), counted and, when older, migrated; only then does it replace the live content,
 *   with `pg_restore --clean --single-transaction`: running API instances see the old content or the new.
 * The scratch database needs the right to create databases (the owner of a local cluster has it).
 */
export function postgresBackups(url: string, binDir: string | null = null): DatabaseBackups {
  const target = withoutPassword(url);
  const tool = async (name: string, args: string[]): Promise<string> => {
    const { stdout } = await run(binary(name, binDir), args, { maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  };
  return {
    kind: 'postgres',
    target,

    async backup(file, opts = {}) {
      const dest = path.resolve(file);
      if (fs.existsSync(dest) && !opts.force) {
        throw new BackupError(`${dest} already exists; add --force to overwrite it`);
      }
      if (!isDirectory(path.dirname(dest))) throw new BackupError(`No such directory: ${path.dirname(dest)}`);
      const partial = `${dest}.partial-${process.pid}`;
      const sql = openPostgres(url, 1);
      try {
        const tables = await sql.snapshot(async (snapshot, tx) => {
          await tool('pg_dump', [
            '--format=custom',
            `--snapshot=${snapshot}`,
            `--file=${partial}`,
            `--dbname=${url}`,
          ]);
          return tableRows(tx);
        });
        await tool('pg_restore', ['--list', partial]);
        fs.renameSync(partial, dest);
        return { file: dest, bytes: fs.statSync(dest).size, tables, checked: 'pg_restore --list ok' };
      } catch (error) {
        throw asBackupError(error, target);
      } finally {
        fs.rmSync(partial, { force: true });
        await sql.close();
      }
    },

    async restore(file, opts = {}) {
      const src = path.resolve(file);
      if (!fs.existsSync(src)) throw new BackupError(`No such file: ${src}`);
      if (!fs.statSync(src).isFile()) throw new BackupError(`Not a file: ${src}`);
      await tool('pg_restore', ['--list', src]).catch(() => {
        throw new BackupError(`${src} is not a PostgreSQL backup (pg_dump --format=custom)`);
      });
      // The wall clock only makes the scratch database's name unique; nothing is timed by it.
      const scratchName = `restore_check_${process.pid}_${Date.now()}`;
      const admin = openPostgres(url, 1);
      const scratchUrl = withDatabase(url, scratchName);
      let migratedDump: string | null = null;
      try {
        await admin.run(`CREATE DATABASE ${scratchName}`);
        await tool('pg_restore', ['--no-owner', `--dbname=${scratchUrl}`, src]).catch((error: unknown) => {
          throw new BackupError(`${src} does not restore: ${firstLine(error)}`);
        });
        const scratch = openPostgres(scratchUrl, 1);
        let version: number;
        let tables: TableRows[];
        try {
          version = await schemaVersion(scratch, src);
          if (version > CODE_SCHEMA_VERSION) {
            throw new BackupError(
              `${src} has schema version ${version}, newer than this code (${CODE_SCHEMA_VERSION}): restore it with a newer release`,
            );
          }
          if (version < CODE_SCHEMA_VERSION) await migrate(scratch);
          tables = await tableRows(scratch);
        } finally {
          await scratch.close();
        }
        const result = {
          file: src,
          bytes: fs.statSync(src).size,
          schemaVersion: version,
          codeVersion: CODE_SCHEMA_VERSION,
          tables,
          restored: false,
        };
        if (opts.dryRun) return result;
        // What goes live is the checked (and migrated) scratch copy, dumped again.
        migratedDump = `${src}.migrated-${process.pid}`;
        await tool('pg_dump', ['--format=custom', `--file=${migratedDump}`, `--dbname=${scratchUrl}`]);
        await tool('pg_restore', [
          '--clean',
          '--if-exists',
          '--single-transaction',
          '--no-owner',
          `--dbname=${url}`,
          migratedDump,
        ]).catch((error: unknown) => {
          throw new BackupError(`Restore into ${target} failed: ${firstLine(error)}`);
        });
        // The caches of running instances must not take the restored version number for one they saw.
        await admin.run('UPDATE data_epoch SET epoch = gen_random_uuid()::text');
        return { ...result, restored: true };
      } finally {
        if (migratedDump) fs.rmSync(migratedDump, { force: true });
        await admin.run(`DROP DATABASE IF EXISTS ${scratchName} WITH (FORCE)`).catch(() => {});
        await admin.close();
      }
    },
  };
}

/** Rows per table of our schema (the public schema), by name. */
async function tableRows(sql: Sql): Promise<TableRows[]> {
  const names = await sql.column<string>(
    "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename",
  );
  const tables: TableRows[] = [];
  for (const name of names) {
    tables.push({
      name,
      rows: (await sql.value<number>(`SELECT COUNT(*) FROM "${name.replaceAll('"', '""')}"`)) ?? 0,
    });
  }
  return tables;
}

async function schemaVersion(sql: Sql, file: string): Promise<number> {
  try {
    return (await sql.value<number>('SELECT MAX(version) FROM schema_migrations')) ?? 0;
  } catch {
    throw new BackupError(`${file} is not a backup of this application (no schema_migrations table)`);
  }
}

/**
 * A PostgreSQL program: in binDir (the config's PG_BIN_DIR), else Debian's newest
 * /usr/lib/postgresql/<version>/bin, else the PATH (pg_dump must not be older than the server).
 */
function binary(name: string, binDir: string | null): string {
  if (binDir) return path.join(binDir, name);
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root)
    ? fs
        .readdirSync(root)
        .filter((v) => fs.existsSync(path.join(root, v, 'bin', name)))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  return versions.length > 0 ? path.join(root, versions[0]!, 'bin', name) : name;
}

function withDatabase(url: string, db: string): string {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}

function withoutPassword(url: string): string {
  const u = new URL(url);
  u.password = '';
  return u.toString();
}

const isDirectory = (dir: string) => fs.existsSync(dir) && fs.statSync(dir).isDirectory();

function firstLine(error: unknown): string {
  const e = error as { stderr?: string; message?: string };
  return String(e.stderr || e.message || error)
    .trim()
    .split('\n')[0]!;
}

function asBackupError(error: unknown, target: string): Error {
  if (error instanceof BackupError) return error;
  return new BackupError(`Backup of ${target} failed: ${firstLine(error)}`);
}

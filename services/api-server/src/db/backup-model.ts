import { MIGRATIONS } from './migrations';

/**
 * Backups that restore (issue 12). `pnpm admin backup` and `pnpm admin restore` only know this interface;
 * each database kind implements it (SQLite in backup.ts, PostgreSQL in backup-postgres.ts).
 */
export interface DatabaseBackups {
  /** Which database kind, e.g. `sqlite`. */
  readonly kind: string;
  /** Where the live database is (a path or a URL without secrets), for messages. */
  readonly target: string;
  /** An online, consistent copy of the live database into `file`; an existing file only with `force`. */
  backup(file: string, opts?: { force?: boolean }): Promise<BackupResult>;
  /** Validates `file`, then (unless `dryRun`) replaces the live database's content with it. */
  restore(file: string, opts?: { dryRun?: boolean }): Promise<RestoreResult>;
}

export interface TableRows {
  name: string;
  rows: number;
}

export interface BackupResult {
  file: string;
  bytes: number;
  tables: TableRows[];
  /** How the copy was checked before it was kept (e.g. `integrity_check ok`). */
  checked: string;
}

export interface RestoreResult {
  file: string;
  bytes: number;
  /** The migration version recorded in the backup. */
  schemaVersion: number;
  /** The newest migration this code knows; an older backup is migrated to it before it goes live. */
  codeVersion: number;
  tables: TableRows[];
  /** False for a dry run. */
  restored: boolean;
}

/** A refusal or failure the CLI shows as one line (no stack). */
export class BackupError extends Error {
  override name = 'BackupError';
}

/** The newest migration this code knows: a backup from newer code is refused, an older one migrated. */
export const CODE_SCHEMA_VERSION = Math.max(...MIGRATIONS.map((m) => m.version));

/** The folder of Debian's PostgreSQL programs (the newest version under `root`), or null. */
export function findPostgresBinDir(root?: string): string | null;

/** The folder of Debian's PostgreSQL programs (the newest installed), or a clear error. */
export function postgresBinDir(): string;

export interface LocalPostgres {
  /** The URL of database `db` (default `postgres`). */
  url(db?: string): string;
  /** The folder of PostgreSQL's programs this server runs. */
  bin: string;
  logFile: string;
  /** A new empty database (names are ours: letters, digits, underscores). */
  createDatabase(name: string): string;
  /** The database `name`, made when missing. */
  ensureDatabase(name: string): string;
  stop(): void;
}

/** Starts a cluster in `dir` on `port` (see index.mjs). */
export function startLocalPostgres(options: {
  dir: string;
  port: number;
  fast?: boolean;
  keep?: boolean;
}): LocalPostgres;

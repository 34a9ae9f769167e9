import type { Sql } from './sql';

/**
 * For a cache kept in one process: has any other connection (another API instance on the same database,
 * the admin CLI) committed since this watch last looked? Each cache makes its own watch, as each remembers
 * the version it last saw (issue 12: stateless instances).
 * - SQLite: `PRAGMA data_version` changes exactly then, and never for this connection's own writes (the
 *   caches already drop what those change). One statement step, a few microseconds, so every cache read
 *   can ask.
 * - PostgreSQL: the `data_version` number (migration 1), which every committed write to what the caches hold
 *   moves, this instance's own too (which only empties a cache more often than needed).
 */
export function createChangeWatch(sql: Sql): () => Promise<boolean> {
  const sqlite = sql.sqlite?.prepare('PRAGMA data_version').pluck();
  const version = sqlite ? async () => String(sqlite.get()) : () => postgresVersion(sql);
  // Unknown at first: the first look says "changed", which empties a cache that is empty anyway.
  let seen: string | null = null;
  return async () => {
    const now = await version();
    if (now === seen) return false;
    seen = now;
    return true;
  };
}

/**
 * A mark that changes whenever the database may have changed, by anyone. A memo of an answer computed from
 * the database is fresh while the mark it was made at is the current one; no hook in any writer to forget.
 * Read the mark before the data it guards, so a write in between makes the memo stale, not wrong.
 * - SQLite: another connection's commits (`PRAGMA data_version`) or this connection's own
 *   (`total_changes()`, every row written through it, triggers included): two statement steps.
 * - PostgreSQL: the `data_version` number.
 */
export function createWriteMark(sql: Sql): () => Promise<string> {
  if (sql.sqlite) {
    const mark = sql.sqlite
      .prepare("SELECT (SELECT data_version FROM pragma_data_version) || ':' || total_changes()")
      .pluck();
    return async () => mark.get() as string;
  }
  return () => postgresVersion(sql);
}

/** PostgreSQL's write mark as an expression (a statement may read it beside what it reads). */
export const POSTGRES_MARK = "(SELECT epoch FROM data_epoch) || ':' || (SELECT SUM(n) FROM data_version)";

async function postgresVersion(sql: Sql): Promise<string> {
  return (await sql.value<string>(`SELECT ${POSTGRES_MARK}`)) ?? '';
}

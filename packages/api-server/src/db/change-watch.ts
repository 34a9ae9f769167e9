import type { DB } from './database';

/**
 * For a cache kept in one process: has any other connection (another API instance on the same database,
 * the admin CLI) committed since this watch last looked? SQLite's `PRAGMA data_version` changes exactly
 * then, and never for this connection's own writes (the caches already drop what those change). One
 * statement step, a few microseconds, so every cache read can ask (issue 12: stateless instances).
 * Each cache makes its own watch, as each remembers the version it last saw.
 */
export function createChangeWatch(db: DB): () => boolean {
  const version = db.prepare('PRAGMA data_version').pluck();
  let seen = version.get() as number;
  return () => {
    const now = version.get() as number;
    if (now === seen) return false;
    seen = now;
    return true;
  };
}

/**
 * A mark that changes whenever the database may have changed, by anyone: another connection's commits
 * (`PRAGMA data_version`) or this connection's own (`total_changes()`, every row written through it,
 * triggers included). A memo of an answer computed from the database is fresh while the mark it was made
 * at is the current one; two statement steps to ask, no hook in any writer to forget.
 */
export function createWriteMark(db: DB): () => string {
  const mark = db
    .prepare("SELECT (SELECT data_version FROM pragma_data_version) || ':' || total_changes()")
    .pluck();
  return () => mark.get() as string;
}

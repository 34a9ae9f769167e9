import type { DB } from '../db/database';
import type { Hit, RateLimitStore, Refusal } from './store';

/** Expired counters and old refusals are deleted at most this often, by whichever request comes first. */
const PRUNE_EVERY_MS = 60_000;
/** How long the operator's view keeps a refusal after it was last seen. */
export const REFUSALS_KEPT_MS = 7 * 24 * 3600 * 1000;

/**
 * The counters in the API's SQLite database (migration 8). One UPSERT per hit: SQLite runs it as one write
 * transaction, so concurrent hits from several processes on the same file are never lost or double-reset.
 */
export class SqliteRateLimitStore implements RateLimitStore {
  private readonly hitStmt;
  private readonly undoStmt;
  private readonly resetStmt;
  private readonly refusedStmt;
  private readonly refusalsStmt;
  private readonly pruneCounters;
  private readonly pruneRefusals;
  private nextPrune = 0;

  constructor(db: DB) {
    this.hitStmt = db.prepare(
      `INSERT INTO rate_limit_counters (key, hits, reset_at) VALUES (@key, 1, @now + @window)
       ON CONFLICT (key) DO UPDATE SET
         hits = CASE WHEN reset_at <= @now THEN 1 ELSE hits + 1 END,
         reset_at = CASE WHEN reset_at <= @now THEN @now + @window ELSE reset_at END
       RETURNING hits, reset_at AS resetAt`,
    );
    this.undoStmt = db.prepare('UPDATE rate_limit_counters SET hits = hits - 1 WHERE key = ? AND hits > 0');
    this.resetStmt = db.prepare('DELETE FROM rate_limit_counters WHERE key = ?');
    this.refusedStmt = db.prepare(
      `INSERT INTO rate_limit_refusals (limit_name, subject, route, count, first_at, last_at)
         VALUES (@limit, @subject, @route, 1, @now, @now)
       ON CONFLICT (limit_name, subject) DO UPDATE SET
         count = count + 1, route = excluded.route, last_at = excluded.last_at`,
    );
    this.refusalsStmt = db.prepare(
      `SELECT limit_name AS "limit", subject, route, count, first_at AS firstAt, last_at AS lastAt
       FROM rate_limit_refusals WHERE last_at >= ? ORDER BY last_at DESC LIMIT 500`,
    );
    this.pruneCounters = db.prepare('DELETE FROM rate_limit_counters WHERE reset_at <= ?');
    this.pruneRefusals = db.prepare('DELETE FROM rate_limit_refusals WHERE last_at < ?');
  }

  hit(key: string, windowMs: number, now: number): Hit {
    this.prune(now);
    return this.hitStmt.get({ key, now, window: windowMs }) as Hit;
  }

  undo(key: string) {
    this.undoStmt.run(key);
  }

  reset(key: string) {
    this.resetStmt.run(key);
  }

  refused(limit: string, subject: string, route: string, now: number) {
    this.refusedStmt.run({ limit, subject, route, now });
  }

  refusals(since: number): Refusal[] {
    return this.refusalsStmt.all(since) as Refusal[];
  }

  /** Keeps both tables as small as the clients active in the last window (a flood of addresses included). */
  private prune(now: number) {
    if (now < this.nextPrune) return;
    this.nextPrune = now + PRUNE_EVERY_MS;
    this.pruneCounters.run(now);
    this.pruneRefusals.run(now - REFUSALS_KEPT_MS);
  }
}

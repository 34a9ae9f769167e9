import type { Sql } from '../db/sql';
import type { Hit, RateLimitStore, Refusal } from './store';

/** Expired counters and old refusals are deleted at most this often, by whichever request comes first. */
const PRUNE_EVERY_MS = 60_000;
/** How long the operator's view keeps a refusal after it was last seen. */
export const REFUSALS_KEPT_MS = 7 * 24 * 3600 * 1000;

const HIT = `INSERT INTO rate_limit_counters (key, hits, reset_at)
    VALUES (@key, 1, CAST(@now AS BIGINT) + CAST(@window AS BIGINT))
  ON CONFLICT (key) DO UPDATE SET
    hits = CASE WHEN rate_limit_counters.reset_at <= CAST(@now AS BIGINT) THEN 1
      ELSE rate_limit_counters.hits + 1 END,
    reset_at = CASE WHEN rate_limit_counters.reset_at <= CAST(@now AS BIGINT)
      THEN CAST(@now AS BIGINT) + CAST(@window AS BIGINT) ELSE rate_limit_counters.reset_at END
  RETURNING hits, reset_at AS "resetAt"`;
const REFUSED = `INSERT INTO rate_limit_refusals (limit_name, subject, route, count, first_at, last_at)
    VALUES (@limit, @subject, @route, 1, @now, @now)
  ON CONFLICT (limit_name, subject) DO UPDATE SET
    count = rate_limit_refusals.count + 1, route = excluded.route, last_at = excluded.last_at`;
const REFUSALS = `SELECT limit_name AS "limit", subject, route, count, first_at AS "firstAt", last_at AS "lastAt"
  FROM rate_limit_refusals WHERE last_at >= ? ORDER BY last_at DESC LIMIT 500`;

/**
 * The counters in the API's database (migration 8). One UPSERT per hit, atomic on both databases, so
 * concurrent hits from several instances are never lost or double-reset.
 */
export class SqlRateLimitStore implements RateLimitStore {
  private nextPrune = 0;

  constructor(private readonly sql: Sql) {}

  async hit(key: string, windowMs: number, now: number): Promise<Hit> {
    await this.prune(now);
    return (await this.sql.get<Hit>(HIT, { key, now, window: windowMs }))!;
  }

  async undo(key: string): Promise<void> {
    await this.sql.run('UPDATE rate_limit_counters SET hits = hits - 1 WHERE key = ? AND hits > 0', [key]);
  }

  async reset(key: string): Promise<void> {
    await this.sql.run('DELETE FROM rate_limit_counters WHERE key = ?', [key]);
  }

  async refused(limit: string, subject: string, route: string, now: number): Promise<void> {
    await this.sql.run(REFUSED, { limit, subject, route, now });
  }

  refusals(since: number): Promise<Refusal[]> {
    return this.sql.all<Refusal>(REFUSALS, [since]);
  }

  /** Keeps both tables as small as the clients active in the last window (a flood of addresses included). */
  private async prune(now: number) {
    if (now < this.nextPrune) return;
    this.nextPrune = now + PRUNE_EVERY_MS;
    await this.sql.run('DELETE FROM rate_limit_counters WHERE reset_at <= ?', [now]);
    await this.sql.run('DELETE FROM rate_limit_refusals WHERE last_at < ?', [now - REFUSALS_KEPT_MS]);
  }
}

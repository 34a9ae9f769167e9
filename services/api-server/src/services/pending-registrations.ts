import type { Sql } from '../db/sql';

export interface PendingRow {
  id: number;
  username: string;
  email: string;
  created_at: string;
  registered_from: string | null;
}

/**
 * The pending accounts registered from one address (`?`), oldest first: read through the partial index
 * idx_users_pending_from (test/query-plans.test.ts), whose term `is_active = FALSE` this must repeat.
 */
export const PENDING_FROM_SQL = `SELECT id, username, email, created_at, registered_from FROM users
  WHERE is_active = FALSE AND registered_from = ? ORDER BY id`;

/**
 * Registrations still waiting for activation, by the client address they came from (issue 19), so a
 * flood from one address can be rejected at once. Every statement says `is_active = FALSE` itself: an active
 * account is never touched, whatever address it registered from.
 */
export class PendingRegistrations {
  constructor(private readonly sql: Sql) {}

  /** Pending accounts per address, the most first. */
  byAddress(): Promise<{ from: string | null; count: number; newest: string }[]> {
    return this.sql.all(
      `SELECT registered_from AS "from", COUNT(*) AS count, MAX(created_at) AS newest FROM users
       WHERE is_active = FALSE GROUP BY registered_from ORDER BY count DESC, newest DESC`,
    );
  }

  from(address: string): Promise<PendingRow[]> {
    return this.sql.all(PENDING_FROM_SQL, [address]);
  }

  /** Deletes the pending accounts registered from `address`; returns how many. */
  reject(address: string): Promise<number> {
    return this.sql.run('DELETE FROM users WHERE is_active = FALSE AND registered_from = ?', [address]);
  }
}

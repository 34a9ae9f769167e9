import type { DB } from '../db/database';

export interface PendingRow {
  id: number;
  username: string;
  email: string;
  created_at: string;
  registered_from: string | null;
}

/**
 * Registrations still waiting for activation, by the client address they came from (issue 19), so a
 * flood from one address can be rejected at once. Every statement says `is_active = 0` itself: an active
 * account is never touched, whatever address it registered from.
 */
export class PendingRegistrations {
  constructor(private readonly db: DB) {}

  /** Pending accounts per address, the most first. */
  byAddress(): { from: string | null; count: number; newest: string }[] {
    return this.db
      .prepare(
        `SELECT registered_from AS "from", COUNT(*) AS count, MAX(created_at) AS newest FROM users
         WHERE is_active = 0 GROUP BY registered_from ORDER BY count DESC, newest DESC`,
      )
      .all() as { from: string | null; count: number; newest: string }[];
  }

  from(address: string): PendingRow[] {
    return this.db
      .prepare(
        `SELECT id, username, email, created_at, registered_from FROM users
         WHERE is_active = 0 AND registered_from = ? ORDER BY id`,
      )
      .all(address) as PendingRow[];
  }

  /** Deletes the pending accounts registered from `address`; returns how many. */
  reject(address: string): number {
    return this.db.prepare('DELETE FROM users WHERE is_active = 0 AND registered_from = ?').run(address)
      .changes;
  }
}

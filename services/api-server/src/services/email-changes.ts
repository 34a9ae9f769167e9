import { MESSAGES } from '@app/contracts';
import type { Sql } from '../db/sql';
import { HttpError, isUniqueViolation } from '../errors';
import type { Mailer } from '../mail/mailer';
import { voidResetLinks } from './password-resets';
import type { SessionService } from './sessions';
import { hashToken, newToken } from './tokens';

const M = MESSAGES.emailChange;
/** The confirmation link to the new address works this long. */
export const CONFIRM_VALID_HOURS = 24;
/** The undo link to the old address works this long: long enough for an owner back from a holiday. */
export const UNDO_VALID_DAYS = 7;

interface ChangeRow {
  id: number;
  user_id: number;
  old_email: string;
  new_email: string;
}

/**
 * Email changes (issue 46): the email is a way into the account (a reset link goes there), so it is
 * guarded like the password. A change needs the current password (checked by the caller), waits for the
 * link mailed to the new address, and the old address is told, with a link that undoes it and ends every
 * session. Tokens are 32 random bytes, only their SHA-256 stored; the mails carry them sealed (outbox).
 */
export class EmailChanges {
  constructor(
    private readonly sql: Sql,
    private readonly sessions: SessionService,
    private readonly mailer: Mailer,
    private readonly now: () => number,
  ) {}

  /** Starts a change in `tx`: earlier pending ones of the account end, both mails are queued. */
  async start(tx: Sql, user: { id: number; email: string; first_name: string }, newEmail: string) {
    const t = this.now();
    const confirm = newToken();
    const undo = newToken();
    await tx.run(
      'UPDATE email_changes SET ended_at = ? WHERE user_id = ? AND confirmed_at IS NULL AND ended_at IS NULL',
      [t, user.id],
    );
    await tx.run(
      `INSERT INTO email_changes (user_id, old_email, new_email, confirm_hash, undo_hash, created_at, expires_at,
         undo_expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        user.id,
        user.email,
        newEmail,
        hashToken(confirm),
        hashToken(undo),
        t,
        t + CONFIRM_VALID_HOURS * 3600_000,
        t + UNDO_VALID_DAYS * 86_400_000,
      ],
    );
    await this.mailer.emailChange(
      tx,
      user,
      newEmail,
      { confirm, undo },
      {
        confirmHours: CONFIRM_VALID_HOURS,
        undoDays: UNDO_VALID_DAYS,
      },
    );
  }

  /** The new address waiting for confirmation, if any. */
  async pending(userId: number): Promise<string | null> {
    const email = await this.sql.value<string>(
      `SELECT new_email FROM email_changes WHERE user_id = ? AND confirmed_at IS NULL AND ended_at IS NULL
         AND expires_at > ? ORDER BY id DESC LIMIT 1`,
      [userId, this.now()],
    );
    return email ?? null;
  }

  /** Follows a confirmation link: the email changes, once. Answers the new address. */
  async confirm(token: string): Promise<string> {
    const t = this.now();
    try {
      return await this.sql.transaction(async (tx) => {
        const row = await tx.get<ChangeRow>(
          `UPDATE email_changes SET confirmed_at = ? WHERE confirm_hash = ? AND confirmed_at IS NULL
             AND ended_at IS NULL AND expires_at > ? RETURNING id, user_id, old_email, new_email`,
          [t, hashToken(token), t],
        );
        if (!row) throw invalidToken();
        // Only from the address it was asked from: an undo (or another change) since then wins.
        const moved = await tx.value<number>(
          'UPDATE users SET email = ? WHERE id = ? AND email = ? RETURNING id',
          [row.new_email, row.user_id, row.old_email],
        );
        if (moved === undefined) throw invalidToken();
        // Reset links sent to the old address stop working.
        await voidResetLinks(tx, row.user_id, t);
        return row.new_email;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new HttpError(409, M.taken, { token: M.taken });
      throw error;
    }
  }

  /** Follows an undo link: the old address stays or comes back, the change ends, every session ends. */
  async undo(token: string): Promise<string> {
    const t = this.now();
    const row = await this.sql.transaction(async (tx) => {
      const found = await tx.get<ChangeRow>(
        `UPDATE email_changes SET ended_at = ? WHERE undo_hash = ? AND ended_at IS NULL AND undo_expires_at > ?
           RETURNING id, user_id, old_email, new_email`,
        [t, hashToken(token), t],
      );
      if (!found) throw invalidToken();
      await tx.run('UPDATE email_changes SET ended_at = ? WHERE user_id = ? AND ended_at IS NULL', [
        t,
        found.user_id,
      ]);
      await tx.run('UPDATE users SET email = ? WHERE id = ?', [found.old_email, found.user_id]);
      await voidResetLinks(tx, found.user_id, t);
      await this.sessions.revokeAllSessions(tx, found.user_id);
      return found;
    });
    this.sessions.forgetUser(row.user_id);
    return row.old_email;
  }
}

const invalidToken = () => new HttpError(400, M.invalidToken, { token: M.invalidToken });

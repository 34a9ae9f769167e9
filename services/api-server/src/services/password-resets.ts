import type { LimitSpec } from '@app/client-address/limit-spec';
import { MESSAGES, type ResetPassword } from '@app/contracts';
import { writeLogLine } from '@app/server-telemetry/log';
import type { Config } from '../config';
import type { Sql } from '../db/sql';
import { HttpError } from '../errors';
import type { Mailer } from '../mail/mailer';
import type { Passwords } from './passwords';
import type { SessionService } from './sessions';
import { hashToken, newToken } from './tokens';

/** A reset link works for this long (issue 34). */
export const RESET_VALID_MINUTES = 30;
const RESET_VALID_MS = RESET_VALID_MINUTES * 60_000;

/**
 * The forgot-password answer takes at least this long whether or not the email has an account: the known
 * path writes a token and a mail (a few ms), the unknown one writes nothing; the floor hides the difference.
 */
export const FORGOT_ANSWER_FLOOR_MS = 250;

/** What PasswordResets is told of the configuration (AccountService passes it). */
export interface ResetOptions {
  /** MAIL_RESET_PER_ACCOUNT: reset mails one account may be sent per window. */
  perAccount: LimitSpec;
  /** True without SMTP_URL: a reset mail waits in the outbox, and the operator's log says so. */
  mailOff: boolean;
  /** One line in the operator's log (stderr); nothing at LOG_LEVEL=silent. */
  warn: (line: Record<string, unknown>) => void;
}

/** ResetOptions from the configuration: warnings as JSON lines on stderr, like the server's own. */
export function resetOptions(config: Pick<Config, 'mail' | 'logLevel'>, now: () => number): ResetOptions {
  return {
    perAccount: config.mail.resetPerAccount,
    mailOff: !config.mail.smtpUrl,
    warn: (line) => {
      if (config.logLevel === 'silent') return;
      writeLogLine({ level: 'warn', time: new Date(now()).toISOString(), ...line }, 'stderr');
    },
  };
}

/**
 * Forgot and reset password (docs/decisions/0031-outbox-and-mail.md): a token of 32 random bytes, only its
 * SHA-256 stored, valid 30 minutes, used once; a new request voids the older unused ones of that account.
 * A completed reset ends every session of the account. At most MAIL_RESET_PER_ACCOUNT requests an hour
 * make a link (issue 46): past it a request does nothing at all, so a flood neither mails the owner nor
 * voids the link they already have, and it is answered like any other.
 */
export class PasswordResets {
  constructor(
    private readonly sql: Sql,
    private readonly passwords: Passwords,
    private readonly sessions: SessionService,
    private readonly mailer: Mailer,
    private readonly now: () => number,
    private readonly options: ResetOptions,
  ) {}

  /** Creates a token and enqueues its mail when `email` has an account; answers nothing either way. */
  async request(email: string): Promise<void> {
    const started = performance.now();
    try {
      const user = await this.sql.get<{ id: number; email: string; first_name: string }>(
        'SELECT id, email, first_name FROM users WHERE email = ?',
        [email.trim().toLowerCase()],
      );
      if (!user) return;
      const token = newToken();
      const t = this.now();
      const { limit, windowMs } = this.options.perAccount;
      const queued = await this.sql.transaction(async (tx) => {
        // Counted in the database under the account's key lock: every API instance agrees on the count.
        await tx.lock('password-reset', user.id);
        const recent = Number(
          (await tx.value<number>(
            'SELECT COUNT(*) FROM password_resets WHERE user_id = ? AND created_at > ?',
            [user.id, t - windowMs],
          )) ?? 0,
        );
        if (recent >= limit) return false;
        // Older links of this account stop working: only the newest mail counts.
        await voidResetLinks(tx, user.id, t);
        await tx.run(
          'INSERT INTO password_resets (user_id, token_hash, created_at, expires_at) VALUES (?, ?, ?, ?)',
          [user.id, hashToken(token), t, t + RESET_VALID_MS],
        );
        await this.mailer.passwordReset(tx, user, token, RESET_VALID_MINUTES);
        return true;
      });
      if (queued && this.options.mailOff) {
        // To the operator only: the requester's answer is the same whatever happens here.
        this.options.warn({
          msg: 'password reset mail not sent: mail is off (SMTP_URL is not set); it waits in the outbox, its link hidden there. Set SMTP_URL to deliver it.',
          userId: user.id,
        });
      }
    } finally {
      const left = FORGOT_ANSWER_FLOOR_MS - (performance.now() - started);
      if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
    }
  }

  /**
   * Sets the password if the token is known, unused and not expired, and uses it up in the same
   * transaction (a conditional UPDATE: two requests with one token, only one wins). Every session ends.
   */
  async reset(body: ResetPassword): Promise<void> {
    const tokenHash = hashToken(body.token);
    const t = this.now();
    const known = await this.sql.value<number>(
      'SELECT user_id FROM password_resets WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?',
      [tokenHash, t],
    );
    // Checked before argon2 so a wrong token costs no hash; checked again below, where it counts.
    if (known === undefined) throw invalidToken();
    const hash = await this.passwords.hash(body.password);
    const userId = await this.sql.transaction(async (tx) => {
      const id = await tx.value<number>(
        `UPDATE password_resets SET used_at = ? WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?
         RETURNING user_id`,
        [t, tokenHash, t],
      );
      if (id === undefined) throw invalidToken();
      await tx.run('UPDATE users SET password_hash = ? WHERE id = ?', [hash, id]);
      await this.sessions.revokeAllSessions(tx, id);
      return id;
    });
    this.sessions.forgetUser(userId);
  }
}

/** Every unused reset link of an account stops working (a newer one, an email change or its undo), in `tx`. */
export async function voidResetLinks(tx: Sql, userId: number, at: number): Promise<void> {
  await tx.run('UPDATE password_resets SET used_at = ? WHERE user_id = ? AND used_at IS NULL', [at, userId]);
}

const invalidToken = () =>
  new HttpError(400, MESSAGES.passwordReset.invalidToken, { token: MESSAGES.passwordReset.invalidToken });

import {
  OUTBOX_HIDDEN_SECRET,
  type OutboxMail,
  type OutboxPage,
  type OutboxStatus,
  type OutboxSummary,
} from '@app/contracts/outbox';
import type { Config } from '../config';
import type { Sql } from '../db/sql';
import type { SecretBox } from '../secret-box';
import { type RenderedMail, SECRET_SLOT } from './templates';

/** One outbox row as the sender sees it. */
export interface OutboxRow {
  id: number;
  kind: string;
  to_address: string;
  subject: string;
  /** The text part as stored: SECRET_SLOT where the mail's secret goes, never the secret. */
  text_body: string;
  html_body: string;
  /** The mail's secret sealed with the account key (SecretBox); null without one, and once sent or failed. */
  sealed_secret: string | null;
  created_at: number;
  status: OutboxStatus;
  attempts: number;
  next_attempt_at: number;
  last_error: string | null;
  sent_at: number | null;
  claimed_until: number | null;
}

/** What is due: pending and due, or claimed by a sender whose claim lapsed (it died mid-send). */
const DUE = `((status = 'pending' AND next_attempt_at <= @now) OR (status = 'sending' AND claimed_until < @now))`;

/** A stored body as administrators see it: the secret's slot shown as OUTBOX_HIDDEN_SECRET. */
export const redactedBody = (body: string) => body.split(SECRET_SLOT).join(OUTBOX_HIDDEN_SECRET);

/**
 * The outbox (docs/decisions/0031-outbox-and-mail.md): mail is a row, written with `enqueue` in the
 * transaction of what caused it, so a mail exists exactly when its cause was committed. The sender claims
 * due rows, one claim per row whatever the number of API instances, and records each attempt.
 * A mail's secret (a reset link's token) is never stored readable (issue 46, decision 0039): the bodies
 * keep SECRET_SLOT, the secret is sealed beside them, and only the sender opens it, at delivery; it is
 * cleared once the mail is sent or given up.
 */
export class Outbox {
  constructor(
    private readonly sql: Sql,
    private readonly mail: Config['mail'],
    private readonly now: () => number,
    private readonly secrets: SecretBox,
  ) {}

  /** Adds one mail through `tx` (the caller's transaction), due at once; its secret sealed, if it has one. */
  async enqueue(tx: Sql, to: string, m: RenderedMail): Promise<number> {
    const t = this.now();
    const sealed = m.secret === undefined ? null : this.secrets.seal(m.secret);
    return (await tx.value<number>(
      `INSERT INTO outbox (kind, to_address, subject, text_body, html_body, sealed_secret, created_at, status,
         attempts, next_attempt_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', 0, ?) RETURNING id`,
      [m.kind, to, m.subject, m.text, m.html, sealed, t, t],
    ))!;
  }

  /**
   * How many mails of `kind` went (or wait to go) to `to` since `since` (epoch ms), any letter case: what a
   * cap per address counts, in the database, so every API instance counts the same (issue 46).
   */
  async countTo(tx: Sql, to: string, kind: RenderedMail['kind'], since: number): Promise<number> {
    return Number(
      (await tx.value<number>(
        'SELECT COUNT(*) FROM outbox WHERE lower(to_address) = ? AND kind = ? AND created_at >= ?',
        [to.trim().toLowerCase(), kind, since],
      )) ?? 0,
    );
  }

  /**
   * Claims up to `limit` due mails for `claimMs`: each claim counts as an attempt (a mail that crashes its
   * sender still reaches the maximum). The WHERE is checked again by the UPDATE itself, so two instances
   * never claim one row: on SQLite writes are serial; on PostgreSQL the subquery skips rows another
   * transaction holds (FOR UPDATE SKIP LOCKED) and a row changed meanwhile no longer matches.
   */
  async claimDue(limit: number, claimMs: number): Promise<OutboxRow[]> {
    const t = this.now();
    const lock = this.sql.dialect === 'postgres' ? 'FOR UPDATE SKIP LOCKED' : '';
    return this.sql.all<OutboxRow>(
      `UPDATE outbox SET status = 'sending', claimed_until = @until, attempts = attempts + 1
       WHERE id IN (SELECT id FROM outbox WHERE ${DUE} ORDER BY next_attempt_at, id LIMIT @limit ${lock})
         AND ${DUE}
       RETURNING *`,
      { now: t, until: t + claimMs, limit },
    );
  }

  /** Gives back claimed rows that were not tried (a sender stopping): pending again, the claim's attempt undone. */
  async release(rows: OutboxRow[]): Promise<void> {
    for (const row of rows) {
      await this.sql.run(
        `UPDATE outbox SET status = 'pending', claimed_until = NULL, attempts = attempts - 1
         WHERE id = ? AND status = 'sending'`,
        [row.id],
      );
    }
  }

  /** Records a delivered mail and its attempt; its sealed secret is no longer needed, and goes. */
  async delivered(row: OutboxRow): Promise<void> {
    const t = this.now();
    await this.sql.transaction(async (tx) => {
      await tx.run('INSERT INTO outbox_attempts (outbox_id, at, ok, error) VALUES (?, ?, TRUE, NULL)', [
        row.id,
        t,
      ]);
      await tx.run(
        `UPDATE outbox SET status = 'sent', sent_at = ?, claimed_until = NULL, last_error = NULL,
           sealed_secret = NULL WHERE id = ?`,
        [t, row.id],
      );
    });
  }

  /**
   * Records a failed attempt: back to pending after the backoff, or failed after the last attempt (or at
   * once when `final`: a mail no retry can send), its sealed secret cleared then.
   */
  async attemptFailed(row: OutboxRow, error: string, final = false): Promise<void> {
    const t = this.now();
    const { retryBaseMs, retryFactor, retryMaxMs, maxAttempts } = this.mail;
    const last = final || row.attempts >= maxAttempts;
    const wait = Math.min(retryMaxMs, Math.round(retryBaseMs * retryFactor ** Math.max(0, row.attempts - 1)));
    const text = error.slice(0, 1000);
    await this.sql.transaction(async (tx) => {
      await tx.run('INSERT INTO outbox_attempts (outbox_id, at, ok, error) VALUES (?, ?, FALSE, ?)', [
        row.id,
        t,
        text,
      ]);
      await tx.run(
        `UPDATE outbox SET status = ?, next_attempt_at = ?, claimed_until = NULL, last_error = ?,
           sealed_secret = CASE WHEN ? = 1 THEN NULL ELSE sealed_secret END WHERE id = ?`,
        [last ? 'failed' : 'pending', last ? row.next_attempt_at : t + wait, text, last ? 1 : 0, row.id],
      );
    });
  }

  /**
   * The admin's page: newest first, each mail with its attempts. The bodies as stored, a secret's slot shown
   * as OUTBOX_HIDDEN_SECRET: the sealed secret is never read here.
   */
  async page(q: { status?: OutboxStatus; page: number; limit: number }): Promise<OutboxPage> {
    const where = q.status ? 'WHERE status = ?' : '';
    const filter = q.status ? [q.status] : [];
    const total = Number((await this.sql.value<number>(`SELECT COUNT(*) FROM outbox ${where}`, filter)) ?? 0);
    const rows = await this.sql.all<Omit<OutboxRow, 'sealed_secret' | 'claimed_until'>>(
      `SELECT id, kind, to_address, subject, text_body, html_body, status, attempts, created_at,
         next_attempt_at, sent_at, last_error
       FROM outbox ${where} ORDER BY id DESC LIMIT ? OFFSET ?`,
      [...filter, q.limit, (q.page - 1) * q.limit],
    );
    const attempts = rows.length
      ? await this.sql.all<{ outbox_id: number; at: number; ok: number; error: string | null }>(
          `SELECT outbox_id, at, ok, error FROM outbox_attempts WHERE outbox_id IN (${rows.map((r) => Number(r.id)).join(',')}) ORDER BY id`,
        )
      : [];
    const items: OutboxMail[] = rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      to: r.to_address,
      subject: r.subject,
      text: redactedBody(r.text_body),
      html: redactedBody(r.html_body),
      status: r.status,
      attempts: r.attempts,
      created_at: r.created_at,
      next_attempt_at: r.next_attempt_at,
      sent_at: r.sent_at,
      last_error: r.last_error,
      attempt_log: attempts
        .filter((a) => a.outbox_id === r.id)
        .map((a) => ({ at: a.at, ok: a.ok === 1, error: a.error })),
    }));
    return { items, total, page: q.page, limit: q.limit };
  }

  /**
   * What the outbox screen and the Admin menu warn with. Three small queries: the counts by one GROUP BY
   * (the status index), and the newest failed and the newest delivered attempt, each read backwards along
   * outbox_attempts' primary key until the first match (attempts are appended in time order).
   */
  async summary(): Promise<OutboxSummary> {
    const counts = { pending: 0, sending: 0, sent: 0, failed: 0 };
    const rows = await this.sql.all<{ status: OutboxStatus; n: number }>(
      'SELECT status, COUNT(*) AS n FROM outbox GROUP BY status',
    );
    for (const r of rows) if (r.status in counts) counts[r.status] = Number(r.n);
    const lastError = await this.sql.get<{ at: number; error: string | null }>(
      'SELECT at, error FROM outbox_attempts WHERE ok = FALSE ORDER BY id DESC LIMIT 1',
    );
    const lastSentAt = await this.sql.value<number>(
      'SELECT at FROM outbox_attempts WHERE ok = TRUE ORDER BY id DESC LIMIT 1',
    );
    return {
      smtpConfigured: Boolean(this.mail.smtpUrl),
      counts,
      lastError: lastError ? { at: Number(lastError.at), error: lastError.error ?? 'Unknown error' } : null,
      lastSentAt: lastSentAt == null ? null : Number(lastSentAt),
    };
  }
}

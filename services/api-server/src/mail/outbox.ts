import type { OutboxMail, OutboxPage, OutboxStatus, OutboxSummary } from '@app/contracts/outbox';
import type { Config } from '../config';
import type { Sql } from '../db/sql';
import { type RenderedMail, SECRET_SLOT } from './templates';

/** One outbox row as the sender sees it. */
export interface OutboxRow {
  id: number;
  kind: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
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

/**
 * The outbox (docs/decisions/0031-outbox-and-mail.md): mail is a row, written with `enqueue` in the
 * transaction of what caused it, so a mail exists exactly when its cause was committed. The sender claims
 * due rows, one claim per row whatever the number of API instances, and records each attempt.
 */
export class Outbox {
  constructor(
    private readonly sql: Sql,
    private readonly mail: Config['mail'],
    private readonly now: () => number,
  ) {}

  /** Adds one mail through `tx` (the caller's transaction), due at once. */
  async enqueue(tx: Sql, to: string, m: RenderedMail): Promise<number> {
    const t = this.now();
    // TODO(issue 46, in progress): seal the secret instead of writing it into the stored body.
    const put = (body: string) => (m.secret === undefined ? body : body.split(SECRET_SLOT).join(m.secret));
    return (await tx.value<number>(
      `INSERT INTO outbox (kind, to_address, subject, text_body, html_body, created_at, status, attempts, next_attempt_at)
       VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, ?) RETURNING id`,
      [m.kind, to, m.subject, put(m.text), put(m.html), t, t],
    ))!;
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

  /** Records a delivered mail and its attempt. */
  async delivered(row: OutboxRow): Promise<void> {
    const t = this.now();
    await this.sql.transaction(async (tx) => {
      await tx.run('INSERT INTO outbox_attempts (outbox_id, at, ok, error) VALUES (?, ?, 1, NULL)', [
        row.id,
        t,
      ]);
      await tx.run(
        `UPDATE outbox SET status = 'sent', sent_at = ?, claimed_until = NULL, last_error = NULL WHERE id = ?`,
        [t, row.id],
      );
    });
  }

  /** Records a failed attempt: back to pending after the backoff, or failed after the last attempt. */
  async attemptFailed(row: OutboxRow, error: string): Promise<void> {
    const t = this.now();
    const { retryBaseMs, retryFactor, retryMaxMs, maxAttempts } = this.mail;
    const last = row.attempts >= maxAttempts;
    const wait = Math.min(retryMaxMs, Math.round(retryBaseMs * retryFactor ** Math.max(0, row.attempts - 1)));
    const text = error.slice(0, 1000);
    await this.sql.transaction(async (tx) => {
      await tx.run('INSERT INTO outbox_attempts (outbox_id, at, ok, error) VALUES (?, ?, 0, ?)', [
        row.id,
        t,
        text,
      ]);
      await tx.run(
        `UPDATE outbox SET status = ?, next_attempt_at = ?, claimed_until = NULL, last_error = ? WHERE id = ?`,
        [last ? 'failed' : 'pending', last ? row.next_attempt_at : t + wait, text, row.id],
      );
    });
  }

  /** The admin's page: newest first, each mail with its attempts. */
  async page(q: { status?: OutboxStatus; page: number; limit: number }): Promise<OutboxPage> {
    const where = q.status ? 'WHERE status = ?' : '';
    const filter = q.status ? [q.status] : [];
    const total = Number((await this.sql.value<number>(`SELECT COUNT(*) FROM outbox ${where}`, filter)) ?? 0);
    const rows = await this.sql.all<OutboxRow>(
      `SELECT * FROM outbox ${where} ORDER BY id DESC LIMIT ? OFFSET ?`,
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
      text: r.text_body,
      html: r.html_body,
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
      'SELECT at, error FROM outbox_attempts WHERE ok = 0 ORDER BY id DESC LIMIT 1',
    );
    const lastSentAt = await this.sql.value<number>(
      'SELECT at FROM outbox_attempts WHERE ok = 1 ORDER BY id DESC LIMIT 1',
    );
    return {
      smtpConfigured: Boolean(this.mail.smtpUrl),
      counts,
      lastError: lastError ? { at: Number(lastError.at), error: lastError.error ?? 'Unknown error' } : null,
      lastSentAt: lastSentAt == null ? null : Number(lastSentAt),
    };
  }
}

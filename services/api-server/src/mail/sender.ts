import nodemailer from 'nodemailer';
import type { Config } from '../config';
import type { SecretBox } from '../secret-box';
import type { Outbox, OutboxRow } from './outbox';
import { SECRET_SLOT } from './templates';

/** How many due mails one round claims: small, so several instances share a burst. */
const BATCH = 10;

export type Deliver = (row: OutboxRow) => Promise<void>;

/** A mail no retry can send (its sealed secret does not open): recorded as failed at once. */
export class UndeliverableMail extends Error {}

/**
 * The mail's text and HTML parts as they go out: with its secret (a reset link's token) opened and put in
 * its slot, here at delivery and nowhere else (issue 46, docs/decisions/0039-account-secrets.md). Nothing of
 * it is kept: not in the row, not in a log line, not in the error recorded for a failed attempt.
 */
export function openMail(row: OutboxRow, secrets: SecretBox): { text: string; html: string } {
  if (row.sealed_secret == null) return { text: row.text_body, html: row.html_body };
  const secret = secrets.open(row.sealed_secret);
  if (secret === null) {
    throw new UndeliverableMail(
      'Its link cannot be opened: the account key (ACCOUNT_SECRET, or the account-secret file) is not the one it was sealed with',
    );
  }
  const put = (body: string) => body.split(SECRET_SLOT).join(secret);
  return { text: put(row.text_body), html: put(row.html_body) };
}

/**
 * Delivery over SMTP_URL with nodemailer; one transport (its connections) for the process. Each mail's
 * secret is opened with `secrets` as it is handed to the transport.
 */
export function smtpDeliver(mail: Config['mail'], secrets: SecretBox): { deliver: Deliver; close(): void } {
  const transport = nodemailer.createTransport({
    url: mail.smtpUrl!,
    connectionTimeout: mail.sendTimeoutMs,
    greetingTimeout: mail.sendTimeoutMs,
    socketTimeout: mail.sendTimeoutMs,
  });
  return {
    deliver: async (row) => {
      const { text, html } = openMail(row, secrets);
      await transport.sendMail({
        from: mail.from,
        to: row.to_address,
        subject: row.subject,
        text,
        html,
        headers: { 'X-Outbox-Id': String(row.id), 'X-Mail-Kind': row.kind },
      });
    },
    close: () => transport.close(),
  };
}

/**
 * The loop in the API process that empties the outbox (docs/decisions/0031-outbox-and-mail.md): every
 * MAIL_POLL_MS it claims due mail, delivers it one by one and records each attempt. Only started when
 * SMTP_URL is set; without it mail stays pending in the outbox for /api/admin/outbox. `stop()` (the SIGTERM
 * drain, through the context's close) lets the mail in hand finish and claims nothing more.
 */
export class MailSender {
  private timer: NodeJS.Timeout | null = null;
  private round: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly outbox: Outbox,
    private readonly mail: Config['mail'],
    private readonly deliver: Deliver,
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  start(): void {
    this.schedule(0);
  }

  /** Runs a round now (tests, and after an enqueue when delivery should not wait for the poll). */
  kick(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.round ??= this.runRound().finally(() => {
      this.round = null;
    });
    return this.round;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.round;
  }

  private schedule(ms: number) {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.kick().finally(() => this.schedule(this.mail.pollMs));
    }, ms);
    this.timer.unref();
  }

  private async runRound(): Promise<void> {
    try {
      // A claim outlives the slowest delivery (connect, greet, send): past it, another instance may retry.
      const claimMs = this.mail.sendTimeoutMs * 3;
      for (;;) {
        if (this.stopped) return;
        const rows = await this.outbox.claimDue(BATCH, claimMs);
        for (const [i, row] of rows.entries()) {
          if (this.stopped) {
            // Draining: what was claimed and not tried goes back, untouched, for the next instance.
            await this.outbox.release(rows.slice(i));
            return;
          }
          try {
            await this.deliver(row);
            await this.outbox.delivered(row);
          } catch (error) {
            await this.outbox.attemptFailed(row, errorText(error), error instanceof UndeliverableMail);
          }
        }
        if (rows.length < BATCH) return;
      }
    } catch (error) {
      // The database away (a restart): the rows stay claimed until their claim lapses, then go again.
      this.onError(error);
    }
  }
}

/** The SMTP answer when there is one ("550 … mailbox unavailable"), else the error's message. */
function errorText(error: unknown): string {
  const e = error as { response?: string; message?: string; code?: string };
  return e?.response || [e?.code, e?.message].filter(Boolean).join(': ') || String(error);
}

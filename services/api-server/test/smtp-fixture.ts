import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import type { Config } from '../src/config';
import { DEFAULT_CONFIG } from '../src/config';

/**
 * What the test SMTP server does with a message: take it, refuse every recipient (550), answer the message
 * with a temporary 421 (a busy server), or hang up.
 */
export type SmtpMode = 'accept' | 'refuse' | 'busy' | 'close';

export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  headers: ParsedMail['headers'];
}

/**
 * A real SMTP server for the tests (the `smtp-server` package speaks the protocol; `mailparser` reads what
 * arrived), on 127.0.0.1. No STARTTLS and no auth: nodemailer talks plain SMTP to it.
 */
export class TestSmtp {
  readonly received: ReceivedMail[] = [];
  /** Woken after each mail that arrives: what until() waits on. */
  private readonly arrivals = new Set<() => void>();
  mode: SmtpMode = 'accept';
  private server: SMTPServer;
  port = 0;

  constructor() {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onRcptTo: (_address, session, callback) => {
        if (this.mode === 'refuse') {
          return callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
        }
        if (this.mode === 'close') {
          (session as unknown as { _close?: () => void })._close?.();
          return this.dropAll(callback);
        }
        callback();
      },
      onData: (stream, _session, callback) => {
        if (this.mode === 'busy') {
          stream.resume();
          stream.on('end', () =>
            callback(Object.assign(new Error('Service busy, try again later'), { responseCode: 421 })),
          );
          return;
        }
        simpleParser(stream).then(
          (m) => {
            this.received.push({
              to: Array.isArray(m.to) ? m.to.map((t) => t.text).join(', ') : (m.to?.text ?? ''),
              subject: m.subject ?? '',
              text: m.text ?? '',
              html: typeof m.html === 'string' ? m.html : '',
              headers: m.headers,
            });
            for (const wake of [...this.arrivals]) wake();
            callback();
          },
          (error: Error) => callback(error),
        );
      },
    });
  }

  /** Hangs up every connection in the middle of the dialogue. */
  private dropAll(callback: (err?: Error) => void) {
    for (const c of (this.server as unknown as { connections: Set<{ close(): void }> }).connections)
      c.close();
    callback(new Error('closing'));
  }

  async listen(port = 0): Promise<this> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, '127.0.0.1', () => resolve());
    });
    this.port = (this.server.server.address() as AddressInfo).port;
    return this;
  }

  get url() {
    return `smtp://127.0.0.1:${this.port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** Mails to `to` so far (addresses compare lower-case). */
  to(to: string): ReceivedMail[] {
    return this.received.filter((m) => m.to.toLowerCase().includes(to.toLowerCase()));
  }

  /** Waits until a mail to `to` (and matching `subject`, when given) has arrived; returns the newest. */
  waitFor(to: string, subject?: RegExp, timeoutMs = 5000): Promise<ReceivedMail> {
    return this.until(
      () =>
        this.to(to)
          .filter((m) => !subject || subject.test(m.subject))
          .at(-1),
      timeoutMs,
    );
  }

  /**
   * Resolves with what `found` returns once it returns something (not undefined or false): checked now and
   * at each mail's arrival, the event, so nothing is polled. Rejects after `timeoutMs`.
   */
  until<T>(found: () => T | undefined | false, timeoutMs = 5000): Promise<T> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.arrivals.delete(check);
        reject(new Error(`TestSmtp: no such mail within ${timeoutMs} ms`));
      }, timeoutMs);
      const check = () => {
        const value = found();
        if (value === undefined || value === false) return;
        clearTimeout(timer);
        this.arrivals.delete(check);
        resolve(value);
      };
      this.arrivals.add(check);
      check();
    });
  }
}

/**
 * Polls `probe` until it returns something, or fails after `timeoutMs`: for the outbox's state as the admin
 * API reports it (a row's attempts and status), which has no event to wait on. A condition with a deadline,
 * every 25 ms; what arrives at the SMTP server is awaited with TestSmtp's until()/waitFor() instead.
 */
export async function waitUntil<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 5000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value as T;
    if (Date.now() > until) throw new Error('waitUntil: timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Fast mail settings for a test server pointed at `smtpUrl` (or none: mail stays in the outbox). */
export function mailConfig(smtpUrl: string | null, over: Partial<Config['mail']> = {}): Config['mail'] {
  return {
    ...DEFAULT_CONFIG.mail,
    smtpUrl,
    pollMs: 30,
    retryBaseMs: 150,
    retryFactor: 2,
    retryMaxMs: 10_000,
    maxAttempts: 3,
    sendTimeoutMs: 2000,
    ...over,
  };
}

/** The reset link's token in a mail's text (in the link's fragment: `/reset-password#token=…`). */
export function resetToken(mail: ReceivedMail): string {
  const m = /\/reset-password#token=([A-Za-z0-9_%-]+)/.exec(mail.text);
  if (!m?.[1]) throw new Error(`no reset link in: ${mail.text}`);
  return decodeURIComponent(m[1]);
}

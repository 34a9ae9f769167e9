import type { MarketAssessment } from '@app/contracts';
import type { Config } from '../config';
import type { Sql } from '../db/sql';
import type { Outbox } from './outbox';
import * as T from './templates';

/**
 * Which mail goes to whom, for the services: each method takes the caller's transaction, so the mail is
 * committed with its cause or not at all (docs/decisions/0031-outbox-and-mail.md).
 */
export class Mailer {
  constructor(
    readonly outbox: Outbox,
    private readonly config: Pick<Config, 'mail' | 'publicSiteUrl'>,
    private readonly now: () => number = Date.now,
  ) {}

  get siteUrl(): string {
    return this.config.publicSiteUrl;
  }

  /** Every active administrator's address, plus MAIL_ADMINS, once each. */
  private async admins(tx: Sql): Promise<string[]> {
    const fromDb = await tx.column<string>(
      `SELECT u.email FROM users u JOIN user_roles r ON r.user_id = u.id AND r.role = 'admin'
       WHERE u.is_active = TRUE ORDER BY u.id`,
    );
    return [...new Set([...fromDb, ...this.config.mail.admins].map((e) => e.toLowerCase()))];
  }

  private async toAdmins(tx: Sql, mail: T.RenderedMail) {
    for (const to of await this.admins(tx)) await this.outbox.enqueue(tx, to, mail);
  }

  /**
   * After a stored (not repeated) market assessment: the visitor, and administrators if they want a
   * consultation. The visitor's address is anyone's the form was given, unverified, so it gets at most
   * MAIL_ASSESSMENT_PER_ADDRESS of these mails (issue 46); past that only its mail is left out.
   */
  async assessmentReceived(tx: Sql, id: number, a: MarketAssessment) {
    const to = a.email.trim();
    const cap = this.config.mail.assessmentPerAddress;
    // Counted and added under the address's key lock: instances at once never send past the cap together.
    await tx.lock('mail-to', to.toLowerCase());
    const sent = await this.outbox.countTo(tx, to, 'assessment-received', this.now() - cap.windowMs);
    if (sent < cap.limit) await this.outbox.enqueue(tx, to, T.assessmentReceived(a));
    if (a.consultationInterest) await this.toAdmins(tx, T.consultationRequested(a, id, this.siteUrl));
  }

  /** A registration that waits for activation. */
  async registrationWaiting(tx: Sql, u: { username: string; email: string; from: string | null }) {
    await this.toAdmins(tx, T.registrationWaiting(u, this.siteUrl));
  }

  async accountActivated(tx: Sql, u: { email: string; first_name: string; username: string }) {
    await this.outbox.enqueue(tx, u.email, T.accountActivated(u, this.siteUrl));
  }

  async passwordReset(
    tx: Sql,
    u: { email: string; first_name: string },
    token: string,
    validMinutes: number,
  ) {
    // The token in the fragment: browsers never send it, so no server, proxy or Referer ever logs it (issue 46).
    const url = `${this.siteUrl}/reset-password#token=${T.SECRET_SLOT}`;
    await this.outbox.enqueue(tx, u.email, T.passwordReset(u, url, validMinutes, encodeURIComponent(token)));
  }

  /** An email change (issue 46): the confirmation link to the new address, the undo link to the old one. */
  async emailChange(
    tx: Sql,
    u: { email: string; first_name: string },
    newEmail: string,
    tokens: { confirm: string; undo: string },
    valid: { confirmHours: number; undoDays: number },
  ) {
    const confirmUrl = `${this.siteUrl}/confirm-email#token=${T.SECRET_SLOT}`;
    const undoUrl = `${this.siteUrl}/undo-email-change#token=${T.SECRET_SLOT}`;
    await this.outbox.enqueue(
      tx,
      newEmail,
      T.emailChangeConfirm(u, confirmUrl, valid.confirmHours, encodeURIComponent(tokens.confirm)),
    );
    await this.outbox.enqueue(
      tx,
      u.email,
      T.emailChangeNotice(u, newEmail, undoUrl, valid.undoDays, encodeURIComponent(tokens.undo)),
    );
  }
}

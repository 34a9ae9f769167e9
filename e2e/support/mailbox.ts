import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server on the port playwright.config.ts points the API at (SMTP_URL, E2E_SMTP_PORT): what the
 * product sends arrives here, parsed, and a spec reads it like a mailbox (issue 34). `state.accept = false`
 * refuses every recipient with 550, as a mail server that will not take the mail.
 */
export const SMTP_PORT = Number(process.env.E2E_SMTP_PORT ?? 2525);

export interface Mailbox {
  inbox: ParsedMail[];
  state: { accept: boolean };
  listen(): Promise<void>;
  close(): Promise<void>;
}

export function mailbox({ accept = true }: { accept?: boolean } = {}): Mailbox {
  const inbox: ParsedMail[] = [];
  const state = { accept };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (state.accept) return callback();
      callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
    },
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) => {
          inbox.push(mail);
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  return {
    inbox,
    state,
    listen: () =>
      new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(SMTP_PORT, '127.0.0.1', () => resolve());
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Every recipient of a parsed mail, as one text. */
export const recipients = (mail: ParsedMail) =>
  (Array.isArray(mail.to) ? mail.to : [mail.to]).map((a) => a?.text ?? '').join(',');

/** The mails to `address` whose subject matches. */
export const mailsTo = (inbox: readonly ParsedMail[], address: string, subject: RegExp) =>
  inbox.filter(
    (m) => recipients(m).toLowerCase().includes(address.toLowerCase()) && subject.test(m.subject ?? ''),
  );

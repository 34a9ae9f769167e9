import {
  CHALLENGES,
  COMMUNICATION_METHODS,
  COMPANY_SIZES,
  INDUSTRIES,
  type MarketAssessment,
  MESSAGES,
  URGENCIES,
} from '@app/contracts';

/**
 * Every mail the product sends, in one place (issue 34): plain text plus a simple HTML part. Every value a
 * user gave (names, company, email, anything from a form) goes through `esc` in the HTML part; the text part
 * is plain text and needs no escaping. Subjects never carry user values (a header is no place for them).
 */
export interface RenderedMail {
  kind: MailKind;
  subject: string;
  text: string;
  html: string;
  /**
   * A value that must never be stored readable (a reset or confirmation token): the text and HTML parts
   * carry SECRET_SLOT where it goes, and only the sender puts it in (issue 46).
   */
  secret?: string;
}

/** Where a mail's secret goes in its text and HTML parts (RenderedMail.secret). */
export const SECRET_SLOT = '{{secret}}';

export type MailKind =
  | 'assessment-received'
  | 'admin-registration-waiting'
  | 'admin-consultation-requested'
  | 'account-activated'
  | 'password-reset'
  | 'email-change-confirm'
  | 'email-change-notice';

const SITE = MESSAGES.app.companyName;

/** HTML-escapes a value for text and for attribute values in double quotes. */
export function esc(value: unknown): string {
  return String(value ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** One HTML document around paragraphs (already escaped by the caller through `p` and `link`). */
function page(title: string, body: string[]): string {
  return [
    '<!doctype html><html><head><meta charset="utf-8">',
    `<title>${esc(title)}</title></head>`,
    '<body style="font-family:Arial,Helvetica,sans-serif;line-height:1.5;color:#1f2937;max-width:600px">',
    ...body,
    `<p style="color:#6b7280;font-size:12px">${esc(SITE)}</p>`,
    '</body></html>',
  ].join('\n');
}

const p = (text: string) => `<p>${esc(text)}</p>`;
const link = (href: string, label: string) => `<p><a href="${esc(href)}">${esc(label)}</a></p>`;
const list = (items: string[]) => `<ul>${items.map((i) => `<li>${esc(i)}</li>`).join('')}</ul>`;

const footer = `\n\n-- \n${SITE}\n`;

/** Greets by first name when one was given, else neutrally. */
const hello = (first: string | undefined | null) => (first?.trim() ? `Hello ${first.trim()},` : 'Hello,');

/** (a) To the visitor after a market assessment: what they asked for and what happens next. */
export function assessmentReceived(a: MarketAssessment): RenderedMail {
  const method = a.communicationMethod
    ? COMMUNICATION_METHODS.labels[a.communicationMethod as keyof typeof COMMUNICATION_METHODS.labels]
    : 'Email only';
  const asked = [
    `Company size: ${COMPANY_SIZES.labels[a.companySize as keyof typeof COMPANY_SIZES.labels] ?? a.companySize}`,
    `Industry: ${INDUSTRIES.labels[a.industry as keyof typeof INDUSTRIES.labels] ?? a.industry}`,
    `Main challenges: ${(a.primaryChallenges ?? []).map((c) => CHALLENGES.labels[c as keyof typeof CHALLENGES.labels] ?? c).join(', ')}`,
    `Preferred communication: ${method}`,
    `Free consultation: ${a.consultationInterest ? 'yes, please' : 'not requested'}`,
  ];
  const next = a.consultationInterest
    ? `A consultant will contact you at ${a.email}${a.phone?.trim() ? ` or ${a.phone.trim()}` : ''} within two business days to arrange your free consultation (${method}).`
    : 'Your premium risk assessments for the topics you chose will follow by email. You can request a free consultation at any time by replying to this mail.';
  const subject = `Your market assessment with ${SITE}`;
  const intro = 'Thank you for completing the market assessment. This is what you told us:';
  return {
    kind: 'assessment-received',
    subject,
    text: `${hello(a.firstName)}\n\n${intro}\n\n${asked.map((l) => `- ${l}`).join('\n')}\n\nWhat happens next: ${next}${footer}`,
    html: page(subject, [p(hello(a.firstName)), p(intro), list(asked), p(`What happens next: ${next}`)]),
  };
}

/** (b) To administrators: a new registration is waiting for activation. */
export function registrationWaiting(
  u: { username: string; email: string; from: string | null },
  siteUrl: string,
): RenderedMail {
  const subject = 'A new registration is waiting for activation';
  const lines = [`Username: ${u.username}`, `Email: ${u.email}`, `Registered from: ${u.from ?? 'unknown'}`];
  const how = `Activate or reject it in the browser: ${siteUrl}/admin/members`;
  return {
    kind: 'admin-registration-waiting',
    subject,
    text: `Someone registered and waits for an administrator:\n\n${lines.map((l) => `- ${l}`).join('\n')}\n\n${how}${footer}`,
    html: page(subject, [p('Someone registered and waits for an administrator:'), list(lines), p(how)]),
  };
}

/** (b) To administrators: a visitor asked for a free consultation. */
export function consultationRequested(
  a: MarketAssessment,
  assessmentId: number,
  siteUrl: string,
): RenderedMail {
  const subject = 'A free consultation was requested';
  const name = [a.firstName, a.lastName].filter((s) => s?.trim()).join(' ') || '(no name given)';
  const method = a.communicationMethod
    ? COMMUNICATION_METHODS.labels[a.communicationMethod as keyof typeof COMMUNICATION_METHODS.labels]
    : 'not given';
  const lines = [
    `Name: ${name}`,
    `Company: ${a.company?.trim() || '(not given)'}`,
    `Email: ${a.email}`,
    `Phone: ${a.phone?.trim() || '(not given)'}`,
    `Preferred communication: ${method}`,
    `Urgency: ${a.urgency ? (URGENCIES.labels[a.urgency as keyof typeof URGENCIES.labels] ?? a.urgency) : '(not given)'}`,
    `Lead: ${siteUrl}/admin/leads?lead=${assessmentId}`,
    `Assessment id: ${assessmentId}`,
  ];
  return {
    kind: 'admin-consultation-requested',
    subject,
    text: `A visitor completed the market assessment and asked for a free consultation:\n\n${lines.map((l) => `- ${l}`).join('\n')}${footer}`,
    html: page(subject, [
      p('A visitor completed the market assessment and asked for a free consultation:'),
      list(lines),
    ]),
  };
}

/** (c) To a member when their account is activated. */
export function accountActivated(u: { first_name: string; username: string }, siteUrl: string): RenderedMail {
  const subject = `Your ${SITE} account is active`;
  const body = `Your account "${u.username}" has been activated by an administrator. You can log in now:`;
  const url = `${siteUrl}/login`;
  return {
    kind: 'account-activated',
    subject,
    text: `${hello(u.first_name)}\n\n${body}\n${url}${footer}`,
    html: page(subject, [p(hello(u.first_name)), p(body), link(url, 'Log in')]),
  };
}

/** (d) The password reset link (valid 30 minutes, once). */
export function passwordReset(
  u: { first_name: string },
  resetUrl: string,
  validMinutes: number,
  secret: string,
): RenderedMail {
  const subject = `Reset your ${SITE} password`;
  const body = `Someone (hopefully you) asked to reset the password of your account. The link below lets you choose a new one. It works once and expires in ${validMinutes} minutes.`;
  const ignore = 'If you did not ask for this, ignore this mail: your password stays as it is.';
  return {
    kind: 'password-reset',
    secret,
    subject,
    text: `${hello(u.first_name)}\n\n${body}\n\n${resetUrl}\n\n${ignore}${footer}`,
    html: page(subject, [
      p(hello(u.first_name)),
      p(body),
      link(resetUrl, 'Choose a new password'),
      p(ignore),
    ]),
  };
}

/** (e) To the new address of an email change: the link that makes it take effect (issue 46). */
export function emailChangeConfirm(
  u: { first_name: string },
  confirmUrl: string,
  validHours: number,
  secret: string,
): RenderedMail {
  const subject = `Confirm your new ${SITE} email address`;
  const body = `You asked to use this address for your ${SITE} account. The change takes effect when you follow the link below. It works once and expires in ${validHours} hours.`;
  const ignore = 'If you did not ask for this, ignore this mail: nothing changes.';
  return {
    kind: 'email-change-confirm',
    secret,
    subject,
    text: `${hello(u.first_name)}\n\n${body}\n\n${confirmUrl}\n\n${ignore}${footer}`,
    html: page(subject, [
      p(hello(u.first_name)),
      p(body),
      link(confirmUrl, 'Confirm the new address'),
      p(ignore),
    ]),
  };
}

/** (f) To the old address of an email change: what was asked, and a way to undo it (issue 46). */
export function emailChangeNotice(
  u: { first_name: string },
  newEmail: string,
  undoUrl: string,
  validDays: number,
  secret: string,
): RenderedMail {
  const subject = `The email address of your ${SITE} account is changing`;
  const body = `Someone signed in to your account asked to change its email address to ${newEmail}. It changes when that address confirms.`;
  const undo = `If this was not you, undo it with the link below (it works for ${validDays} days): your address stays or comes back, every session of the account ends, and you can then choose a new password.`;
  return {
    kind: 'email-change-notice',
    secret,
    subject,
    text: `${hello(u.first_name)}\n\n${body}\n\n${undo}\n${undoUrl}${footer}`,
    html: page(subject, [p(hello(u.first_name)), p(body), p(undo), link(undoUrl, 'Undo the change')]),
  };
}

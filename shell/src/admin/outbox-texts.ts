import { formatDate } from '@app/contracts';

/** The outbox screen's words (SPEC, "Admin: Outbox"), in one place for the page and its tests. */
export const OUTBOX_TEXTS = {
  title: 'Outbox',
  adminOnly: 'Administrators only',
  loadError: 'The outbox could not be loaded',
  noSmtp:
    'No SMTP server is configured (SMTP_URL): mail stays here. This is every mail the product would send.',
  failing: (error: string, at: string, waiting: number, failed: number) =>
    `Mail is not being delivered: ${error} (at ${at}). ${waiting} ${waiting === 1 ? 'mail' : 'mails'} waiting, ${failed} failed. They will be retried.`,
  working: (at: string | null) =>
    at ? `Delivery is working; last mail sent ${at}.` : 'Delivery is working; no mail has been sent yet.',
  failedKept: (n: number) => `${n} ${n === 1 ? 'mail' : 'mails'} failed after every attempt; see Failed.`,
  empty: 'No mail here.',
  /** Issue 46: a reset link's token is never stored readable, so never shown (decision 0039). */
  hiddenLink:
    'This mail carries a one-time link, shown here as [link hidden]: it is kept sealed and only put into the mail as it is sent, so nobody can use it from here.',
  back: 'Back to the list',
} as const;

export const STATUS_LABELS = {
  pending: 'Pending',
  sending: 'Sending',
  sent: 'Sent',
  failed: 'Failed',
} as const;

const two = (n: number) => String(n).padStart(2, '0');

/** An epoch-ms time as the screen shows it: SPEC §9's date and the local time ('Nov 21, 2026 14:05:09'). */
export function formatTime(ms: number | null): string {
  if (ms === null) return '—';
  const d = new Date(ms);
  return `${formatDate(d.toISOString())} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

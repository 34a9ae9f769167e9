import { MESSAGES } from './messages';

// Dates and counts as every screen shows them. One formatter for every screen: the three remotes used to
// carry their own copies, which disagreed on a blank value and on what to show for a bad one (issue 13).
//
// Written out rather than asked of Intl: the first `Intl.DateTimeFormat` (or `toLocaleString('en-US')`)
// loads ICU locale data on the main thread, about 17 ms on this machine's Chromium and 4x that on
// Lighthouse's slow phone, inside the task that renders the first list of cards (issue 16). The format is
// fixed (SPEC §9 names one locale), so it needs none: format.test.ts checks it against Intl.

/** Months as US English abbreviates them ('Jan' … 'Dec'), by `Date.getMonth()`. */
export const SHORT_MONTHS = [
  'Jan',
  'Feb',
  'Mar',
  'Apr',
  'May',
  'Jun',
  'Jul',
  'Aug',
  'Sep',
  'Oct',
  'Nov',
  'Dec',
];

/**
 * SPEC §9: dates show in short US format ('Nov 21, 2026', in the reader's time zone), 'No date' when the
 * value is absent or blank, 'Invalid date' when it cannot be read as a date.
 */
export function formatDate(value: string | null | undefined): string {
  if (value === null || value === undefined || value.trim() === '') return MESSAGES.research.noDate;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return MESSAGES.research.invalidDate;
  const year = date.getFullYear();
  // Intl writes years before 1 AD as '1 BC' and so on; no post or survey can carry one, but stay exact.
  const yearText = year > 0 ? String(year) : `${1 - year} BC`;
  return `${SHORT_MONTHS[date.getMonth()]} ${date.getDate()}, ${yearText}`;
}

/**
 * A count as US English writes it ('12,345'), for views and statistics: what `n.toLocaleString('en-US')`
 * gives, without its cost (above). Fractions are not counts and still go to Intl.
 */
export function formatCount(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en-US');
  const digits = String(Math.abs(n)).replace(/\B(?=(\d{3})+$)/g, ',');
  return n < 0 ? `-${digits}` : digits;
}

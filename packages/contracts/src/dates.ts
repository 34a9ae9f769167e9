import { MESSAGES } from './messages';

// One formatter for every screen: the three remotes used to carry their own copies, which disagreed on a
// blank value and on what to show for a bad one (issue 13).
// Created on first use: building an Intl formatter loads locale data, tens of milliseconds on a slow phone,
// and this module is evaluated while the page starts, long before any date is shown.
let shortUsDate: Intl.DateTimeFormat | undefined;

/**
 * SPEC §9: dates show in short US format ('Nov 21, 2026', in the reader's time zone), 'No date' when the
 * value is absent or blank, 'Invalid date' when it cannot be read as a date.
 */
export function formatDate(value: string | null | undefined): string {
  if (value === null || value === undefined || value.trim() === '') return MESSAGES.research.noDate;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return MESSAGES.research.invalidDate;
  shortUsDate ??= new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
  return shortUsDate.format(date);
}

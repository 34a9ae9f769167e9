import { MESSAGES } from '@app/contracts';

/** SPEC §9: dates in short US format, or 'No date' / 'Invalid date'. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return MESSAGES.research.noDate;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return MESSAGES.research.invalidDate;
  return date.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
}

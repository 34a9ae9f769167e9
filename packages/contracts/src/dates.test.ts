import { describe, expect, it } from 'vitest';
import { formatDate } from './dates';
import { MESSAGES } from './messages';

describe('formatDate (SPEC §9)', () => {
  it('shows a valid ISO date in short US format', () => {
    expect(formatDate('2026-11-21T12:00:00.000Z')).toBe('Nov 21, 2026');
    expect(formatDate('2026-03-05T12:00:00Z')).toBe('Mar 5, 2026');
  });

  it("shows 'No date' for a missing or blank value", () => {
    expect(formatDate(null)).toBe(MESSAGES.research.noDate);
    expect(formatDate(undefined)).toBe('No date');
    expect(formatDate('')).toBe('No date');
    expect(formatDate('  ')).toBe('No date');
  });

  it("shows 'Invalid date' for a value that is not a date", () => {
    expect(formatDate('not a date')).toBe(MESSAGES.research.invalidDate);
    expect(formatDate('2026-13-45')).toBe('Invalid date');
  });
});

import { describe, expect, it } from 'vitest';
import { formatCount, formatDate } from './format';
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

  it('writes every day exactly as Intl en-US does, in the reader time zone', () => {
    const intl = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
    const start = Date.UTC(1999, 11, 25);
    for (let day = 0; day < 366 * 3; day += 1) {
      const date = new Date(start + day * 86_400_000 + 13 * 3_600_000);
      expect(formatDate(date.toISOString())).toBe(intl.format(date));
    }
    for (const iso of ['0999-06-01T12:00:00Z', '9999-12-31T12:00:00Z', '2026-01-01T00:00:00Z']) {
      expect(formatDate(iso)).toBe(intl.format(new Date(iso)));
    }
  });
});

describe('formatCount', () => {
  it('groups thousands exactly as Intl en-US does', () => {
    for (const n of [
      0, 1, 7, 42, 999, 1000, 1001, 12_345, 999_999, 1_000_000, 123_456_789, -1, -1234, -999_999,
    ]) {
      expect(formatCount(n)).toBe(n.toLocaleString('en-US'));
    }
    expect(formatCount(1234)).toBe('1,234');
    expect(formatCount(1234.5678)).toBe('1,234.568');
  });
});

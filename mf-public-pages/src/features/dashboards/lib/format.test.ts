import type { DashboardIndicator } from '@app/contracts';
import { formatPeriod, formatValue, niceTicks, summarize } from './format';

const series = (unit: string, values: number[], title = 'Freight rate'): DashboardIndicator => ({
  id: 'x',
  title,
  unit,
  description: '',
  points: values.map((value, i) => ({ period: `2025-${String(i + 4).padStart(2, '0')}`, value })),
});

describe('formatValue and formatPeriod', () => {
  it('writes % after the number, other units after a space, an index bare', () => {
    expect(formatValue(18.25, '%')).toBe('18.3%');
    expect(formatValue(2850, 'USD')).toBe('2,850 USD');
    expect(formatValue(-6, '')).toBe('-6');
  });

  it('names the month', () => {
    expect(formatPeriod('2025-04')).toBe('Apr 2025');
    expect(formatPeriod('2026-12', 'short')).toBe("Dec '26");
    expect(formatPeriod('Q1 2026')).toBe('Q1 2026');
  });
});

describe('summarize', () => {
  it('says where the series went, by how much, and its high and low', () => {
    expect(summarize(series('USD', [2850, 5240, 3180]))).toBe(
      'Freight rate rose from 2,850 USD in Apr 2025 to 3,180 USD in Jun 2025, up 330 USD. ' +
        'Highest: 5,240 USD in May 2025. Lowest: 2,850 USD in Apr 2025.',
    );
  });

  it('speaks of percentage points for a share, and of a fall', () => {
    expect(summarize(series('%', [7.5, 6.4], 'Suppliers in distress'))).toBe(
      'Suppliers in distress fell from 7.5% in Apr 2025 to 6.4% in May 2025, down 1.1 percentage points. ' +
        'Highest: 7.5% in Apr 2025. Lowest: 6.4% in May 2025.',
    );
  });

  it('says "1 day" rather than "1 days"', () => {
    expect(summarize(series('days', [41, 42], 'Lead times'))).toMatch(/, up 1 day\. /);
    expect(summarize(series('%', [6, 7], 'Share'))).toMatch(/, up 1 percentage point\. /);
  });

  it('handles a flat series, one point and no points', () => {
    expect(summarize(series('', [50, 52, 50], 'Demand index'))).toMatch(
      /^Demand index was 50 in both Apr 2025 and Jun 2025\. Highest: 52 in May 2025\./,
    );
    expect(summarize(series('days', [41], 'Lead times'))).toBe('Lead times was 41 days in Apr 2025.');
    expect(summarize(series('', [], 'Empty'))).toBe('Empty: no data yet.');
  });
});

describe('niceTicks', () => {
  it('covers the range with round steps', () => {
    expect(niceTicks(2850, 5240)).toEqual([2000, 3000, 4000, 5000, 6000]);
    expect(niceTicks(-6, 11)).toEqual([-10, -5, 0, 5, 10, 15]);
    expect(niceTicks(6.1, 7.8)).toEqual([6, 6.5, 7, 7.5, 8]);
  });

  it('gives a flat series a range around its value', () => {
    const ticks = niceTicks(50, 50);
    expect(ticks[0]).toBeLessThan(50);
    expect(ticks.at(-1)).toBeGreaterThan(50);
  });
});

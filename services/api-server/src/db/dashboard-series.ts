import type { DashboardIndicator } from '@app/contracts';

/**
 * Demo series for the seeded dashboards: twelve months each, written out by hand so every chart tells a
 * plausible story (a freight spike that eases, phishing that climbs). Stored in site_records under
 * `dashboard:<slug>` by seedBase, and served by GET /api/dashboards/{slug}.
 */
const FIRST_MONTH = { year: 2025, month: 4 };

function months(count: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    const m = FIRST_MONTH.month - 1 + i;
    const year = FIRST_MONTH.year + Math.floor(m / 12);
    return `${year}-${String((m % 12) + 1).padStart(2, '0')}`;
  });
}

function indicator(
  id: string,
  title: string,
  unit: string,
  description: string,
  values: readonly number[],
): DashboardIndicator {
  const periods = months(values.length);
  return { id, title, unit, description, points: values.map((value, i) => ({ period: periods[i]!, value })) };
}

export const DASHBOARD_SERIES: Readonly<Record<string, readonly DashboardIndicator[]>> = {
  'risk-radar': [
    indicator(
      'composite-risk',
      'Composite risk index',
      '',
      'Operational, financial and cyber risk for mid-sized companies combined; 100 is the five-year average.',
      [96, 98, 101, 104, 103, 107, 111, 109, 113, 116, 114, 118],
    ),
    indicator(
      'late-payments',
      'Invoices paid late',
      '%',
      'Share of business-to-business invoices settled more than 30 days after the due date.',
      [18.2, 18.9, 19.4, 19.1, 20.3, 21.0, 21.8, 22.4, 22.1, 23.0, 23.6, 23.2],
    ),
    indicator(
      'insolvencies',
      'Company insolvencies',
      'filings',
      'Insolvency filings by companies with 10 to 500 employees in our eight core industries.',
      [412, 398, 431, 445, 438, 467, 489, 472, 501, 518, 507, 496],
    ),
  ],
  'market-pulse': [
    indicator(
      'demand',
      'Demand index',
      '',
      'New orders reported by our member panel across nine industries; above 50 means growing demand.',
      [48.6, 49.1, 50.4, 51.2, 50.8, 52.3, 53.1, 52.7, 51.9, 53.4, 54.0, 54.6],
    ),
    indicator(
      'prices',
      'Selling prices',
      '%',
      'Change in average selling prices compared with the same month a year earlier.',
      [3.8, 3.6, 3.3, 3.1, 3.2, 2.9, 2.7, 2.8, 2.6, 2.4, 2.5, 2.3],
    ),
    indicator(
      'sentiment',
      'Business sentiment',
      '',
      'Balance of owners expecting better rather than worse business in the next six months.',
      [-6, -4, -5, -2, 1, 3, 2, 5, 7, 6, 9, 11],
    ),
  ],
  'supply-chain-monitor': [
    indicator(
      'lead-times',
      'Supplier lead times',
      'days',
      'Average time from order to delivery for key industrial inputs.',
      [41, 43, 47, 52, 55, 53, 50, 48, 46, 45, 44, 42],
    ),
    indicator(
      'freight',
      'Container freight rate',
      'USD',
      'Spot price for a 40-foot container from East Asia to Northern Europe.',
      [2850, 3120, 3980, 4710, 5240, 4960, 4380, 3920, 3610, 3400, 3250, 3180],
    ),
    indicator(
      'distress',
      'Suppliers in distress',
      '%',
      'Share of tracked suppliers with overdue filings, rating downgrades or payment defaults.',
      [6.1, 6.4, 6.9, 7.5, 7.8, 7.6, 7.2, 7.0, 6.8, 6.9, 6.6, 6.4],
    ),
  ],
  'threat-landscape': [
    indicator(
      'phishing',
      'Phishing campaigns',
      'campaigns',
      'Distinct phishing campaigns aimed at small and mid-sized businesses that our analysts tracked.',
      [184, 196, 205, 221, 238, 247, 263, 281, 276, 294, 312, 329],
    ),
    indicator(
      'ransomware',
      'Ransomware attacks',
      'attacks',
      'Publicly reported ransomware attacks on companies with fewer than 500 employees.',
      [58, 63, 61, 70, 74, 69, 77, 82, 79, 85, 81, 88],
    ),
    indicator(
      'invoice-fraud',
      'Invoice fraud cases',
      'cases',
      'Fake invoices and changed bank details reported by our member panel.',
      [37, 35, 41, 44, 39, 46, 52, 49, 55, 53, 58, 61],
    ),
  ],
};

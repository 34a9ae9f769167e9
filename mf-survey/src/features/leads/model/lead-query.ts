import { LEAD_FILTER_KEYS, type LeadFilters, LeadFiltersSchema } from '@app/contracts/leads';
import * as v from 'valibot';

/** Rows per page: the API's default, small enough that any of 4,000 pages (100,000 leads) answers fast. */
export const LEADS_PER_PAGE = 25;

export const NO_FILTERS: LeadFilters = v.parse(LeadFiltersSchema, {});

/** What the address says the screen shows: the filters, the page and the open lead. */
export interface LeadQuery {
  filters: LeadFilters;
  page: number;
  lead: number | null;
}

const positive = (raw: string | null): number | null =>
  raw !== null && /^\d{1,9}$/.test(raw) && Number(raw) >= 1 ? Number(raw) : null;

/**
 * Reads the query the screen keeps in the address. A value the API would refuse (a hand-edited or outdated
 * link) is dropped rather than shown as an error: the table then shows what it can.
 */
export function readLeadQuery(params: URLSearchParams): LeadQuery {
  const filters = { ...NO_FILTERS };
  for (const key of LEAD_FILTER_KEYS) {
    const entry = LeadFiltersSchema.entries[key];
    const parsed = v.safeParse(entry, params.get(key) ?? undefined);
    if (parsed.success) (filters as Record<string, string>)[key] = parsed.output;
  }
  return { filters, page: positive(params.get('page')) ?? 1, lead: positive(params.get('lead')) };
}

/** The non-empty filters as query parameters: the same for the list, the CSV and the address. */
export function filterParams(filters: LeadFilters): Record<string, string> {
  return Object.fromEntries(
    LEAD_FILTER_KEYS.filter((key) => filters[key] !== '').map((key) => [key, filters[key]]),
  );
}

/** The address for a query; page 1 and no lead are left out, so the plain screen is plain /admin/leads. */
export function leadQuerySearch({ filters, page, lead }: LeadQuery): string {
  const params = new URLSearchParams(filterParams(filters));
  if (page > 1) params.set('page', String(page));
  if (lead !== null) params.set('lead', String(lead));
  const search = params.toString();
  return search ? `?${search}` : '';
}

export const hasFilters = (filters: LeadFilters): boolean =>
  LEAD_FILTER_KEYS.some((key) => filters[key] !== '');

export const pageCount = (total: number, limit: number): number => Math.max(1, Math.ceil(total / limit));

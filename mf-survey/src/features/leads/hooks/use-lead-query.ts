import type { LeadFilters } from '@app/contracts/leads';
import { useLocation, useNavigate, useSearchParams } from '@app/router';
import { useMemo } from 'react';
import { type LeadQuery, leadQuerySearch, NO_FILTERS, readLeadQuery } from '../model/lead-query';

/**
 * The screen's state lives in the address (filters, page, open lead), so a reload, a shared link and the
 * browser's Back show the same leads. Every change is a new history entry: Back undoes it.
 */
export function useLeadQuery() {
  const [params] = useSearchParams();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const query = useMemo(() => readLeadQuery(params), [params]);
  const go = (next: LeadQuery) => navigate({ pathname, search: leadQuerySearch(next) });
  return {
    ...query,
    /** A new filter starts again at page 1: the old page number means nothing in another list. */
    setFilter: <K extends keyof LeadFilters>(key: K, value: LeadFilters[K]) =>
      go({ filters: { ...query.filters, [key]: value }, page: 1, lead: null }),
    clearFilters: () => go({ filters: NO_FILTERS, page: 1, lead: null }),
    setPage: (page: number) => go({ ...query, page, lead: null }),
    /** The address of a lead's detail over the current list (a link: it opens in a new tab too). */
    leadSearch: (lead: number) => leadQuerySearch({ ...query, lead }),
    closeLead: () => go({ ...query, lead: null }),
  };
}

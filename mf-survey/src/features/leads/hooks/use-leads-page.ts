import type { LeadFilters } from '@app/contracts/leads';
import { useServerState } from '@app/server-state';
import { fetchLeadsPage } from '../api/leads-api';
import { leadQuerySearch } from '../model/lead-query';

/** One page of leads for the filters; asked again whenever they or the page change (the older answer is dropped). */
export function useLeadsPage(filters: LeadFilters, page: number, enabled: boolean) {
  const key = leadQuerySearch({ filters, page, lead: null });
  return useServerState((signal) => fetchLeadsPage(filters, page, signal), [key], enabled);
}

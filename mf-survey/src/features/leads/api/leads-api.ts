import { api } from '@app/api-client';
import { ADMIN_PATHS } from '@app/contracts/admin-paths';
import {
  type LeadDetail,
  LeadDetailSchema,
  type LeadFilters,
  type LeadsPage,
  LeadsPageSchema,
} from '@app/contracts/leads';
import { filterParams, LEADS_PER_PAGE } from '../model/lead-query';

/** GET /api/admin/leads: one page of the leads that match the filters, newest first, with the total. */
export function fetchLeadsPage(filters: LeadFilters, page: number, signal?: AbortSignal): Promise<LeadsPage> {
  return api.get(ADMIN_PATHS.leads, LeadsPageSchema, {
    searchParams: { ...filterParams(filters), page, limit: LEADS_PER_PAGE },
    signal,
  });
}

/** GET /api/admin/leads/:id: the lead with every answer and who marked it contacted. */
export function fetchLead(id: number, signal?: AbortSignal): Promise<LeadDetail> {
  return api.get(ADMIN_PATHS.lead(id), LeadDetailSchema, { signal });
}

/** POST marks the lead contacted with the note; the detail is read again afterwards (the API's truth). */
export async function markLeadContacted(id: number, note: string): Promise<void> {
  await api.post(ADMIN_PATHS.leadContacted(id), { note }, null);
}

export async function unmarkLeadContacted(id: number): Promise<void> {
  await api.delete(ADMIN_PATHS.leadContacted(id), null);
}

/**
 * GET /api/admin/leads.csv with exactly the table's filters (no page: every matching lead). The API reads
 * the session from the Authorization header, so the file is fetched with the token and handed to the
 * browser as a download, rather than linked.
 */
export function fetchLeadsCsv(filters: LeadFilters): Promise<Blob> {
  return api.getBlob(ADMIN_PATHS.leadsCsv, { searchParams: filterParams(filters) });
}

import { api } from '@app/api-client';
import { ADMIN_PATHS } from '@app/contracts/admin-paths';
import { type SiteDetails, SiteDetailsSchema } from '@app/contracts/site-admin';

/** A record's fields as typed: the API checks them with ImpressumInputSchema / ContactInputSchema. */
export type RecordInput = Record<string, string>;

export function getSiteDetails(signal?: AbortSignal): Promise<SiteDetails> {
  return api.get(ADMIN_PATHS.site, SiteDetailsSchema, { signal });
}

/** The API answers both records again (as GET does), so the screen shows what was stored. */
export function saveImpressum(input: RecordInput): Promise<SiteDetails> {
  return api.put(ADMIN_PATHS.siteImpressum, input, SiteDetailsSchema);
}

export function saveContact(input: RecordInput): Promise<SiteDetails> {
  return api.put(ADMIN_PATHS.siteContact, input, SiteDetailsSchema);
}

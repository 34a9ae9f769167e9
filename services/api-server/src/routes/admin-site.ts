import { ADMIN_PATHS } from '@app/contracts/admin-paths';
import {
  ContactInputSchema,
  ImpressumInputSchema,
  type SiteDetails,
  type SiteRecordKey,
} from '@app/contracts/site-admin';
import type { Hono } from 'hono';
import type * as v from 'valibot';
import type { Config } from '../config';
import { parseWith } from '../errors';
import type { SiteRecords } from '../services/site';
import { type C, type Env, type RouteDeps, requireAdmin } from './http-helpers';

/**
 * The company's own details, edited by administrators at /admin/company (issue 34). The public pages read the
 * same rows (routes/site.ts), uncached, so a save shows on the next page load. Fields whose SITE_* / CONTACT_*
 * variable is set are listed, since the start lays those over any edit.
 */
export function registerAdminSiteRoutes(
  app: Hono<Env>,
  { site, audit, json }: RouteDeps,
  fromEnvironment: Config['site']['fromEnvironment'],
) {
  const pinned = {
    impressum: Object.keys(fromEnvironment.impressum),
    contact: Object.keys(fromEnvironment.contact),
  };
  const details = async (): Promise<SiteDetails> => ({
    impressum: await site.impressum(),
    contact: await site.contact(),
    fromEnvironment: pinned,
  });

  app.get(ADMIN_PATHS.site, async (c) => {
    requireAdmin(c);
    return c.json(await details());
  });

  // Validated before anything is read or written: a 400 stores nothing. The record and its audit row are
  // one transaction (SiteService.replace).
  const put =
    <K extends SiteRecordKey>(key: K, schema: v.GenericSchema<unknown, SiteRecords[K]>) =>
    async (c: C) => {
      const who = requireAdmin(c);
      const input = parseWith(schema, await json(c));
      await site.replace(key, input, (tx, changes) =>
        audit.record(tx, { id: who.userId, username: who.username }, `site.${key}`, `site:${key}`, {
          changes,
        }),
      );
      return c.json(await details());
    };
  app.put(ADMIN_PATHS.siteImpressum, put('impressum', ImpressumInputSchema));
  app.put(ADMIN_PATHS.siteContact, put('contact', ContactInputSchema));
}

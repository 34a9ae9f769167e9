import { API_PATHS, MarketAssessmentSchema } from '@app/contracts';
import type { Hono } from 'hono';
import { HttpError, parseWith } from '../errors';
import { caller, type Env, type RouteDeps } from './http-helpers';

/** Public pages: dashboards, contact, impressum and the market assessment form. */
export function registerSiteRoutes(app: Hono<Env>, { site, json }: RouteDeps) {
  app.get(API_PATHS.dashboards, (c) => c.json(site.dashboards()));
  app.get(API_PATHS.publicContact, (c) => c.json(site.contact()));
  app.get(API_PATHS.publicImpressum, (c) => c.json(site.impressum()));

  app.post(API_PATHS.marketAssessment, async (c) => {
    const key = c.req.header('idempotency-key')?.trim() || null;
    if (key && key.length > 200) throw new HttpError(400, 'Idempotency-Key must be at most 200 characters');
    const payload = parseWith(MarketAssessmentSchema, await json(c));
    const stored = site.submitAssessment(payload, caller(c)?.userId ?? null, key);
    return c.json(stored.body, stored.status);
  });
}

import { API_PATHS, MarketAssessmentSchema } from '@app/contracts';
import type { Hono } from 'hono';
import * as v from 'valibot';
import { HttpError, notFound, parseWith } from '../errors';
import { caller, type Env, type RouteDeps } from './http-helpers';

/** A dashboard's slug as the seed writes them; anything else cannot name a dashboard, so it is a 400. */
const SlugSchema = v.pipe(
  v.string(),
  v.maxLength(80, 'Dashboard id is at most 80 characters'),
  v.regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'Dashboard id must be lowercase letters, digits and single hyphens'),
);

/** Public pages: dashboards, contact, impressum and the market assessment form. */
export function registerSiteRoutes(app: Hono<Env>, { site, json, now, assessmentRepeatMs }: RouteDeps) {
  app.get(API_PATHS.dashboards, async (c) => c.json(await site.dashboards()));
  // SPEC §1: dashboards are public, like the list, so this needs no caller.
  app.get(`${API_PATHS.dashboards}/:slug`, async (c) => {
    const dashboard = await site.dashboard(parseWith(SlugSchema, c.req.param('slug')));
    if (!dashboard) throw notFound('Dashboard not found');
    return c.json(dashboard);
  });
  // Read from the database on every request, and no cache may keep them: an administrator's edit at
  // /admin/company shows on the next page load (issue 34). Neither page is pre-rendered with its data.
  const fresh = { 'Cache-Control': 'no-cache' };
  app.get(API_PATHS.publicContact, async (c) => c.json(await site.contact(), 200, fresh));
  app.get(API_PATHS.publicImpressum, async (c) => c.json(await site.impressum(), 200, fresh));

  app.post(API_PATHS.marketAssessment, async (c) => {
    const key = c.req.header('idempotency-key')?.trim() || null;
    if (key && key.length > 200) throw new HttpError(400, 'Idempotency-Key must be at most 200 characters');
    const payload = parseWith(MarketAssessmentSchema, await json(c));
    const stored = await site.submitAssessment(payload, caller(c)?.userId ?? null, key, {
      repeatWindowMs: assessmentRepeatMs,
      now: now(),
    });
    return c.json(stored.body, stored.status);
  });
}

import { API_PATHS, HealthBeaconSchema, PreviewVerifyRequestSchema } from '@app/contracts';
import { ADMIN_PATHS } from '@app/contracts/admin-paths';
import type { Hono } from 'hono';
import { HttpError, parseWith } from '../errors';
import type { RolloutService } from '../services/rollout';
import { body, type Env, requireAdmin } from './http-helpers';

/** A report is a few hundred bytes and a token at most 1000 characters: no reason to read a megabyte for either. */
const SMALL_BODY_LIMIT = 4096;

/**
 * Staged rollouts (docs/decisions/0009-staged-rollouts.md): the shell's health reports, preview-link checks,
 * and the admin view of the environment's manifest, health and audit log.
 */
export function registerRolloutRoutes(
  app: Hono<Env>,
  rollout: RolloutService,
  environments: readonly string[],
) {
  // Sent by the shell when a page is hidden (sendBeacon: text/plain, cross-origin, no token). It counts only
  // with the page view's ticket (docs/decisions/0027-health-gate.md); nothing about the user is stored but a
  // pseudonym. Limited per client address like every unauthenticated write (src/rate-limit/limits.ts: health).
  app.post(API_PATHS.rolloutHealth, async (c) => {
    const beacon = await body(c, SMALL_BODY_LIMIT)
      .then((raw) => parseWith(HealthBeaconSchema, raw))
      .catch(async (error: unknown) => {
        if (error instanceof HttpError && error.status === 400) await rollout.refuseMalformed();
        throw error;
      });
    await rollout.report(beacon);
    return c.body(null, 204);
  });

  app.post(API_PATHS.rolloutPreview, async (c) => {
    const { token } = parseWith(PreviewVerifyRequestSchema, await body(c, SMALL_BODY_LIMIT));
    return c.json(rollout.verifyPreview(token));
  });

  app.get(ADMIN_PATHS.rollouts, async (c) => {
    requireAdmin(c);
    // ?environment=staging: another environment than the one this install serves (DEPLOY_ENV).
    const environment = c.req.query('environment');
    if (environment !== undefined && !environments.includes(environment)) {
      throw new HttpError(
        404,
        `Unknown environment "${environment}"; this install knows ${environments.join(', ')}`,
      );
    }
    return c.json(await rollout.adminView(environment));
  });
}

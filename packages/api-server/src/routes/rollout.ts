import { API_PATHS, PreviewVerifyRequestSchema, RolloutHealthReportSchema } from '@app/contracts';
import type { Hono } from 'hono';
import { parseWith } from '../errors';
import type { RolloutService } from '../services/rollout';
import { ROLLOUT_MESSAGES } from '../services/rollout-messages';
import { body, type Env, requireAdmin } from './http-helpers';
import { clientKey, type FixedWindowLimiter } from './rate-limit';

/** A report is ~150 bytes and a token at most 1000 characters: no reason to read a megabyte for either. */
const SMALL_BODY_LIMIT = 4096;

/**
 * Staged rollouts (docs/decisions/0009-staged-rollouts.md): the shell's health reports, preview-link checks,
 * and the admin view of the environment's manifest, health and audit log.
 */
export function registerRolloutRoutes(
  app: Hono<Env>,
  rollout: RolloutService,
  healthLimiter: FixedWindowLimiter,
) {
  // Sent by the shell without a token (fetch keepalive, cross-origin): nothing about the user is stored.
  app.post(API_PATHS.rolloutHealth, async (c) => {
    const wait = healthLimiter.hit(clientKey(c));
    if (wait > 0) {
      return c.json({ error: ROLLOUT_MESSAGES.tooManyHealthReports }, 429, { 'Retry-After': String(wait) });
    }
    rollout.report(parseWith(RolloutHealthReportSchema, await body(c, SMALL_BODY_LIMIT)));
    return c.body(null, 204);
  });

  app.post(API_PATHS.rolloutPreview, async (c) => {
    const { token } = parseWith(PreviewVerifyRequestSchema, await body(c, SMALL_BODY_LIMIT));
    return c.json(rollout.verifyPreview(token));
  });

  app.get(API_PATHS.adminRollouts, (c) => {
    requireAdmin(c);
    return c.json(rollout.adminView());
  });
}

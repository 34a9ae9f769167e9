import { API_PATHS, HealthBeaconSchema, PreviewVerifyRequestSchema } from '@app/contracts';
import { ADMIN_PATHS } from '@app/contracts/admin-paths';
import { RenderReportSchema } from '@app/contracts/render-report';
import {
  RENDER_REPORT_MAX_BYTES,
  RENDER_REPORT_SIGNATURE_HEADER,
  RENDER_REPORT_TIME_HEADER,
} from '@app/rollout/node';
import type { Hono } from 'hono';
import type { AppContext } from '../context';
import { HttpError, parseWith } from '../errors';
import { RenderReportRefused } from '../services/render-figures';
import { body, bodyText, type C, type Env, requireAdmin } from './http-helpers';

/** A report is a few hundred bytes and a token at most 1000 characters: no reason to read a megabyte for either. */
const SMALL_BODY_LIMIT = 4096;

/**
 * Staged rollouts (docs/decisions/0009-staged-rollouts.md): the shell's health reports, preview-link checks,
 * and the admin view of the environment's manifest, health, preview links and audit log, where an
 * administrator may also revoke a preview link.
 */
export function registerRolloutRoutes(app: Hono<Env>, ctx: AppContext) {
  const { rollout, previews } = ctx;
  const environments = ctx.config.deploy.environments;

  /** ?environment=staging: another environment than the one this install serves (DEPLOY_ENV). */
  const viewedEnvironment = (c: C): string => {
    const environment = c.req.query('environment');
    if (environment === undefined) return rollout.environment;
    if (!environments.includes(environment)) {
      throw new HttpError(
        404,
        `Unknown environment "${environment}"; this install knows ${environments.join(', ')}`,
      );
    }
    return environment;
  };

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

  // The edges' server renders per version (docs/decisions/0043-server-signals-in-the-gate.md), signed with
  // the secret edge and API share: the signature is checked over the exact bytes before they are parsed, so
  // nobody else's figures are ever read. Every refusal is a 4xx with `error`, and stores nothing.
  app.post(API_PATHS.rolloutRenders, async (c) => {
    const text = await bodyText(c, RENDER_REPORT_MAX_BYTES);
    try {
      rollout.renders.verify(
        text,
        c.req.header(RENDER_REPORT_TIME_HEADER),
        c.req.header(RENDER_REPORT_SIGNATURE_HEADER),
      );
      let raw: unknown;
      try {
        raw = JSON.parse(text);
      } catch {
        throw new HttpError(400, 'Malformed JSON body');
      }
      await rollout.renders.record(parseWith(RenderReportSchema, raw));
    } catch (error) {
      if (error instanceof RenderReportRefused) throw new HttpError(error.status, error.message);
      throw error;
    }
    return c.body(null, 204);
  });

  app.post(API_PATHS.rolloutPreview, async (c) => {
    const { token } = parseWith(PreviewVerifyRequestSchema, await body(c, SMALL_BODY_LIMIT));
    return c.json(await rollout.verifyPreview(token));
  });

  app.get(ADMIN_PATHS.rollouts, async (c) => {
    requireAdmin(c);
    return c.json(await rollout.adminView(viewedEnvironment(c)));
  });

  // The rollouts screen's Revoke (issue 44): an administrator may revoke any link; audited under their name.
  app.delete(ADMIN_PATHS.rolloutPreview(':id'), async (c) => {
    const admin = requireAdmin(c);
    const revoked = await previews.revoke(viewedEnvironment(c), c.req.param('id') ?? '', {
      actor: admin.username,
      tokenName: null,
      mayChange: () => {},
    });
    return c.json(revoked);
  });
}

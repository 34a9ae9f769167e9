import {
  DEPLOY_PATHS,
  type OverrideLink,
  OverrideRequestSchema,
  OverrideUseSchema,
} from '@app/contracts/deploy';
import { isRemotePackage } from '@app/rollout';
import { OVERRIDE_DEFAULT_HOURS, OVERRIDE_PARAM } from '@app/rollout/dev-override';
import type { Hono } from 'hono';
import type { AppContext } from '../context';
import { HttpError, parseWith } from '../errors';
import { requireDeployScope, requireRemoteScope } from './deploy-auth';
import { body, type Env } from './http-helpers';

const SMALL_BODY_LIMIT = 16 * 1024;
/** A use report is a token, an address and a User-Agent (OverrideUseSchema): far less than this. */
const USE_BODY_LIMIT = 2 * 1024;

/**
 * Dev override links (issue 47, docs/decisions/0042-dev-overrides.md): made with a deploy token whose scope
 * covers the remote in that environment (a team's own token is enough to develop its remote, and only its
 * remote), revoked likewise. A URL that is not a loopback or private dev server (or listed in
 * DEV_OVERRIDE_ORIGINS) is a 400 that says what is accepted. Their use is reported by the edges without a
 * credential, the link's token being the proof (services/deploy-override-uses.ts): 404 for a token the
 * environment does not accept, 400 for anything else that is not a report.
 */
export function registerDeployOverrideRoutes(app: Hono<Env>, ctx: AppContext) {
  app.post(DEPLOY_PATHS.override(':env', ':remote'), async (c) => {
    const environment = c.req.param('env') ?? '';
    const remote = c.req.param('remote') ?? '';
    if (!isRemotePackage(remote)) throw new HttpError(404, `Unknown remote "${remote}"`);
    const scope = await requireDeployScope(c, { remote, environment });
    const input = parseWith(OverrideRequestSchema, (await body(c, SMALL_BODY_LIMIT)) ?? {});
    const base = new URL(input.baseUrl ?? ctx.config.deploy.previewBaseUrl);
    if (base.protocol !== 'http:' && base.protocol !== 'https:') {
      throw new HttpError(400, `the link's base URL must be http or https, got "${input.baseUrl}"`);
    }
    const { token, override } = await ctx.overrides.create({
      environment,
      remote,
      url: input.url,
      hours: input.hours ?? OVERRIDE_DEFAULT_HOURS,
      actor: scope.name,
    });
    const link: OverrideLink = {
      id: override.id,
      link: `${base.origin}${base.pathname.replace(/\/+$/, '')}/?${OVERRIDE_PARAM}=${token}`,
      token,
      expiresAt: override.expiresAt,
      environment,
      remote,
      url: override.url,
    };
    return c.json(link);
  });

  app.delete(DEPLOY_PATHS.overrideLink(':env', ':id'), async (c) => {
    const environment = c.req.param('env') ?? '';
    const scope = await requireDeployScope(c, { environment });
    const revoked = await ctx.overrides.revoke(environment, c.req.param('id') ?? '', {
      actor: scope.name,
      tokenName: scope.name,
      mayChange: (remote) => requireRemoteScope(scope, remote),
    });
    return c.json(revoked);
  });

  app.post(DEPLOY_PATHS.overrideUses(':env'), async (c) => {
    const environment = c.req.param('env') ?? '';
    if (!ctx.config.deploy.environments.includes(environment)) {
      throw new HttpError(404, `Unknown environment "${environment}"`);
    }
    const use = parseWith(OverrideUseSchema, (await body(c, USE_BODY_LIMIT)) ?? {});
    return c.json(await ctx.overrideUses.record(environment, use));
  });
}

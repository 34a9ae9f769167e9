import { DEPLOY_PATHS } from '@app/contracts/deploy';
import type { Hono } from 'hono';
import type { AppContext } from '../context';
import { HttpError } from '../errors';
import type { DeployFeed } from '../services/deploy-feed';
import type { Env } from './http-helpers';

/**
 * The public deployment feed: GET /api/deployment/<env>[?after=N] answers the environment's DeployState
 * (the manifest is public anyway: browsers read it). With `after`, a caller that already has revision N
 * waits until the revision is another one (normally N + 1; lower after a restore, so an edge never waits
 * on a revision that will not come), at most the feed's timeout, then gets a 204 and asks again.
 * An environment never written answers revision 0 and an empty manifest, never an error.
 */
export function registerDeployFeedRoute(app: Hono<Env>, ctx: AppContext, feed: DeployFeed) {
  const { deployments, config } = ctx;
  app.get(DEPLOY_PATHS.feed(':env'), async (c) => {
    const environment = c.req.param('env') ?? '';
    if (!config.deploy.environments.includes(environment)) {
      throw new HttpError(
        404,
        `Unknown environment "${environment}"; this install knows ${config.deploy.environments.join(', ')}`,
      );
    }
    const rawAfter = c.req.query('after');
    if (rawAfter !== undefined && !/^\d{1,12}$/.test(rawAfter)) {
      throw new HttpError(400, 'after must be the revision the caller has (a whole number)');
    }
    const headers = { 'Cache-Control': 'no-store' };
    let state = await deployments.state(environment);
    if (rawAfter !== undefined && state.revision === Number(rawAfter)) {
      const outcome = await feed.wait(environment, state.revision, c.req.raw.signal);
      if (outcome === 'full') {
        return c.json({ error: 'Too many deployment feed requests wait on this instance; ask again' }, 503, {
          ...headers,
          'Retry-After': '1',
        });
      }
      if (outcome !== 'changed') {
        // Asked again at once by the edge; while draining, on another instance (this connection closes).
        return c.body(null, 204, outcome === 'draining' ? { ...headers, Connection: 'close' } : headers);
      }
      state = await deployments.state(environment);
    }
    return c.json(state, 200, { ...headers, ETag: `"${state.revision}"` });
  });
}

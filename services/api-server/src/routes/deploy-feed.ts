import { DEPLOY_PATHS, type DeployFeed as DeployFeedBody } from '@app/contracts/deploy';
import type { Hono } from 'hono';
import type { AppContext } from '../context';
import { HttpError } from '../errors';
import { type DeployFeed, type FeedPosition, movedOn } from '../services/deploy-feed';
import type { Env } from './http-helpers';

const REVISION = /^\d{1,12}$/;

/** A revision the caller names in the query, or null when it names none. */
function revisionParam(raw: string | undefined, name: string): number | null {
  if (raw === undefined) return null;
  if (!REVISION.test(raw))
    throw new HttpError(400, `${name} must be the revision the caller has (a whole number)`);
  return Number(raw);
}

/**
 * The public deployment feed: GET /api/deployment/<env>[?after=N[&previews=M]] answers the environment's
 * DeployState and its preview links (DeployFeedSchema; the manifest is public anyway, browsers read it,
 * and the links carry only their tokens' hashes). With `after`, a caller that already has revision N waits
 * until the revision is another one (normally N + 1; lower after a restore, so an edge never waits on a
 * revision that will not come); with `previews` too, until either that or the previews' revision moves
 * (a link made or revoked). At most the feed's timeout, then a 204, and the caller asks again.
 * An environment never written answers revision 0, an empty manifest and no links, never an error.
 */
export function registerDeployFeedRoute(app: Hono<Env>, ctx: AppContext, feed: DeployFeed) {
  const { deployments, previews, overrides, config } = ctx;
  // Override links (issue 47) ride with the preview links: same revision, read after it.
  const read = async (environment: string): Promise<DeployFeedBody> => ({
    ...(await deployments.state(environment)),
    previews: { ...(await previews.feed(environment)), overrides: await overrides.feed(environment) },
  });
  app.get(DEPLOY_PATHS.feed(':env'), async (c) => {
    const environment = c.req.param('env') ?? '';
    if (!config.deploy.environments.includes(environment)) {
      throw new HttpError(
        404,
        `Unknown environment "${environment}"; this install knows ${config.deploy.environments.join(', ')}`,
      );
    }
    const after = revisionParam(c.req.query('after'), 'after');
    const previewsAfter = revisionParam(c.req.query('previews'), 'previews');
    const headers = { 'Cache-Control': 'no-store' };
    let body = await read(environment);
    if (after !== null) {
      const position: FeedPosition = { after, previews: previewsAfter };
      if (!movedOn(position, { deployment: body.revision, previews: body.previews.revision })) {
        const outcome = await feed.wait(environment, position, c.req.raw.signal);
        if (outcome === 'full') {
          return c.json(
            { error: 'Too many deployment feed requests wait on this instance; ask again' },
            503,
            {
              ...headers,
              'Retry-After': '1',
            },
          );
        }
        if (outcome !== 'changed') {
          // Asked again at once by the edge; while draining, on another instance (this connection closes).
          return c.body(null, 204, outcome === 'draining' ? { ...headers, Connection: 'close' } : headers);
        }
        body = await read(environment);
      }
    }
    // Both revisions: the body changes with either.
    return c.json(body, 200, { ...headers, ETag: `"${body.revision}.${body.previews.revision}"` });
  });
}

import { API_PATHS } from '@app/contracts';
import type { Lifecycle } from '@app/http-lifecycle';
import { Hono } from 'hono';
import type { AppContext } from './context';
import { createChangeWatch } from './db/change-watch';
import { DATABASE_RETRY_AFTER_S, DATABASE_UNAVAILABLE, HttpError, isDatabaseUnavailable } from './errors';
import { expensiveLimit } from './expensive-limit';
import { requestAddressKey, trustedProxies } from './rate-limit/client-address';
import { mountRateLimits } from './rate-limit/middleware';
import { registerAccountRoutes } from './routes/accounts';
import { registerAdminRoutes } from './routes/admin';
import { registerAdminLeadRoutes } from './routes/admin-leads';
import { registerAdminMemberRoutes } from './routes/admin-members';
import { registerAdminSiteRoutes } from './routes/admin-site';
import { registerDeployRoutes } from './routes/deploy';
import type { DeployAuth } from './routes/deploy-auth';
import { registerDeployFeedRoute } from './routes/deploy-feed';
import { registerDeployReleaseRoutes } from './routes/deploy-releases';
import { registerHealthRoutes } from './routes/health';
import { body, type Env, type RouteDeps } from './routes/http-helpers';
import { createListCache } from './routes/list-cache';
import { registerPostRoutes } from './routes/posts';
import { registerRolloutRoutes } from './routes/rollout';
import { registerSiteRoutes } from './routes/site';
import { MSG } from './services/accounts';
import { DeployFeed } from './services/deploy-feed';
import { LeadsService } from './services/leads';

/** While a feed request waits, how often this instance looks at every environment's revision. */
const FEED_POLL_MS = 200;

/**
 * The hono app over a context (database + services): startServer makes both. `onFeed` is handed the
 * deployment feed's waiters, so the server can say how many long polls it holds.
 */
export function createApp(
  ctx: AppContext,
  lifecycle: Lifecycle = { draining: false },
  onFeed: (feed: DeployFeed) => void = () => {},
): Hono<Env> {
  const { config, accounts, posts, site, rollout } = ctx;
  const app = new Hono<Env>();
  const log =
    config.logLevel === 'silent' ? null : (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);

  if (config.logLevel === 'info') {
    app.use('*', async (c, next) => {
      const started = performance.now();
      await next();
      log?.({
        level: 'info',
        time: new Date(ctx.now()).toISOString(),
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
      });
    });
  }

  // Before every other middleware: liveness touches no database, whatever the request carries (a token).
  registerHealthRoutes(app, ctx.sql, lifecycle);

  // Search runs a bounded number at a time; a request that would wait too long is answered 503 with
  // Retry-After (src/expensive-limit.ts). The tag, category and report counts were limited too while they
  // were computed per request; since migration 7 they are lookups and need no turn.
  app.use(API_PATHS.searchPosts, expensiveLimit(config.expensive));

  // Resolve the bearer token once. A token that is sent but no longer valid is a 401 on every route, so the
  // client clears it (SPEC §8) instead of silently browsing as a guest.
  // Health reports are the exception: they carry no user, and a stale token must not cost a report.
  // The deploy API's bearer is a deploy token, not a session (routes/deploy-auth.ts checks it per route);
  // the public deployment feed needs none.
  const deployAuth: DeployAuth = { tokens: ctx.deployTokens, environments: config.deploy.environments };
  app.use('/api/deploy/*', async (c, next) => {
    c.set('deployAuth', deployAuth);
    return next();
  });
  app.use('/api/*', async (c, next) => {
    const path = c.req.path;
    const skip =
      path === API_PATHS.rolloutHealth ||
      path.startsWith('/api/deploy/') ||
      path.startsWith('/api/deployment/');
    const header = skip ? undefined : c.req.header('authorization');
    if (!header) {
      c.set('caller', null);
      return next();
    }
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    const who = match?.[1] && match[1].length <= 200 ? await accounts.authenticate(match[1]) : null;
    if (!who) throw new HttpError(401, MSG.sessionInvalid);
    c.set('caller', who);
    return next();
  });

  // Rate limits (issue 19): per address or per account, counted in the database, after the caller is known.
  mountRateLimits(app, config, ctx.rateLimits, ctx.now);

  // Every write through this server empties the GET /api/posts answer cache (see createListCache), except
  // the rollout routes, which touch no post (health reports come with every page load).
  const listCache = createListCache(config.listCacheSize, createChangeWatch(ctx.sql));
  app.use('/api/*', async (c, next) => {
    await next();
    if (
      c.req.method !== 'GET' &&
      listCache.size > 0 &&
      !c.req.path.startsWith('/api/rollout/') &&
      !c.req.path.startsWith('/api/deploy/')
    ) {
      listCache.clear();
    }
  });

  const feed = new DeployFeed(ctx.deployments, lifecycle, {
    pollMs: FEED_POLL_MS,
    timeoutMs: config.deploy.feedTimeoutMs,
    maxWaiters: config.deploy.feedMaxWaiters,
  });
  ctx.onClose(() => feed.close());
  onFeed(feed);

  const proxies = trustedProxies(config.trustedProxies);
  const deps: RouteDeps = {
    accounts,
    posts,
    site,
    outbox: ctx.outbox,
    audit: ctx.audit,
    json: (c) => body(c, config.bodyLimitBytes),
    listCache,
    clientAddress: (c) => requestAddressKey(c, proxies),
    now: ctx.now,
    assessmentRepeatMs: config.rateLimits.assessmentRepeatMs,
  };

  // As it always was (after the token check): others call it. Liveness and readiness are registered above.
  app.get(API_PATHS.health, (c) => c.json({ status: 'ok' }));
  registerAccountRoutes(app, deps);
  registerPostRoutes(app, deps);
  registerSiteRoutes(app, deps);
  registerAdminRoutes(app, deps);
  registerAdminLeadRoutes(app, deps, new LeadsService(ctx.sql, ctx.audit));
  registerAdminSiteRoutes(app, deps, config.site.fromEnvironment);
  registerAdminMemberRoutes(app, deps);
  registerRolloutRoutes(app, rollout, config.deploy.environments);
  registerDeployRoutes(app, ctx);
  registerDeployFeedRoute(app, ctx, feed);
  registerDeployReleaseRoutes(app, ctx);

  app.notFound((c) => c.json({ error: 'Not found' }, 404));
  app.onError((err, c) => {
    if (err instanceof HttpError) return c.json(err.body(), err.status);
    // The database is away (PostgreSQL restarting, a failover): a 503 the client may retry, not a 500 with
    // a stack. One short line, since there will be one per request until it is back.
    if (isDatabaseUnavailable(err)) {
      if (log || config.logLevel === 'error') {
        process.stderr.write(
          `${JSON.stringify({ level: 'warn', time: new Date(ctx.now()).toISOString(), method: c.req.method, path: c.req.path, msg: 'database unavailable', error: String(err) })}\n`,
        );
      }
      c.header('Retry-After', String(DATABASE_RETRY_AFTER_S));
      return c.json({ error: DATABASE_UNAVAILABLE }, 503);
    }
    if (log || config.logLevel === 'error') {
      process.stderr.write(
        `${JSON.stringify({ level: 'error', time: new Date(ctx.now()).toISOString(), method: c.req.method, path: c.req.path, error: String(err), stack: err instanceof Error ? err.stack : undefined })}\n`,
      );
    }
    return c.json({ error: 'Internal server error' }, 500);
  });

  return app;
}

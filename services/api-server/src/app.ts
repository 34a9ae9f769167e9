import { API_PATHS } from '@app/contracts';
import type { Lifecycle } from '@app/http-lifecycle';
import { Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppContext } from './context';
import { createChangeWatch } from './db/change-watch';
import { expensiveLimit } from './expensive-limit';
import { routeTemplates } from './http-metrics';
import { requestAddressKey, trustedProxies } from './rate-limit/client-address';
import { mountRateLimits } from './rate-limit/middleware';
import { registerAccountRoutes } from './routes/accounts';
import { registerAdminRoutes } from './routes/admin';
import { mountAdminGate } from './routes/admin-gate';
import { registerAdminLeadRoutes } from './routes/admin-leads';
import { registerAdminMemberRoutes } from './routes/admin-members';
import { registerAdminSiteRoutes } from './routes/admin-site';
import { registerDeployRoutes } from './routes/deploy';
import type { DeployAuth } from './routes/deploy-auth';
import { registerDeployCompatRoutes } from './routes/deploy-compat';
import { registerDeployFeedRoute } from './routes/deploy-feed';
import { registerDeployOverrideRoutes } from './routes/deploy-overrides';
import { registerDeployReleaseRoutes } from './routes/deploy-releases';
import { registerHealthRoutes } from './routes/health';
import { body, type Env, type RouteDeps } from './routes/http-helpers';
import { createListCache, type ListCache } from './routes/list-cache';
import { registerPostRoutes } from './routes/posts';
import {
  accessLine,
  bearerToken,
  errorAnswer,
  isoTime,
  logLine,
  sessionCaller,
  sessionlessPath,
} from './routes/request-basics';
import { registerRolloutRoutes } from './routes/rollout';
import { registerSiteRoutes } from './routes/site';
import { registerTwoFactorRoutes } from './routes/two-factor';
import { DeployFeed } from './services/deploy-feed';
import { LeadsService } from './services/leads';

/** While a feed request waits, how often this instance looks at every environment's revision. */
const FEED_POLL_MS = 200;

/**
 * The answers of GET /api/posts kept until a write (routes/list-cache.ts): one per server, shared by the
 * hono app and the list lane (src/http-list-lane.ts).
 */
export const createAppListCache = (ctx: AppContext): ListCache =>
  createListCache(ctx.config.listCacheSize, createChangeWatch(ctx.sql));

/**
 * The hono app over a context (database + services): startServer makes both. `onFeed` is handed the
 * deployment feed's waiters, so the server can say how many long polls it holds.
 */
export function createApp(
  ctx: AppContext,
  lifecycle: Lifecycle = { draining: false },
  onFeed: (feed: DeployFeed) => void = () => {},
  listCache: ListCache = createAppListCache(ctx),
): Hono<Env> {
  const { config, accounts, posts, site } = ctx;
  const app = new Hono<Env>();
  const log = logLine(config);

  // First: each request's route template for /metrics (src/http-metrics.ts counts it on the Node request).
  app.use('*', routeTemplates());

  if (config.logLevel === 'info') {
    app.use('*', async (c, next) => {
      const started = performance.now();
      await next();
      log?.(accessLine(isoTime(ctx.now), c.req.method, c.req.path, c.res.status, started));
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
    const token = bearerToken(sessionlessPath(c.req.path) ? undefined : c.req.header('authorization'));
    c.set('caller', token === null ? null : sessionCaller(await accounts.authenticate(token)));
    return next();
  });

  // Rate limits (issue 19): per address or per account, counted in the database, after the caller is known.
  mountRateLimits(app, config, ctx.rateLimits, ctx.now);

  // Issue 46: administration needs a second factor, sensitive admin actions a recent code (routes/admin-gate.ts).
  mountAdminGate(app, accounts.twoFactor);

  // Every write through this server empties the GET /api/posts answer cache (see createListCache), except
  // the rollout and deploy routes, which touch no post (health reports come with every page load, override
  // use reports with an override's).
  app.use('/api/*', async (c, next) => {
    await next();
    if (
      c.req.method !== 'GET' &&
      listCache.size > 0 &&
      !c.req.path.startsWith('/api/rollout/') &&
      !c.req.path.startsWith('/api/deploy/') &&
      !c.req.path.startsWith('/api/deployment/')
    ) {
      listCache.clear();
    }
  });

  const feed = new DeployFeed(ctx.deployments, ctx.previews, lifecycle, {
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
  registerTwoFactorRoutes(app, deps);
  registerPostRoutes(app, deps);
  registerSiteRoutes(app, deps);
  registerAdminRoutes(app, deps);
  registerAdminLeadRoutes(app, deps, new LeadsService(ctx.sql, ctx.audit));
  registerAdminSiteRoutes(app, deps, config.site.fromEnvironment);
  registerAdminMemberRoutes(app, deps);
  registerRolloutRoutes(app, ctx);
  registerDeployCompatRoutes(app, ctx);
  // Before the deploy routes: their POST …/remotes/:remote/:verb would take …/override.
  registerDeployOverrideRoutes(app, ctx);
  registerDeployRoutes(app, ctx);
  registerDeployFeedRoute(app, ctx, feed);
  registerDeployReleaseRoutes(app, ctx);

  app.notFound((c) => c.json({ error: 'Not found' }, 404));
  app.onError((err, c) => {
    const answer = errorAnswer(err, { method: c.req.method, path: c.req.path }, config, ctx.now);
    for (const [name, value] of Object.entries(answer.headers)) c.header(name, value);
    return c.json(answer.body, answer.status as ContentfulStatusCode);
  });

  return app;
}

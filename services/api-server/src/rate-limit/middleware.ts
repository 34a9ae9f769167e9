import { rateLimitMessage } from '@app/contracts';
import type { Hono, MiddlewareHandler } from 'hono';
import { rateLimiter, type Store } from 'hono-rate-limiter';
import type { Config } from '../config';
import type { C, Env } from '../routes/http-helpers';
import { requestAddressKey, trustedProxies } from './client-address';
import { LIMIT_RULES, type LimitRule, OWN_ADDRESS_LIMIT_PATHS } from './limits';
import type { RateLimitStore } from './store';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
const DEPLOY_API_PREFIX = '/api/deploy/';
/** The public deployment feed's family: GETs, and the edges' reports of override links' use (a token each). */
const DEPLOYMENT_PREFIX = '/api/deployment/';

/**
 * hono-rate-limiter's Store over our RateLimitStore: the library decides (count, compare, answer), the
 * database counts. Keys are prefixed with the limit's name, so one table holds every limit.
 */
function libraryStore(store: RateLimitStore, name: string, now: () => number): Store<Env> {
  let windowMs = 60_000;
  const key = (k: string) => `${name}:${k}`;
  return {
    prefix: `${name}:`,
    localKeys: false,
    init: (options) => {
      windowMs = options.windowMs;
    },
    increment: async (k) => {
      const { hits, resetAt } = await store.hit(key(k), windowMs, now());
      return { totalHits: hits, resetTime: new Date(resetAt) };
    },
    decrement: (k) => store.undo(key(k)),
    resetKey: (k) => store.reset(key(k)),
  };
}

function limiterFor(
  rule: LimitRule,
  config: Config,
  store: RateLimitStore,
  now: () => number,
): MiddlewareHandler<Env> {
  const proxies = trustedProxies(config.trustedProxies);
  const subject = (c: C) => {
    const caller = c.get('caller');
    return rule.per === 'account' && caller ? `account:${caller.userId}` : requestAddressKey(c, proxies);
  };
  const { limit, windowMs } = config.rateLimits.limits[rule.name];
  return rateLimiter<Env>({
    limit,
    windowMs,
    // Retry-After is set below from our clock; the draft RateLimit-* headers would cost every request.
    standardHeaders: false,
    store: libraryStore(store, rule.name, now),
    keyGenerator: subject,
    skip: (c) => {
      // Account limits count signed-in callers; a write without a token is a 401 and `anonymous` counts it.
      if (rule.per === 'account') return c.get('caller') === null;
      if (rule.name !== 'anonymous') return false;
      // The deploy API's writes carry a deploy token, not a session (a pipeline's watch loop, an upload):
      // each is checked against a 256-bit secret, so there is nothing to guess and nothing to count. So is an
      // edge's report of an override link's use (its token), which all of an edge's visitors share.
      if (c.req.path.startsWith(DEPLOY_API_PREFIX) || c.req.path.startsWith(DEPLOYMENT_PREFIX)) return true;
      return READS.has(c.req.method) || c.get('caller') !== null || OWN_ADDRESS_LIMIT_PATHS.has(c.req.path);
    },
    handler: async (c) => {
      const info = (c as unknown as C & { get(key: 'rateLimit'): { resetTime?: Date } }).get('rateLimit');
      const at = now();
      const wait = Math.max(1, Math.ceil(((info.resetTime?.getTime() ?? at + windowMs) - at) / 1000));
      await store.refused(rule.name, subject(c), `${c.req.method} ${c.req.path}`, at);
      const error = rule.withWait ? rateLimitMessage(rule.what, wait) : rule.what;
      return c.json({ error }, 429, { 'Retry-After': String(wait) });
    },
  });
}

/** Mounts every limit of LIMIT_RULES; after the token is resolved (account limits need the caller). */
export function mountRateLimits(app: Hono<Env>, config: Config, store: RateLimitStore, now: () => number) {
  if (!config.rateLimits.enabled) return;
  for (const rule of LIMIT_RULES) {
    const mw = limiterFor(rule, config, store, now);
    if (rule.routes.length === 0) app.use('/api/*', mw);
    for (const [methods, path] of rule.routes) app.on(methods, path, mw);
  }
}

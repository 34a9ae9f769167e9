import type { IncomingMessage, ServerResponse } from 'node:http';
import { METRICS_PATH, metricsEndpoint } from '@app/server-metrics';
import { routeTemplateOf, setRouteTemplate } from '@app/server-telemetry';
import type { HttpBindings } from '@hono/node-server';
import type { MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import { METHOD_NAME_ALL } from 'hono/router';
import { type ApiMetrics, UNMATCHED } from './metrics';
import type { Env } from './routes/http-helpers';

type Listener = (req: IncomingMessage, res: ServerResponse) => unknown;

/** When the request reached the server (performance.now()). */
const STARTED = Symbol('started');
type Routed = IncomingMessage & { [STARTED]?: number };

/**
 * Names the template `req` was routed by (hono's middleware below, the list lane, /metrics), written on the
 * Node request: the metrics' `route` label, and the request's span name and `http.route` when traces are on.
 */
export function markRoute(req: IncomingMessage, template: string): void {
  setRouteTemplate(req, template);
}

/**
 * Every request the server answers, counted and timed once on the Node request (src/metrics.ts): both
 * lanes (hono and the list lane, src/http-list-lane.ts), the preflights http-edge.ts answers and /metrics
 * itself, from the moment the request reaches the server to the last byte of its answer (compression
 * included). A request no lane marked is 'unmatched'; one whose client went away before the answer
 * ended is not counted. One listener function for every response (no closure per request: the list
 * lane answers tens of thousands a second).
 */
export function withRequestMetrics(metrics: ApiMetrics, next: Listener): Listener {
  function finished(this: ServerResponse) {
    const req = this.req as Routed;
    const seconds = (performance.now() - (req[STARTED] ?? 0)) / 1000;
    metrics.request(routeTemplateOf(req) ?? UNMATCHED, req.method, this.statusCode, seconds);
  }
  return (req, res) => {
    (req as Routed)[STARTED] = performance.now();
    res.on('finish', finished);
    return next(req, res);
  };
}

/**
 * Hono's matched route as the request's template: the first route registered for a method (middleware
 * mounted with `use` matches every method and names no route) among those the path matched, before any
 * of them runs, so a request refused by a middleware (401, 429) still counts under its route. The first,
 * as hono runs them in that order: `/api/posts/tags` also matches `/api/posts/:idOrSlug`, registered after
 * it, which never runs for it (a rate limit's route, registered before, has its route's exact path). None:
 * the request is 'unmatched', whatever its path.
 */
export function routeTemplates(): MiddlewareHandler<Env> {
  return (c, next) => {
    const incoming = (c.env as Partial<HttpBindings> | undefined)?.incoming;
    if (incoming) {
      const route = matchedRoutes(c).find((r) => r.method !== METHOD_NAME_ALL);
      if (route) markRoute(incoming, route.path);
    }
    return next();
  };
}

/** The API's own 404, as hono's notFound answers it (src/app.ts). */
function notFound(res: ServerResponse): void {
  res.writeHead(404, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ error: 'Not found' }));
}

/** GET /metrics (@app/server-metrics: the internal network only, 404 to anyone else); the rest goes on. */
export function withMetricsEndpoint(metrics: ApiMetrics, next: Listener): Listener {
  const serve = metricsEndpoint(metrics.registry, notFound);
  return (req, res) => {
    if (!serve(req, res)) return next(req, res);
    markRoute(req, METRICS_PATH);
  };
}

// What the API's and the edge's Prometheus metrics share (issue 48; docs/operations.md, "Metrics"): the
// /metrics endpoint and who may read it, the registry of one server with its build info and (in production)
// the process's own metrics, and the closed sets the HTTP labels are drawn from. Each service defines its
// own metrics over these (services/api-server/src/metrics.ts, services/edge/src/metrics.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isInternalRequest } from '@app/client-address/internal-request';
import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';

export const METRICS_PATH = '/metrics';

/** The source revision a bundle was built from: services' build.mjs define it (esbuild); 'dev' unbuilt. */
declare const __BUILD_VERSION__: string | undefined;
export const BUILD_VERSION = typeof __BUILD_VERSION__ === 'string' ? __BUILD_VERSION__ : 'dev';

export const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const;
export type StatusClass = (typeof STATUS_CLASSES)[number];

/** An HTTP status as its class: the one form a status takes in a label. */
export function statusClass(status: number): StatusClass {
  if (status >= 500) return '5xx';
  if (status >= 400) return '4xx';
  if (status >= 300) return '3xx';
  if (status >= 200) return '2xx';
  return '1xx';
}

const METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** A request's method as a label: the methods the product answers, every other one (PROPFIND, …) 'other'. */
export const methodLabel = (method: string | undefined): string =>
  method !== undefined && METHODS.has(method) ? method : 'other';

/**
 * Latency buckets in seconds, for every histogram of both services: a read of a few ms up to nginx's 15 s
 * read timeout (the deployment feed's ~25 s long poll lands in +Inf, under its own route).
 */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15];

export interface RegistryOptions {
  /** The metric names' prefix: `api` or `edge`. */
  service: 'api' | 'edge';
  /**
   * The process's own metrics (prom-client's defaults: CPU, memory, event loop lag, GC, handles): on in the
   * servers' main; tests that start many servers in one process leave them off.
   */
  processMetrics: boolean;
}

/**
 * One server's registry, with `<service>_build_info{version}` (always 1). No label says which instance it
 * is: Prometheus adds `instance` (host:port) and `job` to every series it scrapes.
 */
export function serviceRegistry(o: RegistryOptions): Registry {
  const registry = new Registry();
  new Gauge({
    name: `${o.service}_build_info`,
    help: 'Always 1; `version` is the source revision the running bundle was built from (dev: not built).',
    labelNames: ['version'],
    registers: [registry],
  }).set({ version: BUILD_VERSION }, 1);
  if (o.processMetrics) collectDefaultMetrics({ register: registry });
  return registry;
}

/** Whether a request's target is /metrics (with or without a query), without taking the URL apart. */
const isMetricsTarget = (url: string | undefined) =>
  url?.startsWith(METRICS_PATH) === true &&
  (url.length === METRICS_PATH.length || url[METRICS_PATH.length] === '?');

/**
 * GET /metrics in Prometheus' text format, on the server's own port, answered only to the internal network
 * (@app/client-address's internal-request: a loopback or private peer, nothing proxied it); anyone else,
 * and any other method, gets the server's own 404 (`notFound`), as for a path it does not have. nginx
 * never proxies the path either (infra/nginx/nginx.conf.template). Returns false for every other path:
 * the caller goes on with the request.
 */
export function metricsEndpoint(registry: Registry, notFound: (res: ServerResponse) => void) {
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    if (!isMetricsTarget(req.url)) return false;
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !isInternalRequest(req)) {
      notFound(res);
      return true;
    }
    registry.metrics().then(
      (text) => {
        res.writeHead(200, { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      (error: unknown) => {
        res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
        res.end(`metrics failed: ${String(error)}`);
      },
    );
    return true;
  };
}

/**
 * How many series a registry holds (samples of every metric, histograms' buckets included), of the metrics
 * whose names start with `prefix` (all by default): tests bound it.
 */
export async function seriesCount(registry: Registry, prefix = ''): Promise<number> {
  const metrics = await registry.getMetricsAsJSON();
  return metrics
    .filter((metric) => metric.name.startsWith(prefix))
    .reduce((sum, metric) => sum + metric.values.length, 0);
}

// OpenTelemetry traces for the API and the edge (issue 48; docs/decisions/0044-traces.md): off unless an
// OTLP endpoint is set, then the SDK with the HTTP (node:http servers and clients) and undici (Node's
// fetch, the edge's calls to the API) instrumentations only, W3C trace context on every call, and the
// spans sent in batches to OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT over OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL
// (http/protobuf by default; http/json, grpc). Every other OTEL_* variable the SDK reads is honoured too
// (OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES, OTEL_BSP_*, OTEL_TRACES_SAMPLER, OTEL_SDK_DISABLED, …).
//
// startTelemetry must run before the server's code imports node:http: each service's src/main.ts calls it
// and only then imports the server (its own bundle, dist/server-process.mjs). Without an endpoint it
// returns at once and nothing of the SDK is even loaded.
// Renamed: the API's bundle already declares createRequire in its banner (services/api-server/build.mjs).

import type { IncomingMessage } from 'node:http';
import { createRequire as requireFrom } from 'node:module';
import { hostname } from 'node:os';
import { type Span, trace } from '@opentelemetry/api';
import { routeTemplateOf } from './route-template';

export { ROUTE_TEMPLATE, routeTemplateOf, setRouteTemplate } from './route-template';

declare const __BUILD_VERSION__: string | undefined;
/** The source revision the bundle was built from (the services' build.mjs), `dev` from the sources. */
const BUILD_VERSION = typeof __BUILD_VERSION__ === 'string' ? __BUILD_VERSION__ : 'dev';

/**
 * The SDK's variables the docs name (docs/configuration.md), the ones a launcher that hands a server a
 * chosen environment passes on (the edge's edgeEnvironment). The SDK reads these and its other OTEL_* itself.
 */
export const OTEL_ENV_VARIABLES = {
  endpoint: 'OTEL_EXPORTER_OTLP_ENDPOINT',
  tracesEndpoint: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  protocol: 'OTEL_EXPORTER_OTLP_PROTOCOL',
  tracesProtocol: 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL',
  headers: 'OTEL_EXPORTER_OTLP_HEADERS',
  tracesHeaders: 'OTEL_EXPORTER_OTLP_TRACES_HEADERS',
  serviceName: 'OTEL_SERVICE_NAME',
  resourceAttributes: 'OTEL_RESOURCE_ATTRIBUTES',
  sampler: 'OTEL_TRACES_SAMPLER',
  samplerArg: 'OTEL_TRACES_SAMPLER_ARG',
  batchDelay: 'OTEL_BSP_SCHEDULE_DELAY',
  disabled: 'OTEL_SDK_DISABLED',
  logLevel: 'OTEL_LOG_LEVEL',
} as const;
export const OTEL_VARIABLES: readonly string[] = Object.values(OTEL_ENV_VARIABLES);

/** Whether traces are asked for: an OTLP endpoint for them (and the SDK not disabled). */
export function telemetryConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT;
  return Boolean(endpoint) && env.OTEL_SDK_DISABLED?.trim().toLowerCase() !== 'true';
}

export interface TelemetryOptions {
  /** `api` or `edge`; OTEL_SERVICE_NAME replaces it. */
  serviceName: string;
  /** The port it serves on, for service.instance.id (`<host>:<port>`), as Prometheus names an instance. */
  port: number | string;
  /** Paths whose requests make no span: /metrics and the health probes, asked every few seconds. */
  untracedPaths?: readonly string[];
}

const pathOf = (url: string | undefined) => {
  const end = url?.indexOf('?') ?? -1;
  return end === -1 ? (url ?? '') : (url as string).slice(0, end);
};

/**
 * Starts the SDK when an endpoint is set (else does nothing and resolves false). Its instrumentations
 * patch node:http here, through `require`: the server module imported afterwards then sees a patched
 * module, whether it says `import http from 'node:http'` or `import { createServer } from 'node:http'`.
 */
export async function startTelemetry(o: TelemetryOptions, env = process.env): Promise<boolean> {
  if (!telemetryConfigured(env)) return false;
  // Loaded only now: a process without traces never evaluates the SDK.
  const [
    { NodeSDK },
    { HttpInstrumentation },
    { UndiciInstrumentation },
    { resourceFromAttributes },
    sem,
    core,
  ] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/instrumentation-http'),
    import('@opentelemetry/instrumentation-undici'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/semantic-conventions'),
    import('@opentelemetry/core'),
  ]);
  const untraced = new Set(o.untracedPaths ?? []);
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME || o.serviceName,
    // OTEL_RESOURCE_ATTRIBUTES (the env detector) may still replace these two.
    resource: resourceFromAttributes({
      [sem.ATTR_SERVICE_VERSION]: BUILD_VERSION,
      'service.instance.id': `${hostname()}:${o.port}`,
    }),
    textMapPropagator: new core.W3CTraceContextPropagator(),
    // Traces only: the metrics are Prometheus' (/metrics), and the logs are the JSON lines on stdout.
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => untraced.has(pathOf(req.url)),
        // The server's lanes name the route on the request (route-template.ts) before it ends: the span
        // is named by the template (`GET /api/posts/:idOrSlug`), never by the path a client chose.
        // (A client request never carries one.)
        applyCustomAttributesOnSpan: (span: Span, req) => {
          const route = routeTemplateOf(req as IncomingMessage);
          if (!route) return;
          span.updateName(`${(req as IncomingMessage).method ?? 'GET'} ${route}`);
          span.setAttribute(sem.ATTR_HTTP_ROUTE, route);
        },
      }),
      new UndiciInstrumentation(),
    ],
  });
  sdk.start();
  const load = requireFrom(import.meta.url);
  load('node:http');
  load('node:https');
  return true;
}

/**
 * Sends the spans not yet exported and stops the SDK (the drain's last step, before the exit), within
 * `timeoutMs`. Reached through @opentelemetry/api's global provider, so the server's bundle needs no
 * handle from the entry that started it; without traces it resolves at once.
 */
export async function stopTelemetry(timeoutMs = 2000): Promise<void> {
  const provider = trace.getTracerProvider() as { getDelegate?: () => unknown };
  const delegate = provider.getDelegate?.() ?? provider;
  const shutdown = (delegate as { shutdown?: () => Promise<void> }).shutdown;
  if (typeof shutdown !== 'function') return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    shutdown.call(delegate).catch(() => undefined),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    }),
  ]);
  clearTimeout(timer);
}

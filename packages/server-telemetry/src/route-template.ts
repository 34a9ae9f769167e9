// How a server tells the traces which route template a request was routed by (`/api/posts/:idOrSlug`,
// `/post/:id`): the same property its /metrics already writes on the Node request. A global symbol,
// because the server's bundle and the process's entry (which starts telemetry) each carry their own copy
// of this package; the HTTP instrumentation reads it when the request's span ends (telemetry.ts).
import type { IncomingMessage } from 'node:http';

export const ROUTE_TEMPLATE: unique symbol = Symbol.for('@app/server-telemetry.route-template');

type Routed = IncomingMessage & { [ROUTE_TEMPLATE]?: string };

/** Names the template `req` was routed by (its span's name and `http.route`, its metrics' `route`). */
export function setRouteTemplate(req: IncomingMessage, template: string): void {
  (req as Routed)[ROUTE_TEMPLATE] = template;
}

/** The template a request was routed by, if a lane named one. */
export function routeTemplateOf(req: IncomingMessage): string | undefined {
  return (req as Routed)[ROUTE_TEMPLATE];
}

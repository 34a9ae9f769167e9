// The route table is shared with the edge: it lives in @app/federation (docs/decisions/0001-route-table.md).
export { findRoute, matchesPattern, REDIRECTS, ROUTE_TABLE, type RouteEntry } from '@app/federation';

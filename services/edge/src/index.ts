export { edgeEnvironment } from './config';
export { type DegradedEntry, DegradedLog } from './degraded';
export { PREVIEW_COOKIE } from './preview-cookie';
export { cleanRegionHtml } from './region-html';
export { DEFAULT_LIMITS } from './render-sandbox/launch';
export { RenderPool } from './render-sandbox/pool';
export { isForbiddenPath } from './request-path';
export {
  COMMON_HEADERS,
  CSP_REPORT_PATH,
  contentSecurityPolicy,
  corsHeaders,
  corsOriginsFrom,
  PAGE_HEADERS,
} from './security-headers';
export { type AppOptions, serveApp } from './serve';
export { cacheControlFor } from './static-files';
export { readVisitorKey, VISITOR_COOKIE, visitorCookie } from './visitor-cookie';

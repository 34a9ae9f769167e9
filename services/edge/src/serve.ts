// The edge (docs/decisions/0026-edge.md): one Node process that composes the shell's pages per visitor and
// serves the files around them; `pnpm start` runs it on :3000 and the cluster runs two or more behind nginx
// (which serves the files itself there). The remotes' own ports under `pnpm start` are plain file servers
// of the same kind (no pages to compose).
// Security (docs/decisions/0015-front-door.md): a CSP and the other page headers on HTML, nosniff and a
// referrer policy everywhere, CORS only for the shell's origins, 404 for dotfiles, traversal and (unless
// SERVE_SOURCE_MAPS=1) source maps.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { trustedProxies } from '@app/client-address';
import { closingWhenDraining, type Lifecycle } from '@app/http-lifecycle';
import type { DeploymentManifest } from '@app/rollout';
import { ticketKey } from '@app/rollout/node';
import { metricsEndpoint } from '@app/server-metrics';
import { setRouteTemplate } from '@app/server-telemetry';
import compression from 'compression';
import { fileServingConfig } from './config';
import { configFileText } from './config-file';
import { cspReportHandler } from './csp-report';
import { DegradedLog } from './degraded';
import type { ManifestFeed } from './deployment-feed';
import { deploymentState, withApiBaseUrl } from './deployment-state';
import { EDGE_PREFIX, edgeEndpoints } from './edge-endpoints';
import { edgeMetrics, UNMATCHED } from './metrics';
import { NewVisitorLimit } from './new-visitors';
import { type OverrideUseReporter, overrideUseReporter } from './override-use';
import { type PlannedRelease, releaseRegions } from './regions';
import type { RenderFigures } from './render-figures';
import type { RenderPool } from './render-sandbox/pool';
import { requestScheme } from './request-origin';
import { isForbiddenPath } from './request-path';
import {
  COMMON_HEADERS,
  CSP_REPORT_PATH,
  contentSecurityPolicy,
  corsHeaders,
  inlineHashes,
  PAGE_HEADERS,
  type PolicyConfig,
} from './security-headers';
import { shellPageHandler } from './shell-page';
import { buildFiles, isPagePath, notFound, releaseFiles } from './static-files';

export interface AppOptions {
  name: string;
  dir: string;
  port: number;
  host?: string;
  /** The shell: every page path is composed for its visitor. */
  spa?: boolean;
  /** The shell's runtime config: a file (watched, served as /config.json), or a fixed object (tests). */
  configFile?: string;
  runtimeConfig?: object;
  /** The release store (served under /releases/). */
  releases?: { store: string };
  /**
   * The deployment, from the API's feed (deployment-feed.ts): what pages are planned from, served as
   * /deployment.json; /_edge/ready waits for its first manifest. The caller starts and stops it.
   */
  feed?: ManifestFeed;
  /**
   * The API as this server reaches it (API_URL): a member's id and per-request renders ask it. Default: the
   * runtime config's apiBaseUrl, resolved against the page's origin (what the browser uses).
   */
  apiUrl?: string;
  /** HMAC key of the visitor cookie: every instance of an environment needs the same (ensureEdgeSecret). */
  edgeSecret?: string;
  /**
   * The browser's API address (API_BASE_URL), in place of the runtime config's apiBaseUrl: in every page, its
   * CSP and /config.json (`pnpm start` sets it from API_PORT, so the pages follow the API wherever it runs).
   */
  apiBaseUrl?: string;
  /** Origins whose pages may read these files cross-origin (default: config.ts, CORS_ORIGINS). */
  allowedOrigins?: string[];
  /** Serve *.map files (default: SERVE_SOURCE_MAPS=1); otherwise they are a 404. */
  serveSourceMaps?: boolean;
  /** Append CSP violation reports to this file (default: CSP_REPORT_FILE). */
  cspReportFile?: string;
  /** The environment this server's pages belong to (DEPLOY_ENV of its listener; default production). */
  environment?: string;
  /**
   * Where releases' server renderers run (render-sandbox/pool.ts), shared by the process's servers; none:
   * pages take the build-time picture of a route only (no per-request renders).
   */
  renderPool?: RenderPool | null;
  /** How the edge asks the API (server-rendered first screens, a member's id); tests replace it. */
  fetchImpl?: typeof fetch;
  apiWaitMs?: number;
  /** Draining state (@app/http-lifecycle): /_edge/ready answers 503 and every answer closes its connection while set. */
  lifecycle?: Lifecycle;
  /** The public site's origin (default: PUBLIC_SITE_URL): when https, every cookie is Secure (issue 46). */
  publicSiteUrl?: string;
  /**
   * Where dev override links' use is reported (override-use.ts; with a feed). The caller stops one it
   * passes (main.ts: after draining, before exit); one made here is stopped when the server closes.
   */
  overrideUses?: OverrideUseReporter;
  /** The process's own metrics on /metrics (CPU, memory, event loop, GC): main.ts; off in tests. */
  processMetrics?: boolean;
  /** Where this server's stable and canary server renders are counted (render-figures.ts; none: not counted). */
  renderFigures?: RenderFigures;
  /**
   * One JSON line per page once it is answered (main.ts: @app/server-telemetry's writeLogLine at
   * LOG_LEVEL=info, the request's trace_id with it when traces are on); none: no line (the tests).
   */
  pageLog?: (line: PageLine) => void;
}

/** The line a page's answer is logged with: its route template, not only its path (pageLog). */
export interface PageLine {
  level: 'info';
  time: string;
  msg: 'page';
  method: string;
  path: string;
  route: string;
  status: number;
  ms: number;
}

/**
 * The page's line once its answer is sent. The 'finish' listener runs in the request's context (the HTTP
 * instrumentation binds the response to it), so a line written through writeLogLine carries its trace.
 */
function logPage(
  log: (line: PageLine) => void,
  method = 'GET',
  pathname: string,
  route: string,
  res: http.ServerResponse,
) {
  const started = performance.now();
  res.once('finish', () =>
    log({
      level: 'info',
      time: new Date().toISOString(),
      msg: 'page',
      method,
      path: pathname.slice(0, 200),
      route,
      status: res.statusCode,
      ms: Math.round((performance.now() - started) * 10) / 10,
    }),
  );
}

function setAll(res: http.ServerResponse, headers: Readonly<Record<string, string>>) {
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
}

/**
 * The CSP of the last page, reused while neither the page's own HTML, the config nor the origin changes.
 * `html` is the edge's own HTML of the page: a release's region is never part of it (composePage's `trusted`).
 */
function pagePolicy(configOf: () => PolicyConfig | undefined) {
  let memo = { key: '', value: '' };
  return (selfOrigin: string, html: string, devOrigin?: string | null) => {
    const config = configOf();
    const key = `${selfOrigin}\n${JSON.stringify(config ?? null)}\n${devOrigin ?? ''}\n${html}`;
    if (memo.key !== key)
      memo = { key, value: contentSecurityPolicy({ html, runtimeConfig: config, selfOrigin, devOrigin }) };
    return memo.value;
  };
}

/** The deployment manifest as the feed last gave it (tools, older shells, the shell's fallback). */
function serveManifest(res: http.ServerResponse, manifest: object | null) {
  if (!manifest) return notFound(res);
  res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache' });
  res.end(JSON.stringify(manifest));
}

/** The stable and canary version of each remote a manifest names, where the store has them. */
function deployedReleases(
  manifest: DeploymentManifest,
  folderOf: (remote: PlannedRelease['remote'], version: string) => string | null,
): PlannedRelease[] {
  const releases: PlannedRelease[] = [];
  for (const [remote, deployment] of Object.entries(manifest.remotes)) {
    const tracks = [
      [deployment?.stable, 'stable'],
      [deployment?.canary?.version, 'canary'],
    ] as const;
    for (const [version, track] of tracks) {
      const folder = version ? folderOf(remote as PlannedRelease['remote'], version) : null;
      if (version && folder)
        releases.push({ remote: remote as PlannedRelease['remote'], version, folder, track });
    }
  }
  return releases;
}

export function serveApp(o: AppOptions): Promise<http.Server> {
  const { name, dir, port, host = '0.0.0.0', spa = false } = o;
  if (!fs.existsSync(path.join(dir, 'index.html')))
    return Promise.reject(new Error(`${name}: no build in ${dir}`));
  const env = fileServingConfig();
  const allowedOrigins = o.allowedOrigins ?? env.corsOrigins;
  const serveSourceMaps = o.serveSourceMaps ?? env.serveSourceMaps;
  const degraded = new DegradedLog((line) => console.warn(`${name}: ${line}`));
  const state = deploymentState({
    configFile: o.configFile ?? (spa ? path.join(dir, 'config.json') : undefined),
    runtimeConfig: o.runtimeConfig,
    releases: o.releases,
    feed: o.feed,
    apiBaseUrl: o.apiBaseUrl,
    degraded,
  });
  const policyFor = pagePolicy(() => state.config() ?? undefined);
  const feed = o.feed;
  const metrics = edgeMetrics({
    processMetrics: o.processMetrics ?? false,
    manifest: () => state.manifest(),
    feed: feed ? () => feed.status() : undefined,
  });
  const serveMetrics = metricsEndpoint(metrics.registry, notFound);
  // Without a shared secret (tests, a lone instance) cookies are valid for this process's life only.
  const secret = o.edgeSecret ?? env.edgeSecret ?? randomBytes(32).toString('hex');
  const gzip = compression();
  // The origin each request was made to (Host), for the policy of a page sirv answers.
  const origins = new WeakMap<http.ServerResponse, string>();
  const builtPage = () => fs.readFileSync(path.join(dir, 'index.html'), 'utf8');
  const files = buildFiles(dir, (res) => {
    const selfOrigin = origins.get(res) ?? `http://localhost:${port}`;
    res.setHeader('Content-Security-Policy', policyFor(selfOrigin, builtPage()));
    setAll(res, PAGE_HEADERS);
  });
  const serveRelease = o.releases ? releaseFiles(o.releases) : () => false;
  // The CSP hashes of the shell page's own inline scripts: no release's region may repeat one.
  let shellScripts = { html: '', hashes: new Set<string>() };
  const trustedScripts = () => {
    const html = builtPage();
    if (html !== shellScripts.html) shellScripts = { html, hashes: new Set(inlineHashes(html).scripts) };
    return shellScripts.hashes;
  };
  const regions = releaseRegions({
    degraded,
    pool: o.renderPool ?? null,
    trustedScripts,
    fetchImpl: o.fetchImpl,
    waitMs: o.apiWaitMs,
    onRender: (release, outcome, seconds) => metrics.render(release, outcome, seconds),
  });
  // Each new deployment starts the workers of the versions its pages will render (stable and canary); the
  // first one's are waited for before the instance says it is ready (a new instance's first pages rendered).
  let renderersStarted = !o.renderPool || !o.feed;
  o.feed?.onManifest((manifest) => {
    regions.warm(deployedReleases(manifest, state.releaseFolder));
    if (!renderersStarted) void o.renderPool?.settled().then(() => (renderersStarted = true));
  });
  const proxies = trustedProxies(env.trustedProxies);
  const scheme = requestScheme({
    trustedProxies: proxies,
    publicSiteUrl: o.publicSiteUrl ?? env.publicSiteUrl,
  });
  const environment = o.environment ?? 'production';
  const overrideUses =
    spa && o.feed ? (o.overrideUses ?? overrideUseReporter({ environment, fetchImpl: o.fetchImpl })) : null;
  const page = spa
    ? shellPageHandler({
        dir,
        state,
        regions,
        secret,
        ticketKey: ticketKey(secret),
        environment,
        newVisitors: new NewVisitorLimit(env.newVisitorLimit),
        trustedProxies: proxies,
        scheme,
        policyFor,
        apiUrl: o.apiUrl,
        overrideUses,
        metrics,
        renderFigures: o.renderFigures,
      })
    : null;
  const lifecycle = o.lifecycle ?? { draining: false };
  const endpoints = spa
    ? edgeEndpoints({
        state,
        degraded,
        secret,
        dir,
        lifecycle,
        renderPool: o.renderPool ?? null,
        renderersWarm: () => renderersStarted,
        fetchImpl: o.fetchImpl,
        apiUrl: o.apiUrl,
        scheme,
        overrideUses,
        trustedProxies: proxies,
      })
    : null;
  const receiveReport = cspReportHandler({ app: name, file: o.cspReportFile ?? env.cspReportFile });

  const server = http.createServer(
    closingWhenDraining(lifecycle, (req, res) => {
      const pathname = req.url?.split('?')[0] ?? '/';
      setAll(res, COMMON_HEADERS);
      setAll(res, corsHeaders(req.headers.origin, allowedOrigins));
      if (serveMetrics(req, res)) return;
      if (pathname === CSP_REPORT_PATH) return receiveReport(req, res);
      if (isForbiddenPath(pathname, { serveSourceMaps })) return notFound(res);
      const selfOrigin = scheme.selfOriginOf(req, port);
      origins.set(res, selfOrigin);
      if (endpoints && pathname.startsWith(EDGE_PREFIX)) {
        void endpoints(req, res, pathname, selfOrigin);
        return;
      }
      if (spa && pathname === '/config.json' && (o.runtimeConfig || o.configFile)) {
        const body = o.runtimeConfig
          ? JSON.stringify(withApiBaseUrl(o.runtimeConfig, o.apiBaseUrl))
          : configFileText(o.configFile as string, o.apiBaseUrl);
        res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache' });
        res.end(body);
        return;
      }
      // compression is express middleware; plain node:http requests and responses are what it wraps.
      gzip(req as never, res as never, () => {
        if (o.feed && pathname === '/deployment.json') return serveManifest(res, state.manifest());
        if (serveRelease(req, res, pathname)) return;
        const serveFile = () => files(req, res, () => notFound(res));
        if (page && (req.method === 'GET' || req.method === 'HEAD') && isPagePath(pathname)) {
          const route = metrics.page(pathname, res);
          // The request's span is named by it (`GET /post/:id`) when traces are on (@app/server-telemetry).
          if (route !== UNMATCHED) setRouteTemplate(req, route);
          if (o.pageLog) logPage(o.pageLog, req.method, pathname, route, res);
          // A page that cannot be composed (a broken release file) is the plain page, never a failed one.
          page(req, res, selfOrigin).catch((error: unknown) => {
            degraded.note('page-failed', 'shell', pathname, error);
            if (!res.headersSent) serveFile();
            else res.end();
          });
          return;
        }
        serveFile();
      });
    }),
  );
  if (overrideUses && !o.overrideUses) server.on('close', () => void overrideUses.stop());
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}

// The shell's page for one visitor (docs/decisions/0026-edge.md): their cohort key and preview read from
// cookies (or given one), the plan decided, the route's first screen taken from the release the plan names
// (rendered in that release's sandbox, regions.ts), a preload of that remote's manifest, the page view's
// health ticket, and the plan written into the page for the shell to start from.
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { clientAddress, type TrustedProxies } from '@app/client-address';
import { findRoute } from '@app/federation';
import { pagePlanBlock, type RemoteChoice } from '@app/rollout';
import { type DeploymentState, edgeApiBase } from './deployment-state';
import { noLink } from './link-cookie';
import type { EdgeMetrics } from './metrics';
import type { NewVisitorLimit } from './new-visitors';
import { decideOverride } from './override-cookie';
import { type OverrideUseReporter, overrideVisitor } from './override-use';
import { composePage, type Preload } from './page';
import { decidePreview } from './preview-cookie';
import type { PlannedRelease, ReleaseRegions } from './regions';
import type { RenderFigures } from './render-figures';
import type { RequestScheme } from './request-origin';
import { PAGE_HEADERS } from './security-headers';
import { newAnonymousKey, readVisitorKey, visitorCookie } from './visitor-cookie';
import { pageTicket, visitorPlan } from './visitor-plan';

export interface ShellPageOptions {
  dir: string;
  state: DeploymentState;
  regions: ReleaseRegions;
  /** The edge's secret for the visitor cookie, and the key of health tickets derived from it. */
  secret: string;
  ticketKey: Buffer;
  /** The environment this server serves (its tickets and previews are that environment's). */
  environment: string;
  /** New visitors per client address (past it: uncounted visitors); proxies whose X-Forwarded-For counts. */
  newVisitors: NewVisitorLimit;
  trustedProxies: TrustedProxies;
  /** Whether this request's cookies are Secure (request-origin.ts). */
  scheme: RequestScheme;
  /** The CSP of a page, from the edge's own HTML of it (never a release's region). */
  /** devOrigin: a dev override's origin, admitted for this page only (issue 47). */
  policyFor: (selfOrigin: string, trustedHtml: string, devOrigin?: string | null) => string;
  /** The API as the edge reaches it (API_URL), for per-request renders; else the config's apiBaseUrl. */
  apiUrl?: string;
  /** Where a dev override link's open and page views are reported (override-use.ts); null: nowhere. */
  overrideUses?: OverrideUseReporter | null;
  /** Counts the health tickets issued (metrics.ts). */
  metrics?: Pick<EdgeMetrics, 'ticketIssued'>;
  /** Where this environment's server renders are counted for the gate (none: not counted). */
  renderFigures?: RenderFigures;
}

/**
 * The route's remote manifest as the runtime will ask for it (a released version's, whose entry is pinned):
 * requested with the HTML, so the shell's first script finds it here or on its way and preloads the entry
 * and ./App's chunks from it at once (shell/src/early/preload-route-remote.ts): one round trip after the HTML
 * before the remote's first JS. The code itself is not preloaded by the HTML: requested before the first
 * paint, it competes with the page's own first bytes (Lighthouse's mobile LCP went 1.1 -> 1.6 s with it).
 */
function manifestPreload(choice: RemoteChoice | null): Preload[] {
  return choice?.version && choice.integrity ? [{ href: choice.entry, as: 'fetch' }] : [];
}

export function shellPageHandler(o: ShellPageOptions) {
  return async (req: IncomingMessage, res: ServerResponse, selfOrigin: string): Promise<void> => {
    const url = new URL(req.url ?? '/', selfOrigin);
    const secure = o.scheme.secureCookies(req);
    const cookies: string[] = [];
    const address = clientAddress(
      req.socket.remoteAddress,
      req.headers['x-forwarded-for'] as string | undefined,
      o.trustedProxies,
    );
    let visitorKey = readVisitorKey(req.headers.cookie, o.secret);
    if (!visitorKey) {
      visitorKey = newAnonymousKey({ counted: o.newVisitors.take(address) });
      cookies.push(visitorCookie(visitorKey, o.secret, { secure }));
    }
    const feed = o.state.feed;
    const preview = feed
      ? decidePreview(url, req.headers.cookie, { previews: () => feed.previews(), secure })
      : noLink();
    cookies.push(...preview.cookies);
    const override = feed
      ? decideOverride(url, req.headers.cookie, { overrides: () => feed.overrides(), secure })
      : noLink();
    cookies.push(...override.cookies);
    const redirect = preview.redirect ?? override.redirect;
    const config = o.state.config();
    const apiBase = edgeApiBase(o.apiUrl, config, selfOrigin);
    // A dev override's use is in the deploy audit (issue 47): the link opened now, or a page served under it.
    if (override.token && apiBase && o.overrideUses) {
      if (override.redirect)
        o.overrideUses.opened(override.token, overrideVisitor(req, o.trustedProxies), apiBase);
      else if (!redirect && req.method === 'GET') o.overrideUses.viewed(override.token, apiBase);
    }
    // Pages differ per visitor: a shared cache must not keep them, and the browser asks again every time.
    res.setHeader('Cache-Control', 'private, no-cache');
    res.setHeader('Vary', [res.getHeader('Vary'), 'Cookie'].filter(Boolean).join(', '));
    if (cookies.length) res.setHeader('Set-Cookie', cookies);
    if (redirect) {
      res.writeHead(303, { Location: redirect, 'Cache-Control': 'no-store' });
      res.end();
      return;
    }

    const manifest = o.state.manifest();
    const plan = config
      ? visitorPlan({
          config,
          manifest,
          visitorKey,
          preview: preview.state,
          override: override.state,
          selfOrigin,
        })
      : null;
    const route = findRoute(url.pathname);
    const choice = plan && route ? plan.plan[route.remote] : null;
    const folder = choice?.version ? o.state.releaseFolder(choice.remote, choice.version) : null;
    const releases: PlannedRelease[] =
      choice?.version && folder
        ? [{ remote: choice.remote, version: choice.version, folder, track: choice.track }]
        : [];
    const { region, renderFailures, renders } = await o.regions.region(url.pathname, releases, apiBase);
    // A page under a dev override sends no health reports at all (issue 47): what a developer's browser
    // feels of unreleased code, or of the live versions around it, is no evidence about any release.
    const overridden = override.state.status === 'active';
    // Nor does it count in the servers' figures; a preview's render is not a rollout's either.
    const track = choice?.track;
    if (o.renderFigures && !overridden && (track === 'stable' || track === 'canary')) {
      for (const r of renders) o.renderFigures.count({ ...r, track });
    }
    if (plan && !overridden) {
      plan.health = pageTicket(plan, {
        visitorKey,
        ticketKey: o.ticketKey,
        environment: o.environment,
        address,
        renderFailures,
      });
      if (plan.health) o.metrics?.ticketIssued();
    }
    const unneeded = plan
      ? ['/config.json', config?.deployment?.manifestUrl].filter((href): href is string => Boolean(href))
      : [];
    const page = composePage(fs.readFileSync(path.join(o.dir, 'index.html'), 'utf8'), {
      pathname: url.pathname,
      region,
      planBlock: plan ? pagePlanBlock(plan) : null,
      preloads: manifestPreload(choice),
      unneededPreloads: unneeded,
    });
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader(
      'Content-Security-Policy',
      o.policyFor(
        selfOrigin,
        page.trusted,
        override.state.status === 'active' ? override.state.grant.origin : null,
      ),
    );
    for (const [name, value] of Object.entries(PAGE_HEADERS)) res.setHeader(name, value);
    res.end(req.method === 'HEAD' ? undefined : page.html);
  };
}

// The shell's page for one visitor (docs/decisions/0026-edge.md): their cohort key and preview read from
// cookies (or given one), the plan decided, the route's first screen taken from the release the plan names,
// a preload of that remote's manifest, and the plan written into the page for the shell to start from.
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { findRoute } from '@app/federation';
import { pagePlanBlock, type RemoteChoice } from '@app/rollout';
import { addressGroup } from '@app/rollout/node';
import type { DeploymentState } from './deployment-state';
import { composePage, type Preload } from './page';
import { decidePreview } from './preview-cookie';
import type { PlannedRelease, releaseRegions } from './regions';
import { clientAddress, isSecure } from './request-origin';
import { PAGE_HEADERS } from './security-headers';
import { newAnonymousKey, readVisitorKey, visitorCookie } from './visitor-cookie';
import { visitorPlan } from './visitor-plan';

export interface ShellPageOptions {
  dir: string;
  state: DeploymentState;
  regions: ReturnType<typeof releaseRegions>;
  /** The edge's secret for the visitor cookie, and the key of health tickets derived from it; the preview
   * secret (null: previews are off). */
  secret: string;
  ticketKey: Buffer;
  previewSecret: () => string | null;
  policyFor: (selfOrigin: string, html: string) => string;
  /** The API as the edge reaches it (API_URL), for per-request renders; else the config's apiBaseUrl. */
  apiUrl?: string;
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
    const secure = isSecure(req);
    const cookies: string[] = [];
    let visitorKey = readVisitorKey(req.headers.cookie, o.secret);
    if (!visitorKey) {
      visitorKey = newAnonymousKey();
      cookies.push(visitorCookie(visitorKey, o.secret, { secure }));
    }
    const store = o.state.store;
    const preview = store
      ? decidePreview(url, req.headers.cookie, { store, secret: o.previewSecret, secure })
      : { state: { status: 'none' as const }, cookies: [], redirect: null };
    cookies.push(...preview.cookies);
    // Pages differ per visitor: a shared cache must not keep them, and the browser asks again every time.
    res.setHeader('Cache-Control', 'private, no-cache');
    res.setHeader('Vary', [res.getHeader('Vary'), 'Cookie'].filter(Boolean).join(', '));
    if (cookies.length) res.setHeader('Set-Cookie', cookies);
    if (preview.redirect) {
      res.writeHead(303, { Location: preview.redirect, 'Cache-Control': 'no-store' });
      res.end();
      return;
    }

    const config = o.state.config();
    const manifest = o.state.manifest();
    const plan = config
      ? visitorPlan({
          config,
          manifest,
          visitorKey,
          preview: preview.state,
          selfOrigin,
          ticketKey: o.ticketKey,
          // Issue 44, until the edge names its environment itself: the deployment the page is planned
          // from says whose it is (a preview without a manifest: the feed's; no feed at all: DEPLOY_ENV's
          // default).
          environment: manifest?.environment ?? o.state.feed?.status().environment ?? 'production',
          address: addressGroup(clientAddress(req)),
        })
      : null;
    const route = findRoute(url.pathname);
    const choice = plan && route ? plan.plan[route.remote] : null;
    const folder = choice?.version ? o.state.releaseFolder(choice.remote, choice.version) : null;
    const releases: PlannedRelease[] =
      choice?.version && folder ? [{ remote: choice.remote, version: choice.version, folder }] : [];
    const apiBase = o.apiUrl ?? (config ? new URL(config.apiBaseUrl, selfOrigin).href : null);
    const region = await o.regions(url.pathname, releases, apiBase);
    const unneeded = plan
      ? ['/config.json', config?.deployment?.manifestUrl].filter((href): href is string => Boolean(href))
      : [];
    const html = composePage(fs.readFileSync(path.join(o.dir, 'index.html'), 'utf8'), {
      pathname: url.pathname,
      region,
      planBlock: plan ? pagePlanBlock(plan) : null,
      preloads: manifestPreload(choice),
      unneededPreloads: unneeded,
    });
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Content-Security-Policy', o.policyFor(selfOrigin, html));
    for (const [name, value] of Object.entries(PAGE_HEADERS)) res.setHeader(name, value);
    res.end(req.method === 'HEAD' ? undefined : html);
  };
}

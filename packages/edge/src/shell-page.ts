// The shell's page for one visitor (docs/decisions/0026-edge.md): their cohort key and preview read from
// cookies (or given one), the plan decided, the route's first screen taken from the release the plan names,
// preloads for that remote's code, and the plan written into the page for the shell to start from.
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { findRoute } from '@app/federation';
import { type MfManifest, pagePlanBlock, type RemoteChoice, remoteAppFiles } from '@app/rollout';
import type { DeploymentState } from './deployment-state';
import { composePage, type Preload } from './page';
import { decidePreview } from './preview-cookie';
import type { PlannedRelease, releaseRegions } from './regions';
import { PAGE_HEADERS } from './security-headers';
import { newAnonymousKey, readVisitorKey, visitorCookie } from './visitor-cookie';
import { visitorPlan } from './visitor-plan';

export interface ShellPageOptions {
  dir: string;
  state: DeploymentState;
  regions: ReturnType<typeof releaseRegions>;
  /** The edge's secret for the visitor cookie; the preview secret (null: previews are off). */
  secret: string;
  previewSecret: () => string | null;
  policyFor: (selfOrigin: string, html: string) => string;
}

/** Where a request came from: HTTPS when the socket is TLS, or a proxy on this machine says it was. */
export function isSecure(req: IncomingMessage): boolean {
  if ((req.socket as { encrypted?: boolean }).encrypted) return true;
  const peer = req.socket.remoteAddress ?? '';
  const local = peer === '127.0.0.1' || peer === '::1' || peer === '::ffff:127.0.0.1';
  return local && req.headers['x-forwarded-proto'] === 'https';
}

/** The route's remote code as the runtime will ask for it: its manifest, its entry (pinned), ./App's chunks. */
function codePreloads(
  choice: RemoteChoice,
  folder: string | null,
  readManifest: (f: string) => MfManifest | null,
) {
  if (!choice.version || !choice.integrity || !folder) return [];
  const manifest = readManifest(folder);
  if (!manifest) return [];
  const [entry, ...chunks] = remoteAppFiles(choice.entry, manifest);
  if (!entry) return [];
  return [
    { href: choice.entry, as: 'fetch' as const },
    { href: entry, as: 'script' as const, integrity: choice.integrity, cors: true },
    ...chunks.map((href): Preload => ({ href, as: 'script' })),
  ];
}

export function shellPageHandler(o: ShellPageOptions) {
  // A release never changes: its Module Federation manifest is read once.
  const mfManifests = new Map<string, MfManifest | null>();
  const readManifest = (folder: string) => {
    if (!mfManifests.has(folder)) {
      try {
        mfManifests.set(folder, JSON.parse(fs.readFileSync(path.join(folder, 'mf-manifest.json'), 'utf8')));
      } catch {
        mfManifests.set(folder, null);
      }
    }
    return mfManifests.get(folder) ?? null;
  };

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
      ? visitorPlan({ config, manifest, visitorKey, preview: preview.state, selfOrigin })
      : null;
    const route = findRoute(url.pathname);
    const choice = plan && route ? plan.plan[route.remote] : null;
    const folder = choice?.version ? o.state.releaseFolder(choice.remote, choice.version) : null;
    const releases: PlannedRelease[] =
      choice?.version && folder ? [{ remote: choice.remote, version: choice.version, folder }] : [];
    const apiBase = config ? new URL(config.apiBaseUrl, selfOrigin).href : null;
    const region = await o.regions(url.pathname, releases, apiBase);
    const unneeded = plan
      ? ['/config.json', config?.deployment?.manifestUrl].filter((href): href is string => Boolean(href))
      : [];
    const html = composePage(fs.readFileSync(path.join(o.dir, 'index.html'), 'utf8'), {
      pathname: url.pathname,
      region,
      planBlock: plan ? pagePlanBlock(plan) : null,
      preloads: choice ? codePreloads(choice, folder, readManifest) : [],
      unneededPreloads: unneeded,
    });
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Content-Security-Policy', o.policyFor(selfOrigin, html));
    for (const [name, value] of Object.entries(PAGE_HEADERS)) res.setHeader(name, value);
    res.end(req.method === 'HEAD' ? undefined : html);
  };
}

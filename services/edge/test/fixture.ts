// A shell build and a release store on disk, as the API's uploads leave them, a stand-in for the API's
// deployment feed (feed-server.ts), and the edge serving them: the ground every edge test stands on.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { REGION_MARKER } from '@app/page-format';
import type { FeedPreview } from '@app/rollout';
import type { FeedOverride } from '@app/rollout/dev-override';
import { newOverrideToken, newPreviewToken, overrideTokenHash, previewTokenHash } from '@app/rollout/node';
import { RENDER_WORKER_BUNDLE } from '../build.mjs';
import { deploymentFeed, type ManifestFeed } from '../src/deployment-feed';
import { DEFAULT_LIMITS } from '../src/render-sandbox/launch';
import { type PoolOptions, RenderPool } from '../src/render-sandbox/pool';
import { type AppOptions, serveApp } from '../src/serve';
import { feedServer } from './feed-server';

export const SHELL_HTML = `<!doctype html><html><head><link rel="preload" href="/config.json" as="fetch" crossorigin="anonymous" /><link rel="preload" href="/deployment.json" as="fetch" crossorigin="anonymous" /><style data-prerendered="frame">.frame{color:red}</style></head><body><div id="root"><div data-prerendered-frame="" inert=""><header>Brand</header><main>${REGION_MARKER}</main></div></div><script src="/main.js"></script></body></html>`;

export const EDGE_SECRET = 'an-edge-secret-for-the-tests';

export interface Pages {
  [path: string]: { html: string; css: string; ids?: string[] };
}

/** A render pool as the edge makes one (main.ts), with the compiled worker; options override. */
export function testRenderPool(options: Partial<PoolOptions> = {}) {
  return new RenderPool({
    workerScript: RENDER_WORKER_BUNDLE,
    limits: DEFAULT_LIMITS,
    timeoutMs: 2000,
    startTimeoutMs: 15_000,
    maxWorkers: 4,
    idleMs: 60_000,
    ...options,
  });
}

export function runtimeConfig(apiBaseUrl = 'http://localhost:4000') {
  return {
    apiBaseUrl,
    remotes: {
      mf_public_pages: { url: 'http://localhost:3004/mf-manifest.json' },
      mf_account: { url: 'http://localhost:3001/mf-manifest.json' },
      mf_research: { url: 'http://localhost:3002/mf-manifest.json' },
      mf_survey: { url: 'http://localhost:3003/mf-manifest.json' },
    },
    deployment: { manifestUrl: '/deployment.json', releasesUrl: '/releases/' },
  };
}

export function edgeFixture(prefix: string) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
  const dist = path.join(root, 'shell');
  const store = path.join(root, 'releases');
  fs.mkdirSync(dist, { recursive: true });
  fs.writeFileSync(path.join(dist, 'index.html'), SHELL_HTML);
  fs.writeFileSync(path.join(dist, 'main.js'), 'console.log("shell")');
  const api = feedServer();
  const servers: Server[] = [];
  const feeds: ManifestFeed[] = [];
  let pool: RenderPool | null = null;
  /** The fixture's render workers (one pool for every edge it starts, as one edge process has). */
  const renderPool = () => {
    pool ??= testRenderPool();
    return pool;
  };

  /** A feed of the fixture's API for one edge (stopped by close()). */
  async function newFeed() {
    const url = await api.url();
    const feed = deploymentFeed({ apiUrl: () => url, environment: api.environment, minBackoffMs: 20 });
    feeds.push(feed);
    return feed;
  }

  /**
   * Every edge started has read the API's current revision (valid or not), and the render workers that
   * deployment started are ready (or failed): the next request sees it, rendered.
   */
  const settled = async () => {
    await Promise.all(feeds.map((feed) => feed.waitFor(api.revision())));
    await pool?.settled();
  };

  /** A released version: its entry, its MF manifest, its pages, optionally a renderer; release.json last. */
  function release(remote: string, version: string, o: { pages?: Pages; renderer?: string } = {}) {
    const dir = path.join(store, remote, version);
    fs.mkdirSync(dir, { recursive: true });
    const entry = `/* ${remote} ${version} */`;
    fs.writeFileSync(path.join(dir, 'remoteEntry.js'), entry);
    fs.writeFileSync(
      path.join(dir, 'mf-manifest.json'),
      JSON.stringify({
        metaData: { publicPath: 'auto', remoteEntry: { name: 'remoteEntry.js', path: '' } },
        exposes: [{ path: './App', assets: { js: { sync: ['__federation_expose_App.0123456789.js'] } } }],
      }),
    );
    if (o.pages) fs.writeFileSync(path.join(dir, 'prerender.json'), JSON.stringify({ pages: o.pages }));
    if (o.renderer) fs.writeFileSync(path.join(dir, 'server-render.mjs'), o.renderer);
    const entryIntegrity = `sha384-${createHash('sha384').update(entry).digest('base64')}`;
    fs.writeFileSync(path.join(dir, 'release.json'), JSON.stringify({ remote, version, entryIntegrity }));
    return entryIntegrity;
  }

  const integrityOf = (remote: string, version: string) =>
    JSON.parse(fs.readFileSync(path.join(store, remote, version, 'release.json'), 'utf8'))
      .entryIntegrity as string;

  /** A new deployment through the API (revision bumped); resolves once every edge started has it. */
  async function deploy(
    remotes: Record<string, { stable: string; canary?: { version: string; percent: number } }>,
  ) {
    const at = new Date().toISOString();
    const manifest = {
      schemaVersion: 1,
      environment: api.environment,
      revision: 0,
      updatedAt: at,
      remotes: Object.fromEntries(
        Object.entries(remotes).map(([remote, { stable, canary }]) => [
          remote,
          {
            stable,
            previous: [],
            ...(canary ? { canary: { ...canary, startedAt: at, stepStartedAt: at } } : {}),
            integrity: Object.fromEntries(
              [stable, ...(canary ? [canary.version] : [])].map((v) => [v, integrityOf(remote, v)]),
            ),
          },
        ]),
      ),
    };
    api.publish(manifest);
    await settled();
  }

  /** Anything as the next revision's manifest (an invalid one, say); resolves once every edge read it. */
  async function publishRaw(raw: unknown) {
    api.publish(raw);
    await settled();
  }

  // The environment's preview links as the API publishes them in its feed (decision 0037).
  const links: Array<FeedPreview & { token: string }> = [];
  const overrides: Array<FeedOverride & { token: string }> = [];
  const publishLinks = async () => {
    api.publishPreviews(
      links.map(({ token: _token, ...link }) => link),
      overrides.map(({ token: _token, ...link }) => link),
    );
    await Promise.all(feeds.map((feed) => feed.waitForPreviews(api.previewsRevision())));
  };
  /** A preview link made for this environment, as `pnpm rollout preview` makes one: its token. */
  async function previewToken(remote: string, version: string, exp = Date.now() + 3_600_000) {
    const token = newPreviewToken();
    links.push({
      id: `pv${links.length}`,
      tokenHash: previewTokenHash(token),
      remote: remote as FeedPreview['remote'],
      version,
      expiresAt: new Date(exp).toISOString(),
      revokedAt: null,
      integrity: integrityOf(remote, version),
      token,
    });
    await publishLinks();
    return token;
  }
  /** Revokes a link, as `pnpm rollout revoke-preview` does. */
  async function revokePreview(token: string) {
    const link = links.find((l) => l.token === token);
    if (link) link.revokedAt = new Date().toISOString();
    await publishLinks();
  }

  /** A dev override link (issue 47), as `pnpm rollout override` makes one: its token. */
  async function overrideToken(remote: string, url: string, exp = Date.now() + 3_600_000) {
    const token = newOverrideToken();
    overrides.push({
      id: `ov${overrides.length}`,
      tokenHash: overrideTokenHash(token),
      remote: remote as FeedOverride['remote'],
      url,
      expiresAt: new Date(exp).toISOString(),
      revokedAt: null,
      token,
    });
    await publishLinks();
    return token;
  }
  /** Revokes an override link, as `pnpm rollout revoke-override` does. */
  async function revokeOverride(token: string) {
    const link = overrides.find((l) => l.token === token);
    if (link) link.revokedAt = new Date().toISOString();
    await publishLinks();
  }

  async function start(port: number, options: Partial<AppOptions> = {}) {
    const feed = options.feed ?? (await newFeed());
    const server = await serveApp({
      name: 'shell',
      dir: dist,
      port,
      spa: true,
      runtimeConfig: runtimeConfig(),
      releases: { store },
      feed,
      edgeSecret: EDGE_SECRET,
      renderPool: renderPool(),
      ...options,
    });
    servers.push(server);
    await feed.waitFor(api.revision());
    await pool?.settled();
    return `http://localhost:${port}`;
  }

  function close() {
    pool?.close();
    for (const feed of feeds) feed.stop();
    for (const server of servers) server.close();
    api.close();
    fs.rmSync(root, { recursive: true, force: true });
  }

  return {
    root,
    dist,
    store,
    api,
    newFeed,
    release,
    deploy,
    publishRaw,
    previewToken,
    revokePreview,
    overrideToken,
    revokeOverride,
    start,
    close,
    renderPool,
  };
}

/** The page's plan block, parsed. */
export function planOf(page: string) {
  const match = page.match(/<script type="application\/json" id="page-plan">(.*?)<\/script>/);
  return match?.[1] ? JSON.parse(match[1]) : null;
}

/** The version whose first screen the page carries (the region's data-version), or null. */
export function paintedVersion(page: string): string | null {
  return page.match(/data-prerendered-region="[^"]+" data-version="([^"]+)"/)?.[1] ?? null;
}

/** The cookie a response sets, as `name=value` for the next request's Cookie header. */
export function cookieFrom(response: Response, name: string): string | null {
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(';');
    if (pair?.startsWith(`${name}=`)) return pair;
  }
  return null;
}

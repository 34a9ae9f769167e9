import { createHash } from 'node:crypto';
import { REGION_MARKER } from '@app/page-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeFixture, paintedVersion, planOf } from './fixture';

// The shell's page with the route's first screen in it (docs/decisions/0018, 0026): the region comes from
// the release the visitor's plan names, here stable (no canary), and follows the manifest per request.
const f = edgeFixture('edge-page');
const V1 = '1.0.0-aaaaaaaaaa';
const V2 = '1.0.1-bbbbbbbbbb';
let URL = '';

beforeAll(async () => {
  f.release('mf-public-pages', V1, {
    pages: {
      '/': { html: '<h1>Welcome v1</h1>', css: '.hero{margin:0}' },
      '/about': { html: '<h1>About us</h1>', css: '.about{padding:0}' },
      '/contact': { html: `<p>${'Write to us. '.repeat(200)}</p>`, css: '' },
    },
  });
  f.release('mf-public-pages', V2, {
    pages: { '/': { html: '<h1>Welcome v2</h1>', css: '.hero{margin:1px}' } },
  });
  await f.deploy({ 'mf-public-pages': { stable: V1 } });
  URL = await f.start(3975);
});
afterAll(() => f.close());

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
const get = async (path: string) => (await fetch(`${URL}${path}`)).text();

describe('a path a remote pre-rendered', () => {
  it("is the shell's page with the visitor's release's region inside main and its CSS in the head", async () => {
    const response = await fetch(`${URL}/about`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const page = await response.text();
    expect(page).toContain(
      `<main><div data-prerendered-region="mf-public-pages" data-version="${V1}" data-path="/about"><h1>About us</h1></div></main>`,
    );
    expect(page).toContain('<style data-prerendered="region">.about{padding:0}</style></head>');
    expect(page).not.toContain(REGION_MARKER);
  });

  it('varies by visitor: private, revalidated every time, by the cookie', async () => {
    const response = await fetch(`${URL}/about`);
    expect(response.headers.get('cache-control')).toBe('private, no-cache');
    expect(response.headers.get('vary')).toContain('Cookie');
  });

  it('carries a CSP that admits both style blocks by hash (the plan is data, run by nobody), and the page headers', async () => {
    const response = await fetch(`${URL}/about`);
    const page = await response.text();
    const policy = response.headers.get('content-security-policy') ?? '';
    const directive = (name: string) => policy.split(';').find((d) => d.trim().startsWith(name)) ?? '';
    expect(directive('style-src')).toContain(sha256('.frame{color:red}'));
    expect(directive('style-src')).toContain(sha256('.about{padding:0}'));
    const plan = page.match(/<script type="application\/json" id="page-plan">(.*?)<\/script>/)?.[1] ?? '';
    expect(plan).not.toBe('');
    expect(directive('script-src')).not.toContain(sha256(plan));
    expect(directive('script-src')).not.toContain("'sha256-");
    expect(policy).not.toContain('unsafe-inline');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
  });

  it("requests the route's remote manifest from the visitor's release with the HTML, and drops the startup files' preloads", async () => {
    const page = await get('/about');
    const base = `${URL}/releases/mf-public-pages/${V1}/`;
    expect(page).toContain(
      `<link rel="preload" href="${base}mf-manifest.json" as="fetch" crossorigin="anonymous" />`,
    );
    // The code itself is preloaded by the shell's first script from that manifest, after the first paint.
    expect(page).not.toContain('as="script"');
    expect(page).not.toContain('href="/config.json"');
    expect(page).not.toContain('href="/deployment.json"');
  });

  it('follows the deployment manifest: a new stable version is what the very next visitor gets', async () => {
    expect(await get('/')).toContain('<h1>Welcome v1</h1>');
    await f.deploy({ 'mf-public-pages': { stable: V2 } });
    try {
      const page = await get('/');
      expect(page).toContain('<h1>Welcome v2</h1>');
      expect(page).toContain('.hero{margin:1px}');
      expect(planOf(page).plan.mf_public_pages.version).toBe(V2);
      // v2 has no /about: that path has no region, never v1's stale screen.
      expect(paintedVersion(await get('/about'))).toBeNull();
    } finally {
      await f.deploy({ 'mf-public-pages': { stable: V1 } });
    }
  });

  it('is compressed like every page', async () => {
    const response = await fetch(`${URL}/contact`, { headers: { 'Accept-Encoding': 'gzip' } });
    expect(response.headers.get('content-encoding')).toBe('gzip');
  });
});

describe('every other page', () => {
  it.each(['/research-center', '/post/42', '/nowhere'])(
    '%s is the frame with the plan and no region',
    async (url) => {
      const response = await fetch(URL + url);
      expect(response.status).toBe(200);
      const page = await response.text();
      expect(paintedVersion(page)).toBeNull();
      expect(page).toContain(REGION_MARKER);
      expect(planOf(page).plan.mf_research.track).toBe('config');
    },
  );

  it("is the frame with config.json's addresses when the environment's manifest names no release", async () => {
    await f.deploy({});
    try {
      const page = await get('/');
      expect(paintedVersion(page)).toBeNull();
      expect(planOf(page).plan.mf_public_pages).toMatchObject({
        track: 'config',
        entry: 'http://localhost:3004/mf-manifest.json',
      });
    } finally {
      await f.deploy({ 'mf-public-pages': { stable: V1 } });
    }
  });

  it('HEAD answers the headers without the page', async () => {
    const response = await fetch(`${URL}/about`, { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await response.text()).toBe('');
  });
});

describe("emotion's ids", () => {
  it("go with the region's style block, so emotion in the browser does not insert those rules again", async () => {
    const version = '1.0.3-dddddddddd';
    f.release('mf-public-pages', version, {
      pages: { '/': { html: '<p>x</p>', css: '.css-1abc{margin:0}', ids: ['1abc', '2def', 'bad id"'] } },
    });
    await f.deploy({ 'mf-public-pages': { stable: version } });
    try {
      expect(await get('/')).toContain(
        '<style data-prerendered="region" data-emotion="css 1abc 2def">.css-1abc{margin:0}</style></head>',
      );
    } finally {
      await f.deploy({ 'mf-public-pages': { stable: V1 } });
    }
  });
});

describe('what a release could smuggle in', () => {
  it('a "</style" in its CSS cannot close the style block early', async () => {
    const version = '1.0.2-cccccccccc';
    f.release('mf-public-pages', version, {
      pages: { '/': { html: '<p>x</p>', css: '.a{}</style><script>alert(1)</script>' } },
    });
    await f.deploy({ 'mf-public-pages': { stable: version } });
    try {
      expect(await get('/')).not.toContain('</style><script>alert(1)');
    } finally {
      await f.deploy({ 'mf-public-pages': { stable: V1 } });
    }
  });
});

describe('the release store', () => {
  it('serves a released file for a year, immutable', async () => {
    const response = await fetch(`${URL}/releases/mf-public-pages/${V1}/remoteEntry.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it.each([
    `/releases/mf-unknown/${V1}/remoteEntry.js`,
    '/releases/mf-public-pages/not-a-version/remoteEntry.js',
    `/releases/mf-public-pages/${V1}/`,
    `/releases/mf-public-pages/${V1}/missing.js`,
    '/releases/',
  ])('%s is a 404', async (url) => {
    expect((await fetch(URL + url)).status).toBe(404);
  });
});

describe('behind a TLS proxy on this machine', () => {
  it('uses https for the page origin and a Secure cookie when the proxy says so', async () => {
    const response = await fetch(`${URL}/about`, { headers: { 'X-Forwarded-Proto': 'https' } });
    const page = await response.text();
    expect(planOf(page).plan.mf_public_pages.entry).toMatch(/^https:\/\/localhost:3975\/releases\//);
    expect(response.headers.getSetCookie()[0]).toContain('Secure');
    expect(response.headers.get('vary')).toMatch(/Origin.*Cookie|Cookie.*Origin/);
  });
});

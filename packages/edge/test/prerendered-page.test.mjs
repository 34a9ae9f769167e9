import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REGION_MARKER } from '../src/prerendered-page.mjs';
import { serveApp } from '../src/serve.mjs';

// The shell's built page with its frame and marker, a release store with two versions of a remote, and a
// deployment manifest naming one of them stable: what `pnpm start` serves.
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'prerender-'));
const dist = path.join(root, 'shell');
const store = path.join(root, 'releases');
const manifestFile = path.join(root, 'local.json');
const SHELL_HTML = `<!doctype html><html><head><style data-prerendered="frame">.frame{color:red}</style></head><body><div id="root"><div data-prerendered-frame="" inert=""><header>Brand</header><main>${REGION_MARKER}</main></div></div><script src="/main.js"></script></body></html>`;
const V1 = '1.0.0-aaaaaaaaaa';
const V2 = '1.0.1-bbbbbbbbbb';

function release(version, pages) {
  const dir = path.join(store, 'mf-public-pages', version);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'prerender.json'), JSON.stringify({ pages }));
}
function deploy(stable) {
  const remotes = { 'mf-public-pages': { stable, previous: [] } };
  fs.writeFileSync(manifestFile, JSON.stringify({ schemaVersion: 1, remotes }));
}

const PORT = 3975;
const URL = `http://localhost:${PORT}`;
let server;

beforeAll(async () => {
  fs.mkdirSync(dist, { recursive: true });
  fs.writeFileSync(path.join(dist, 'index.html'), SHELL_HTML);
  release(V1, {
    '/': { html: '<h1>Welcome v1</h1>', css: '.hero{margin:0}' },
    '/about': { html: '<h1>About us</h1>', css: '.about{padding:0}' },
    '/contact': { html: `<p>${'Write to us. '.repeat(200)}</p>`, css: '' },
  });
  release(V2, { '/': { html: '<h1>Welcome v2</h1>', css: '.hero{margin:1px}' } });
  deploy(V1);
  server = await serveApp({
    name: 'shell',
    dir: dist,
    port: PORT,
    spa: true,
    runtimeConfig: { apiBaseUrl: 'http://localhost:4000', remotes: {} },
    releases: { store, manifestFile },
  });
});
afterAll(() => {
  server.close();
  fs.rmSync(root, { recursive: true, force: true });
});

const sha256 = (text) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

describe('a path a remote pre-rendered', () => {
  it("is the shell's page with the stable release's region inside main and its CSS in the head", async () => {
    const response = await fetch(`${URL}/about`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const page = await response.text();
    expect(page).toContain(
      '<main><div data-prerendered-region="mf-public-pages" data-path="/about"><h1>About us</h1></div></main>',
    );
    expect(page).toContain('<style data-prerendered="region">.about{padding:0}</style></head>');
    expect(page).not.toContain(REGION_MARKER);
  });

  it('carries a CSP that admits both style blocks by hash, and the page headers', async () => {
    const response = await fetch(`${URL}/about`);
    const policy = response.headers.get('content-security-policy') ?? '';
    const styleSrc = policy.split(';').find((d) => d.trim().startsWith('style-src')) ?? '';
    expect(styleSrc).toContain(sha256('.frame{color:red}'));
    expect(styleSrc).toContain(sha256('.about{padding:0}'));
    expect(styleSrc).not.toContain('unsafe-inline');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
  });

  it('follows the deployment manifest: a new stable version is what the next visitor gets', async () => {
    expect(await (await fetch(`${URL}/`)).text()).toContain('<h1>Welcome v1</h1>');
    deploy(V2);
    try {
      const page = await (await fetch(`${URL}/`)).text();
      expect(page).toContain('<h1>Welcome v2</h1>');
      expect(page).toContain('.hero{margin:1px}');
      // v2 has no /about: that path is the plain page again, never v1's stale screen.
      expect(await (await fetch(`${URL}/about`)).text()).toBe(SHELL_HTML);
    } finally {
      deploy(V1);
    }
  });

  it('is compressed like every page', async () => {
    const response = await fetch(`${URL}/contact`, { headers: { 'Accept-Encoding': 'gzip' } });
    expect(response.headers.get('content-encoding')).toBe('gzip');
  });
});

describe('every other page', () => {
  it.each(['/research-center', '/post/42', '/nowhere'])('%s is the plain shell page', async (url) => {
    const response = await fetch(URL + url);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(SHELL_HTML);
  });

  it('is the plain page when the manifest is missing or names no release with pages', async () => {
    fs.renameSync(manifestFile, `${manifestFile}.away`);
    try {
      expect(await (await fetch(`${URL}/`)).text()).toBe(SHELL_HTML);
    } finally {
      fs.renameSync(`${manifestFile}.away`, manifestFile);
    }
  });
});

describe("emotion's ids", () => {
  it("go with the region's style block, so emotion in the browser does not insert those rules again", async () => {
    const version = '1.0.3-dddddddddd';
    release(version, {
      '/': { html: '<p>x</p>', css: '.css-1abc{margin:0}', ids: ['1abc', '2def', 'bad id"'] },
    });
    deploy(version);
    try {
      const page = await (await fetch(`${URL}/`)).text();
      expect(page).toContain(
        '<style data-prerendered="region" data-emotion="css 1abc 2def">.css-1abc{margin:0}</style></head>',
      );
    } finally {
      deploy(V1);
    }
  });
});

describe('what a release could smuggle in', () => {
  it('a "</style" in its CSS cannot close the style block early', async () => {
    const version = '1.0.2-cccccccccc';
    release(version, { '/': { html: '<p>x</p>', css: '.a{}</style><script>alert(1)</script>' } });
    deploy(version);
    try {
      const page = await (await fetch(`${URL}/`)).text();
      expect(page).not.toContain('</style><script>alert(1)');
    } finally {
      deploy(V1);
    }
  });
});

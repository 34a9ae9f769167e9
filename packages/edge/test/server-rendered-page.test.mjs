import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { REGION_MARKER } from '../src/prerendered-page.mjs';
import { serveApp } from '../src/serve.mjs';
import { SERVER_RENDER_FILE } from '../src/server-rendered-page.mjs';

// A remote's release with a renderer (what tooling/webpack/prerender.mjs writes for mf-research), a fake API,
// and the shell's page served as `pnpm start` does.
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'server-render-'));
const dist = path.join(root, 'shell');
const store = path.join(root, 'releases');
const manifestFile = path.join(root, 'local.json');
const SHELL_HTML = `<!doctype html><html><head></head><body><div id="root"><main>${REGION_MARKER}</main></div><script src="/main.js"></script></body></html>`;
const VERSION = '1.0.0-cccccccccc';
const LIST = '/api/posts?status=published&limit=2';

// The renderer's contract: serverRequests(path) -> keys or null; renderPage(path, primed, { window }) ->
// { html, css, ids }. A post's page is made with the DOM the server lends (as mf-research sanitises with it).
const RENDERER = `
export function serverRequests(path) {
  if (path === '/research-center') return [${JSON.stringify(LIST)}, '/api/posts/tags'];
  return path === '/post/1' ? ['/api/posts/1'] : null;
}
export function renderPage(path, primed, { window }) {
  globalThis.__renders = (globalThis.__renders ?? 0) + 1;
  if (path === '/post/1') {
    const h1 = window.document.createElement('h1');
    h1.textContent = primed['/api/posts/1'].body.title;
    return { html: h1.outerHTML, css: '', ids: [] };
  }
  if (primed['/api/posts/tags']?.body === 'explode') throw new Error('render failed');
  const list = primed[${JSON.stringify(LIST)}];
  const cards = list ? list.body.map((p) => '<article>' + p.title.replace(/</g, '&lt;') + '</article>').join('') : '<div>loading</div>';
  return { html: '<h1>Research</h1>' + cards, css: '.cards{gap:1px}', ids: ['abc'] };
}`;

let answers = {};
let apiDelayMs = 0;
const apiRequests = [];
const api = http.createServer((req, res) => {
  apiRequests.push({
    url: req.url,
    authorization: req.headers.authorization,
    purpose: req.headers['sec-purpose'],
  });
  const answer = answers[req.url];
  setTimeout(() => {
    if (!answer) {
      res.writeHead(404, { 'Content-Type': 'application/json' });
      return res.end('{"error":"Not found"}');
    }
    res.writeHead(200, { 'Content-Type': 'application/json', ...answer.headers });
    res.end(JSON.stringify(answer.body));
  }, apiDelayMs);
});

const PORT = 3976;
const API_PORT = 3977;
const URL = `http://localhost:${PORT}`;
let server;

beforeAll(async () => {
  fs.mkdirSync(dist, { recursive: true });
  fs.writeFileSync(path.join(dist, 'index.html'), SHELL_HTML);
  const release = path.join(store, 'mf-research', VERSION);
  fs.mkdirSync(release, { recursive: true });
  fs.writeFileSync(path.join(release, SERVER_RENDER_FILE), RENDERER);
  fs.writeFileSync(
    path.join(release, 'prerender.json'),
    JSON.stringify({ pages: { '/research-center': { html: '<h1>Research</h1><div>built</div>', css: '' } } }),
  );
  fs.writeFileSync(
    manifestFile,
    JSON.stringify({ schemaVersion: 1, remotes: { 'mf-research': { stable: VERSION, previous: [] } } }),
  );
  await new Promise((resolve) => api.listen(API_PORT, resolve));
  server = await serveApp({
    name: 'shell',
    dir: dist,
    port: PORT,
    spa: true,
    runtimeConfig: { apiBaseUrl: `http://localhost:${API_PORT}`, remotes: {} },
    releases: { store, manifestFile },
  });
});
beforeEach(() => {
  answers = {
    [LIST]: {
      body: [{ title: 'Supplier risk' }, { title: '</script><b>x</b>' }],
      headers: { 'X-Next-Cursor': 'c2', 'X-Other': 'no' },
    },
    '/api/posts/tags': { body: [{ name: 'risk', count: 2 }] },
    '/api/posts/1': { body: { id: 1, title: 'Margins <in> 2027' } },
  };
  apiDelayMs = 0;
  apiRequests.length = 0;
});
afterAll(() => {
  server.close();
  api.close();
  fs.rmSync(root, { recursive: true, force: true });
});

const primedOf = (page) => {
  const match = page.match(/<script type="application\/json" data-primed-responses="">(.*?)<\/script>/);
  return match ? JSON.parse(match[1]) : null;
};

describe('a first screen rendered with the API', () => {
  it("shows the API's answers in the picture and sends them along for the live app", async () => {
    const page = await (await fetch(`${URL}/research-center`)).text();
    expect(page).toContain(
      '<div data-prerendered-region="mf-research" data-path="/research-center"><h1>Research</h1><article>Supplier risk</article>',
    );
    expect(page).toContain('<style data-prerendered="region" data-emotion="css abc">.cards{gap:1px}</style>');
    expect(primedOf(page)).toEqual({
      [LIST]: {
        body: [{ title: 'Supplier risk' }, { title: '</script><b>x</b>' }],
        headers: { 'x-next-cursor': 'c2' },
      },
      '/api/posts/tags': { body: [{ name: 'risk', count: 2 }], headers: {} },
    });
    // An answer can never end the data block early.
    expect(page.match(/<\/script>/g)).toHaveLength(2);
    expect(apiRequests.map((r) => r.url).sort()).toEqual(['/api/posts/tags', LIST]);
    // As a guest, and as a read ahead of the visit (the API counts no view for it).
    expect(apiRequests.every((r) => r.authorization === undefined)).toBe(true);
    expect(apiRequests.every((r) => r.purpose === 'prefetch')).toBe(true);
  });

  it("lends the renderer a DOM for what needs one (a post's body is sanitised with it)", async () => {
    const page = await (await fetch(`${URL}/post/1`)).text();
    expect(page).toContain(
      '<div data-prerendered-region="mf-research" data-path="/post/1"><h1>Margins &lt;in&gt; 2027</h1></div>',
    );
    expect(Object.keys(primedOf(page))).toEqual(['/api/posts/1']);
  });

  it('leaves out an answer that is not a 200, and renders from the rest', async () => {
    delete answers['/api/posts/tags'];
    const page = await (await fetch(`${URL}/research-center`)).text();
    expect(page).toContain('<article>Supplier risk</article>');
    expect(Object.keys(primedOf(page))).toEqual([LIST]);
  });

  it('falls back to the build-time picture when the API is late', async () => {
    apiDelayMs = 800;
    const started = Date.now();
    const page = await (await fetch(`${URL}/research-center`)).text();
    expect(Date.now() - started).toBeLessThan(750);
    expect(page).toContain('<h1>Research</h1><div>built</div>');
    expect(primedOf(page)).toBeNull();
  });

  it('falls back to the build-time picture when the renderer fails', async () => {
    answers['/api/posts/tags'].body = 'explode';
    const page = await (await fetch(`${URL}/research-center`)).text();
    expect(page).toContain('<div>built</div>');
    expect(primedOf(page)).toBeNull();
  });

  it('renders once for the same answers, and again as soon as they change', async () => {
    answers[LIST].body = [{ title: `Render count ${Date.now()}` }];
    const renders = () => globalThis.__renders ?? 0;
    const before = renders();
    const first = await (await fetch(`${URL}/research-center`)).text();
    const second = await (await fetch(`${URL}/research-center`)).text();
    expect(second).toBe(first);
    expect(renders() - before).toBe(1);
    answers[LIST].body = [{ title: 'Just published' }];
    expect(await (await fetch(`${URL}/research-center`)).text()).toContain(
      '<article>Just published</article>',
    );
    expect(renders() - before).toBe(2);
  });

  it('asks the API nothing for a path the renderer does not serve', async () => {
    expect(await (await fetch(`${URL}/about`)).text()).toBe(SHELL_HTML);
    expect(apiRequests).toHaveLength(0);
  });
});

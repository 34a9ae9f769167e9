import http from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { edgeFixture, paintedVersion, runtimeConfig } from './fixture';

// A remote's release with a renderer (what tooling/webpack/prerender.mjs writes for mf-research), a fake API,
// and the shell's page served by the edge (docs/decisions/0021-first-screen-with-data.md).
const f = edgeFixture('edge-server-render');
const VERSION = '1.0.0-cccccccccc';
const LIST = '/api/posts?status=published&limit=2';

// The renderer's contract: serverRequests(path) -> keys or null; renderPage(path, primed, { window }) ->
// { html, css, ids }. A post's page is made with the DOM the server lends (as mf-research sanitises with it).
// It runs in its release's worker process: the number of renders it made so far is written into its page.
const RENDERER = `
let renders = 0;
export function serverRequests(path) {
  if (path === '/research-center') return [${JSON.stringify(LIST)}, '/api/posts/tags'];
  return path === '/post/1' ? ['/api/posts/1'] : null;
}
export function renderPage(path, primed, { window }) {
  renders += 1;
  if (path === '/post/1') {
    const h1 = window.document.createElement('h1');
    h1.textContent = primed['/api/posts/1'].body.title;
    return { html: h1.outerHTML, css: '', ids: [] };
  }
  if (primed['/api/posts/tags']?.body === 'explode') throw new Error('render failed');
  const list = primed[${JSON.stringify(LIST)}];
  const cards = list ? list.body.map((p) => '<article>' + p.title.replace(/</g, '&lt;') + '</article>').join('') : '<div>loading</div>';
  return { html: '<h1>Research</h1>' + cards + '<p data-renders="' + renders + '"></p>', css: '.cards{gap:1px}', ids: ['abc'] };
}`;

type Answer = { body: unknown; headers?: Record<string, string> };
let answers: Record<string, Answer> = {};
let apiDelayMs = 0;
const apiRequests: Array<{ url?: string; authorization?: string; purpose?: string | string[] }> = [];
const api = http.createServer((req, res) => {
  apiRequests.push({
    url: req.url,
    authorization: req.headers.authorization,
    purpose: req.headers['sec-purpose'],
  });
  const answer = answers[req.url ?? ''];
  setTimeout(() => {
    if (!answer) {
      res.writeHead(404, { 'Content-Type': 'application/json' });
      return res.end('{"error":"Not found"}');
    }
    res.writeHead(200, { 'Content-Type': 'application/json', ...answer.headers });
    res.end(JSON.stringify(answer.body));
  }, apiDelayMs);
});

const API_PORT = 3977;
let URL = '';

beforeAll(async () => {
  f.release('mf-research', VERSION, {
    renderer: RENDERER,
    pages: { '/research-center': { html: '<h1>Research</h1><div>built</div>', css: '' } },
  });
  await f.deploy({ 'mf-research': { stable: VERSION } });
  await new Promise<void>((resolve) => api.listen(API_PORT, resolve));
  URL = await f.start(3976, { runtimeConfig: runtimeConfig(`http://localhost:${API_PORT}`) });
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
  api.close();
  f.close();
});

const page = async (path: string) => (await fetch(`${URL}${path}`)).text();
const primedOf = (html: string) => {
  const match = html.match(/<script type="application\/json" data-primed-responses="">(.*?)<\/script>/);
  return match?.[1] ? JSON.parse(match[1]) : null;
};
/** How many renders the release's worker had made when it made this page. */
const rendersIn = (html: string) => Number(html.match(/data-renders="(\d+)"/)?.[1]);

describe('a first screen rendered with the API', () => {
  it("shows the API's answers in the picture and sends them along for the live app", async () => {
    const html = await page('/research-center');
    expect(html).toContain(
      `<div data-prerendered-region="mf-research" data-version="${VERSION}" data-path="/research-center"><h1>Research</h1><article>Supplier risk</article>`,
    );
    expect(html).toContain('<style data-prerendered="region" data-emotion="css abc">.cards{gap:1px}</style>');
    expect(primedOf(html)).toEqual({
      [LIST]: {
        body: [{ title: 'Supplier risk' }, { title: '</script><b>x</b>' }],
        headers: { 'x-next-cursor': 'c2' },
      },
      '/api/posts/tags': { body: [{ name: 'risk', count: 2 }], headers: {} },
    });
    // An answer can never end a data block early: the plan's block and the answers' block, nothing else.
    expect(html.match(/<\/script>/g)).toHaveLength(3);
    expect(apiRequests.map((r) => r.url).sort()).toEqual(['/api/posts/tags', LIST]);
    // As a guest, and as a read ahead of the visit (the API counts no view for it).
    expect(apiRequests.every((r) => r.authorization === undefined)).toBe(true);
    expect(apiRequests.every((r) => r.purpose === 'prefetch')).toBe(true);
  });

  it("lends the renderer a DOM for what needs one (a post's body is sanitised with it)", async () => {
    const html = await page('/post/1');
    expect(html).toContain(
      `<div data-prerendered-region="mf-research" data-version="${VERSION}" data-path="/post/1"><h1>Margins &lt;in&gt; 2027</h1></div>`,
    );
    expect(Object.keys(primedOf(html))).toEqual(['/api/posts/1']);
  });

  it('leaves out an answer that is not a 200, and renders from the rest', async () => {
    delete answers['/api/posts/tags'];
    const html = await page('/research-center');
    expect(html).toContain('<article>Supplier risk</article>');
    expect(Object.keys(primedOf(html))).toEqual([LIST]);
  });

  it('falls back to the build-time picture of the same release when the API is late', async () => {
    apiDelayMs = 800;
    const started = Date.now();
    const html = await page('/research-center');
    expect(Date.now() - started).toBeLessThan(750);
    expect(html).toContain('<h1>Research</h1><div>built</div>');
    expect(paintedVersion(html)).toBe(VERSION);
    expect(primedOf(html)).toBeNull();
  });

  it('counts a late API where the operator looks, and a post that does not exist not at all', async () => {
    const degraded = async () =>
      (
        (await (await fetch(`${URL}/_edge/status`)).json()) as {
          degraded: Array<{ kind: string; path: string }>;
        }
      ).degraded;
    await page('/post/999');
    expect((await degraded()).filter((d) => d.path === '/post/999')).toEqual([]);
    apiDelayMs = 800;
    await page('/post/1');
    expect((await degraded()).find((d) => d.path === '/post/1')).toMatchObject({
      kind: 'api-answers-missing',
    });
  });

  it('falls back to the build-time picture when the renderer fails', async () => {
    (answers['/api/posts/tags'] as Answer).body = 'explode';
    const html = await page('/research-center');
    expect(html).toContain('<div>built</div>');
    expect(primedOf(html)).toBeNull();
  });

  it('renders once for the same answers, and again as soon as they change', async () => {
    (answers[LIST] as Answer).body = [{ title: `Render count ${Date.now()}` }];
    const first = await page('/research-center');
    const second = await page('/research-center');
    expect(second.replace(/id="page-plan">.*?<\/script>/, '')).toBe(
      first.replace(/id="page-plan">.*?<\/script>/, ''),
    );
    expect(rendersIn(second)).toBe(rendersIn(first));
    (answers[LIST] as Answer).body = [{ title: 'Just published' }];
    const third = await page('/research-center');
    expect(third).toContain('<article>Just published</article>');
    expect(rendersIn(third)).toBe(rendersIn(first) + 1);
  });

  it('asks the API nothing for a path the renderer does not serve', async () => {
    expect(paintedVersion(await page('/about'))).toBeNull();
    expect(apiRequests).toHaveLength(0);
  });
});

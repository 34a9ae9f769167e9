import http from 'node:http';
import type { RenderReport } from '@app/contracts/render-report';
import { renderReportKey, verifyRenderReport } from '@app/rollout/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RenderFigures } from '../src/render-figures';
import { renderReporter } from '../src/render-reporter';
import { cookieFrom, EDGE_SECRET, edgeFixture, paintedVersion, runtimeConfig } from './fixture';

// Issue 48 (docs/decisions/0043-server-signals-in-the-gate.md): the edge counts each version's server
// renders, failed ones apart, and sends them to the API signed with the secret they share. The failing
// release is the kind hostile-releases.test.ts ships (a renderer that throws instead of rendering).
const f = edgeFixture('edge-render-figures');
const API_PORT = 3996;
const STABLE = '1.0.0-aaaaaaaaaa';
const BROKEN = '1.1.0-bbbbbbbbbb';
const PREVIEWED = '1.2.0-cccccccccc';
const built = { '/research-center': { html: '<h1>Research (built)</h1>', css: '' } };
const renderer = (body: string) => `export const serverRequests = () => ['/api/posts'];
export function renderPage() { ${body} }`;

/** The API: posts for the renderers, and the render batches it was sent (with their signature's verdict). */
const received: Array<{ report: RenderReport; verdict: string }> = [];
let answer = 204;
const api = http.createServer((req, res) => {
  if (req.method === 'POST' && req.url === '/api/rollout/renders') {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const verdict = verifyRenderReport(
        body,
        req.headers['x-edge-report-time'] as string,
        req.headers['x-edge-report-signature'] as string,
        renderReportKey(EDGE_SECRET),
      );
      if (answer < 300)
        received.push({ report: JSON.parse(body), verdict: verdict.ok ? 'ok' : verdict.reason });
      res.writeHead(answer).end();
    });
    return;
  }
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify([{ title: 'A post' }]));
});

const figures = new RenderFigures();
const reporter = renderReporter({
  figures,
  apiUrl: () => `http://localhost:${API_PORT}`,
  environment: 'production',
  edgeSecret: EDGE_SECRET,
  intervalMs: 3_600_000,
  warn: () => {},
});
let URL = '';
beforeAll(async () => {
  f.release('mf-research', STABLE, {
    renderer: renderer("return { html: '<h1>Rendered</h1>', css: '' };"),
    pages: built,
  });
  f.release('mf-research', BROKEN, {
    renderer: renderer("throw new Error('the canary cannot render');"),
    pages: built,
  });
  f.release('mf-research', PREVIEWED, {
    renderer: renderer("throw new Error('nor can the preview');"),
    pages: built,
  });
  f.release('mf-public-pages', '2.0.0-dddddddddd');
  await new Promise<void>((resolve) => api.listen(API_PORT, resolve));
  URL = await f.start(3995, {
    runtimeConfig: runtimeConfig(`http://localhost:${API_PORT}`),
    renderFigures: figures,
  });
}, 60_000);
afterAll(async () => {
  await reporter.stop();
  api.close();
  f.close();
});
beforeEach(() => {
  figures.take();
  received.length = 0;
  answer = 204;
});

const canaryEverywhere = () =>
  f.deploy({
    'mf-research': { stable: STABLE, canary: { version: BROKEN, percent: 100 } },
    'mf-public-pages': { stable: '2.0.0-dddddddddd' },
  });

describe("the edge's server render figures", () => {
  it('count a failing canary render and send it to the API, signed', async () => {
    await canaryEverywhere();
    for (let i = 0; i < 3; i++) {
      const page = await fetch(`${URL}/research-center`);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain('<h1>Research (built)</h1>');
      expect(paintedVersion(html)).toBe(BROKEN);
    }
    await reporter.flush();
    expect(received).toHaveLength(1);
    expect(received[0]?.verdict).toBe('ok');
    expect(received[0]?.report).toMatchObject({
      environment: 'production',
      entries: [{ remote: 'mf-research', version: BROKEN, track: 'canary', renders: 3, failures: 3 }],
    });
    expect(received[0]?.report.id).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
  });

  it("count stable's good renders as stable's", async () => {
    await f.deploy({ 'mf-research': { stable: STABLE }, 'mf-public-pages': { stable: '2.0.0-dddddddddd' } });
    expect(await (await fetch(`${URL}/research-center`)).text()).toContain('<h1>Rendered</h1>');
    expect(figures.take()).toEqual([
      expect.objectContaining({ version: STABLE, track: 'stable', renders: 1, failures: 0 }),
    ]);
  });

  it("do not count a preview's renders: a preview is nobody's rollout", async () => {
    await f.deploy({ 'mf-research': { stable: STABLE }, 'mf-public-pages': { stable: '2.0.0-dddddddddd' } });
    const token = await f.previewToken('mf-research', PREVIEWED);
    const opened = await fetch(`${URL}/research-center?preview=${encodeURIComponent(token)}`, {
      redirect: 'manual',
    });
    const cookie = cookieFrom(opened, 'preview') ?? '';
    const page = await fetch(`${URL}/research-center`, { headers: { cookie } });
    expect(paintedVersion(await page.text())).toBe(PREVIEWED);
    expect(figures.take()).toEqual([]);
  });

  it('keep what the API could not take (5xx) for the next batch', async () => {
    await canaryEverywhere();
    await fetch(`${URL}/research-center`);
    answer = 503;
    await reporter.flush();
    expect(figures.size).toBe(1);
    answer = 204;
    await reporter.flush();
    expect(received[0]?.report.entries).toEqual([
      expect.objectContaining({ version: BROKEN, renders: 1, failures: 1 }),
    ]);
  });
});

import http from 'node:http';
import type { DeploymentManifest } from '@app/rollout';
import { seriesCount } from '@app/server-metrics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeMetrics, type RenderOutcome } from '../src/metrics';
import { cookieFrom, edgeFixture, runtimeConfig } from './fixture';

// Issue 48: GET /metrics on the edge's own port, for the internal network only: pages by route template,
// renders by remote, version and cohort, health tickets, the deployment feed; labels from closed sets only.
const f = edgeFixture('edge-metrics');
const STABLE = '1.0.0-aaaaaaaaaa';
const CANARY = '1.1.0-bbbbbbbbbb';
const PREVIEW = '1.2.0-cccccccccc';
const API_PORT = 3996;
let URL = '';

// Renders /post/1 from the API's answer; the research center's render throws (a broken release, for the
// failure count).
const RENDERER = `
export function serverRequests(path) {
  return path === '/post/1' || path === '/research-center' ? ['/api/posts/1'] : null;
}
export function renderPage(path, primed) {
  if (path === '/research-center') throw new Error('this release cannot render the research center');
  return { html: '<h1>' + primed['/api/posts/1'].body.title + '</h1>', css: '', ids: [] };
}`;

const api = http.createServer((_req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ id: 1, title: 'A post' }));
});

beforeAll(async () => {
  for (const version of [STABLE, CANARY, PREVIEW]) f.release('mf-research', version, { renderer: RENDERER });
  // Every visitor gets the canary: its renders count under cohort "canary".
  await f.deploy({ 'mf-research': { stable: STABLE, canary: { version: CANARY, percent: 100 } } });
  await new Promise<void>((resolve) => api.listen(API_PORT, resolve));
  URL = await f.start(3995, { runtimeConfig: runtimeConfig(`http://localhost:${API_PORT}`) });
});
afterAll(() => {
  api.close();
  f.close();
});

const visit = async (path: string, headers: Record<string, string> = {}) => {
  const response = await fetch(`${URL}${path}`, { headers, redirect: 'manual' });
  await response.arrayBuffer();
  return response;
};

const scrape = async () => {
  const response = await fetch(`${URL}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/plain; version=0.0.4');
  return response.text();
};

/** The value of one sample (`name{labels}`, labels in the order prom-client writes them), or undefined. */
const sample = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};
/** The series a scrape shows (one per sample line). */
const series = (text: string) => text.split('\n').filter((l) => l !== '' && !l.startsWith('#'));
const renders = (version: string, cohort: string, outcome: RenderOutcome) =>
  `edge_renders_total{remote="mf-research",version="${version}",cohort="${cohort}",outcome="${outcome}"}`;

describe('GET /metrics', () => {
  it('counts pages by route template, renders by version and cohort, tickets, and the feed', async () => {
    expect((await visit('/post/1')).status).toBe(200); // canary renders
    expect((await visit('/post/2')).status).toBe(200); // no server request for it: no render
    expect((await visit('/research-center')).status).toBe(200); // canary's render fails: the picture
    expect((await visit('/no-such-page')).status).toBe(200); // the shell answers it (its own 404 screen)

    const text = await scrape();
    const pages = (route: string, remote: string) =>
      sample(text, `edge_page_requests_total{route="${route}",remote="${remote}",status_class="2xx"}`);
    expect(pages('/post/:id', 'mf-research')).toBe(2);
    expect(pages('/research-center', 'mf-research')).toBe(1);
    expect(pages('unmatched', 'unmatched')).toBe(1);
    expect(sample(text, 'edge_page_duration_seconds_count{route="/post/:id"}')).toBe(2);
    expect(text).not.toMatch(/\/post\/[12]"|no-such-page/);

    expect(sample(text, renders(CANARY, 'canary', 'ok'))).toBe(1);
    expect(sample(text, renders(CANARY, 'canary', 'failed'))).toBe(1);
    expect(
      sample(
        text,
        `edge_render_duration_seconds_count{remote="mf-research",version="${CANARY}",cohort="canary"}`,
      ),
    ).toBe(2);
    // Every page named a released version to a counted visitor: four tickets.
    expect(sample(text, 'edge_health_tickets_total')).toBe(4);

    expect(sample(text, `edge_deploy_feed_revision{environment="${f.api.environment}"}`)).toBe(
      f.api.revision(),
    );
    expect(sample(text, `edge_deploy_feed_failures{environment="${f.api.environment}"}`)).toBe(0);
    const sinceContact = sample(
      text,
      `edge_deploy_feed_seconds_since_contact{environment="${f.api.environment}"}`,
    );
    expect(sinceContact).toBeGreaterThanOrEqual(0);
    expect(sinceContact).toBeLessThan(60);
    expect(text).toMatch(/^edge_build_info\{version="[^"]+"\} 1$/m);
  });

  it("a preview's render counts under cohort preview, its version (not deployed) as other", async () => {
    const token = await f.previewToken('mf-research', PREVIEW);
    const opened = await visit(`/post/1?preview=${encodeURIComponent(token)}`);
    expect(opened.status).toBe(303);
    const cookie = { Cookie: cookieFrom(opened, 'preview') ?? '' };
    // No worker of a version outside the deployment runs yet: the first page gets the picture.
    expect((await visit('/post/1', cookie)).status).toBe(200);
    await f.renderPool().settled();
    expect((await visit('/post/1', cookie)).status).toBe(200);
    const text = await scrape();
    expect(sample(text, renders('other', 'preview', 'unavailable'))).toBe(1);
    expect(sample(text, renders('other', 'preview', 'ok'))).toBe(1);
    expect(
      sample(text, 'edge_page_requests_total{route="/post/:id",remote="mf-research",status_class="3xx"}'),
    ).toBe(1);
    expect(text).not.toContain(PREVIEW);
  });

  it('is a 404 for a proxied request, as for a file the edge does not have', async () => {
    for (const headers of [{ 'X-Forwarded-For': '127.0.0.1' }, { Forwarded: 'for=127.0.0.1' }] as Record<
      string,
      string
    >[]) {
      const response = await fetch(`${URL}/metrics`, { headers });
      expect(response.status).toBe(404);
      expect(await response.text()).toBe('Not found');
    }
    expect((await fetch(`${URL}/metrics`, { method: 'POST' })).status).toBe(404);
  });

  it('random page paths, queries and methods stay under a fixed number of series, and add none once seen', async () => {
    const random = () => Math.random().toString(36).slice(2);
    const flood = async () => {
      for (let i = 0; i < 60; i++) {
        await Promise.all([
          visit(`/${random()}`),
          visit(`/post/${random()}?preview=${random()}`),
          visit(`/dashboards/${random()}/${random()}`),
          visit(`/${random()}.js`),
          fetch(`${URL}/${random()}`, { method: i % 2 ? 'PROPFIND' : 'DELETE' }).then((r) => r.arrayBuffer()),
        ]);
      }
    };
    await flood(); // 300 requests, each to a new path
    const first = await scrape();
    expect(series(first).length).toBeLessThan(150);
    await flood();
    expect(series(await scrape()).length).toBe(series(first).length);
  });
});

describe('version labels', () => {
  /** A deployment of mf-research: its stable and canary versions. */
  const manifest = (revision: number, stable: string, canary: string): DeploymentManifest => ({
    schemaVersion: 1,
    environment: 'production',
    revision,
    updatedAt: new Date(0).toISOString(),
    remotes: {
      'mf-research': {
        stable,
        previous: [],
        canary: {
          version: canary,
          percent: 10,
          startedAt: new Date(0).toISOString(),
          stepStartedAt: new Date(0).toISOString(),
        },
      },
    },
  });
  const version = (n: number) => `1.${n}.0-${String(n).padStart(10, '0')}`;

  it('only the versions of the deployment in use and of the one before it; random ones are "other"', async () => {
    let current = manifest(1, version(0), version(1));
    const metrics = edgeMetrics({ processMetrics: false, manifest: () => current });
    const cohorts = ['stable', 'canary', 'preview', 'override', 'config'] as const;
    const outcomes: RenderOutcome[] = ['ok', 'failed', 'unavailable'];
    // 100 rollouts, each rendered by every cohort with every outcome, and by 20 versions no deployment names.
    for (let n = 1; n <= 100; n++) {
      current = manifest(n, version(n - 1), version(n));
      for (const v of [
        version(n - 1),
        version(n),
        ...Array.from({ length: 20 }, () => Math.random().toString(36)),
      ])
        for (const track of cohorts)
          for (const outcome of outcomes)
            metrics.render({ remote: 'mf-research', version: v, track }, outcome, 0.01);
    }
    const json = (await metrics.registry.getMetricsAsJSON()).filter((m) => m.name.startsWith('edge_render'));
    const versions = new Set(
      json
        .flatMap((metric) => metric.values.map((value) => value.labels.version))
        .filter((v) => v !== undefined),
    );
    expect(versions).toEqual(new Set([version(98), version(99), version(100), 'other']));
    // 4 versions x 5 cohorts: 3 outcomes counted, 14 samples of a histogram (2 of 3 outcomes timed).
    expect(await seriesCount(metrics.registry, 'edge_render')).toBeLessThanOrEqual(4 * 5 * (3 + 14));
  });
});

import { API_PATHS } from '@app/contracts';
import { seriesCount } from '@app/server-metrics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app';
import { startServer } from '../src/server';
import { event, ticketFor } from './health-tickets';
import { ON_POSTGRES, TestServer, testConfig } from './helpers';

/**
 * Issue 48: GET /metrics on the instance's own port, for the internal network only, with every label from
 * a closed set however many paths, methods and statuses the requests carry.
 */
let s: TestServer;
beforeAll(async () => {
  s = new TestServer(await startServer(testConfig(), undefined, { processMetrics: true }));
});
afterAll(() => s.close());

const scrape = async () => {
  const response = await fetch(`${s.url}/metrics`);
  expect(response.status).toBe(200);
  return response.text();
};

/** The value of one sample (`name{labels}`, labels in the order prom-client writes them), or undefined. */
const sample = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};
const requests = (route: string, method: string, statusClass: string) =>
  `api_http_requests_total{route="${route}",method="${method}",status_class="${statusClass}"}`;

/** Every value the scrape gives `label` in `metric`'s samples. */
const labelValues = (text: string, metric: string, label: string) =>
  new Set(
    text
      .split('\n')
      .filter((l) => l.startsWith(`${metric}{`))
      .map((l) => new RegExp(`[{,]${label}="([^"]*)"`).exec(l)?.[1]),
  );

describe('GET /metrics', () => {
  it('answers loopback in the text format: requests by route template, health reports, the outbox, the process', async () => {
    expect((await s.get(API_PATHS.posts)).status).toBe(200); // the list lane
    expect((await s.get(API_PATHS.post(987654))).status).toBe(404); // hono, a route with a parameter
    // A static route that a later route with a parameter also matches: counted under its own.
    expect((await s.get(API_PATHS.tags)).status).toBe(200);
    expect((await s.get(API_PATHS.health)).status).toBe(200);
    expect((await s.post(API_PATHS.rolloutHealth, { ticket: ticketFor(), events: [event()] })).status).toBe(
      204,
    );
    expect((await s.post(API_PATHS.rolloutHealth, { ticket: 'x.y', events: [event()] })).status).toBe(400);
    expect((await s.req('POST', API_PATHS.rolloutHealth, { rawBody: '{' })).status).toBe(400);

    const response = await fetch(`${s.url}/metrics`);
    expect(response.headers.get('content-type')).toContain('text/plain; version=0.0.4');
    const text = await response.text();
    expect(sample(text, requests('/api/posts', 'GET', '2xx'))).toBe(1);
    expect(sample(text, requests('/api/posts/:idOrSlug', 'GET', '4xx'))).toBe(1);
    expect(sample(text, requests(API_PATHS.tags, 'GET', '2xx'))).toBe(1);
    expect(sample(text, requests('/api/posts/:idOrSlug', 'GET', '2xx'))).toBeUndefined();
    expect(sample(text, requests(API_PATHS.health, 'GET', '2xx'))).toBe(1);
    expect(sample(text, requests(API_PATHS.rolloutHealth, 'POST', '4xx'))).toBe(2);
    expect(sample(text, 'api_http_request_duration_seconds_count{route="/api/posts",method="GET"}')).toBe(1);
    expect(text).toMatch(
      /^api_http_request_duration_seconds_bucket\{le="\+Inf",route="\/api\/posts",method="GET"\} 1$/m,
    );
    expect(text).not.toContain('987654');

    expect(sample(text, 'api_health_reports_accepted_total')).toBe(1);
    expect(sample(text, 'api_health_reports_refused_total{reason="forged"}')).toBe(1);
    expect(sample(text, 'api_health_reports_refused_total{reason="malformed"}')).toBe(1);
    expect(sample(text, 'api_health_reports_refused_total{reason="replayed"}')).toBe(0);

    for (const status of ['pending', 'sending', 'failed'])
      expect(sample(text, `api_outbox_mails{status="${status}"}`)).toBe(0);
    expect(sample(text, 'api_deploy_feed_waiters')).toBe(0);
    expect(text).toMatch(/^api_build_info\{version="[^"]+"\} 1$/m);
    // The pool is PostgreSQL's: ten connections at most, none waiting now.
    if (ON_POSTGRES) {
      expect(sample(text, 'api_db_pool_max_connections')).toBe(10);
      expect(sample(text, 'api_db_pool_waiting')).toBe(0);
      expect(text).toMatch(/^api_db_pool_connections\{state="in_use"\} \d+$/m);
    } else {
      expect(text).not.toContain('api_db_pool');
    }
    for (const name of [
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
    ])
      expect(text).toMatch(new RegExp(`^${name} `, 'm'));
  });

  it('is a 404 for a proxied request (X-Forwarded-For), as for any path the API does not have', async () => {
    const proxied: Record<string, string>[] = [
      { 'X-Forwarded-For': '127.0.0.1' },
      { Forwarded: 'for=127.0.0.1' },
    ];
    for (const headers of proxied) {
      const r = await s.req('GET', '/metrics', { headers });
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ error: 'Not found' });
    }
    expect((await s.req('POST', '/metrics')).status).toBe(404);
    expect(sample(await scrape(), requests('/metrics', 'GET', '4xx'))).toBe(2);
  });

  it("the outbox's gauges read the database at each scrape", async () => {
    const u = await s.user([]);
    expect((await s.post(API_PATHS.forgotPassword, { email: u.email })).status).toBe(202); // a reset link waits: no SMTP_URL here
    const pending = Number(
      await s.ctx.sql.value<number>('SELECT COUNT(*) FROM outbox WHERE status = ?', ['pending']),
    );
    expect(pending).toBeGreaterThan(0);
    expect(sample(await scrape(), 'api_outbox_mails{status="pending"}')).toBe(pending);
  });

  it('a 500 and a 4xx show in their status classes', async () => {
    const contact = s.ctx.site.contact.bind(s.ctx.site);
    s.ctx.site.contact = async () => {
      throw new Error('the contact page broke');
    };
    try {
      expect((await s.get(API_PATHS.publicContact)).status).toBe(500);
    } finally {
      s.ctx.site.contact = contact;
    }
    expect((await s.get(API_PATHS.publicContact)).status).toBe(200);
    expect((await s.get(API_PATHS.profile)).status).toBe(401);
    const text = await scrape();
    expect(sample(text, requests(API_PATHS.publicContact, 'GET', '5xx'))).toBe(1);
    expect(sample(text, requests(API_PATHS.publicContact, 'GET', '2xx'))).toBe(1);
    expect(sample(text, requests(API_PATHS.profile, 'GET', '4xx'))).toBe(1);
  });
});

describe('cardinality', () => {
  const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'PROPFIND', 'PURGE', 'MKCOL'];
  const random = () => Math.random().toString(36).slice(2);
  const paths = () => [
    `/${random()}`,
    `/api/${random()}`,
    `/api/posts/${random()}`,
    `/api/posts/${random()}/comments`,
    `/api/${random()}/${random()}?q=${random()}`,
    `/metrics/${random()}`,
  ];
  async function flood(rounds: number) {
    for (let i = 0; i < rounds; i++) {
      await Promise.all(
        paths().map((p, j) =>
          fetch(`${s.url}${p}`, { method: METHODS[(i * 6 + j) % METHODS.length] }).then((r) =>
            r.arrayBuffer(),
          ),
        ),
      );
    }
  }

  it('random paths and methods stay under a fixed number of series, and add none once seen', async () => {
    await flood(100); // 600 requests, each path new
    const after = await seriesCount(s.server.metrics.registry);
    const text = await scrape();
    // Labels only from closed sets: registered templates (or 'unmatched'), known methods (or 'other').
    const routes = createApp(s.ctx).routes.filter((r) => r.method !== 'ALL');
    const registered = new Set([...routes.map((r) => r.path), '/metrics', 'unmatched']);
    for (const route of labelValues(text, 'api_http_requests_total', 'route'))
      expect(registered.has(route ?? ''), route).toBe(true);
    expect(labelValues(text, 'api_http_requests_total', 'method')).toEqual(
      new Set(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'other']),
    );
    // Process metrics (GC kinds, heap spaces) included; 600 new paths would be thousands of series.
    expect(after).toBeLessThan(700);
    // The API's own series (the process's grow a little as GC kinds and handle types first appear).
    const ours = await seriesCount(s.server.metrics.registry, 'api_');
    expect(ours).toBeLessThan(400);
    await flood(100);
    expect(await seriesCount(s.server.metrics.registry, 'api_')).toBe(ours);
  });
});

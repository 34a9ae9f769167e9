// A real Prometheus pointed at the cluster (issue 48): Debian's prometheus, started by startCluster's
// `prometheus` option (the same as `pnpm start:cluster --prometheus`), scraping both API and both edge
// instances every second. After traffic through nginx, a canary, a kill -9 of one API instance and more
// traffic, its HTTP API must show the requests per route template and instance, the errors, a p95, the
// restart, and render series whose versions are the live deployment's; the series stay bounded under
// random paths; and every query of the shipped Grafana dashboard (infra/grafana/dashboard.json) runs.
// On SQLite and ports of its own (nginx 8280, API 4201-4202, edge 4211-4212, Prometheus 9190), so it can
// run beside a cluster on the default ports and beside cluster.test.mjs.
// Run: `node --import tsx --test scripts/cluster/prometheus.test.mjs` (needs Debian's nginx and
// prometheus: `bash scripts/install.sh --nginx --prometheus`).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { lineLog } from './line-log.mjs';
import { clusterWorkDir, edgesAt, testClusterOptions } from './test-cluster.mjs';

const work = clusterWorkDir('prometheus-test-');
const { startCluster } = await import('./cluster.mjs');
const { ROOT } = await import('../apps.mjs');
const { createContext, release, startCanary } = await import('@app/release');

const PORT = 8280;
const API_PORTS = [4201, 4202];
const EDGE_PORTS = [4211, 4212];
const PROMETHEUS_PORT = 9190;
const KILLED = `127.0.0.1:${API_PORTS[1]}`;
const DASHBOARD = path.join(ROOT, 'infra', 'grafana', 'dashboard.json');

let cluster;
let canaryVersion;
const supervisor = lineLog();
const at = (p) => `http://localhost:${PORT}${p}`;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const random = () => Math.random().toString(36).slice(2, 10);

/** One instant query through Prometheus' HTTP API: its result vector (fails on a query error). */
async function query(expr) {
  const url = `${cluster.prometheus.url}/api/v1/query?query=${encodeURIComponent(expr)}`;
  const res = await fetch(url);
  const body = await res.json();
  assert.equal(body.status, 'success', `${expr}: ${body.error ?? res.status}`);
  return body.data.result;
}
const values = async (expr) => (await query(expr)).map((r) => ({ ...r.metric, value: Number(r.value[1]) }));
/** Waits until Prometheus has scraped every target at least once more (1 s apart: twice over to be sure). */
const scrapes = () => sleep(2500);

const API_READS = () => [
  '/api/posts?limit=5',
  '/api/posts/1',
  '/api/posts/987654321',
  '/api/health',
  `/api/${random()}`,
];
const PAGES = () => ['/', '/post/1', '/about', `/${random()}/${random()}`];
/** GETs every URL at once; the statuses by URL. */
async function hitAll(urls, statuses = {}) {
  await Promise.all(
    urls.map(async (url) => {
      const res = await fetch(url, { redirect: 'manual' });
      await res.arrayBuffer();
      statuses[url] = [...(statuses[url] ?? []), res.status];
    }),
  );
  return statuses;
}

/**
 * Traffic as visitors and clients make it: pages and API reads through nginx, some 4xx; the API reads
 * also straight to each instance, so both see every route whatever nginx's round robin makes of it.
 * Pages have no cookie: each is a new visitor with a cohort of its own (stable or canary).
 */
async function traffic(rounds) {
  const statuses = {};
  for (let i = 0; i < rounds; i += 1) {
    const reads = API_READS();
    const direct = API_PORTS.flatMap((port) => reads.map((p) => `http://127.0.0.1:${port}${p}`));
    await hitAll([...reads.map(at), ...direct], statuses);
    await hitAll(PAGES().map(at), statuses);
  }
  return statuses;
}

/** Random paths only, straight to every API and edge instance. */
const flood = (n) =>
  hitAll(
    Array.from({ length: n }, () => [
      ...API_PORTS.map((port) => `http://127.0.0.1:${port}/api/${random()}/${random()}?q=${random()}`),
      ...EDGE_PORTS.map((port) => `http://127.0.0.1:${port}/${random()}?v=${random()}`),
    ]).flat(),
  );

before(async () => {
  cluster = await startCluster(
    testClusterOptions(
      { port: PORT, apiPorts: API_PORTS, edgePorts: EDGE_PORTS, work, log: supervisor.log },
      {
        // One SQLite file: nothing here needs PostgreSQL, and it starts faster.
        database: 'sqlite',
        env: { SEED_DEMO: 'true' },
        prometheus: { port: PROMETHEUS_PORT, intervalS: 1, dataDir: path.join(work, 'prometheus') },
      },
    ),
  );
  // A canary of mf-research (whose /post/:id pages the edge renders): the current build plus one file, so
  // its content (and version) differs, released and started at 50 % through the first API instance.
  const dist = path.join(work, 'research-v2');
  fs.cpSync(path.join(ROOT, 'mf-research', 'dist'), dist, { recursive: true });
  fs.writeFileSync(path.join(dist, 'prometheus-test.txt'), `canary ${Date.now()}\n`);
  const ctx = createContext({
    to: `http://127.0.0.1:${API_PORTS[0]}`,
    env: 'production',
    log: () => {},
    root: ROOT,
  });
  canaryVersion = (
    await release({ remote: 'mf-research', root: ROOT, dist, build: false, force: true }, ctx.client)
  ).info.version;
  const { revision } = await startCanary(ctx, { remote: 'mf-research', version: canaryVersion, percent: 50 });
  // The edges follow the deployment within a second (their feed).
  await edgesAt(EDGE_PORTS, revision);
});
after(async () => {
  await cluster?.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('Prometheus scraping the cluster', () => {
  it('is started with a config of its own that scrapes every API and edge instance', async () => {
    assert.equal(cluster.prometheus.url, `http://127.0.0.1:${PROMETHEUS_PORT}`);
    assert.equal(path.dirname(cluster.prometheus.config), cluster.runDir);
    // Prometheus applies a config's targets a few seconds after it is ready (its discovery's throttle).
    const deadline = Date.now() + 15_000;
    let targets = [];
    while (targets.length < 4 && Date.now() < deadline) {
      await sleep(250);
      targets = (await (await fetch(`${cluster.prometheus.url}/api/v1/targets`)).json()).data.activeTargets;
    }
    assert.deepEqual(targets.map((t) => `${t.labels.job} ${t.labels.instance} ${t.labels.service}`).sort(), [
      ...API_PORTS.map((p) => `api 127.0.0.1:${p} api`),
      ...EDGE_PORTS.map((p) => `edge 127.0.0.1:${p} edge`),
    ]);
    assert.ok(cluster.supervisors.prometheus.current.pid > 0);
  });

  it('after traffic, a kill -9 of one API instance and more traffic: requests, errors, p95, the restart', async () => {
    // Fewer rounds before the kill than after it. A counter whose restarted process ends at the very value
    // the killed one had shows Prometheus neither a rise nor a drop (a reset is only seen as a drop), so
    // rate() is 0 when each burst fits between two scrapes. A full run here did so, with 15 rounds each way
    // and nginx's round robin giving both processes the same share. After the kill each instance gets
    // more requests of every route straight to it (20 rounds) than it could have got in all before (5).
    const first = await traffic(5);
    assert.deepEqual(new Set(first[at('/api/posts/987654321')]), new Set([404]));
    assert.deepEqual(new Set(first[at('/post/1')]), new Set([200]));
    // The reset, made certain: a route the traffic never asks, 10 times before the kill and once after,
    // so its counter is seen to drop (the traffic's own counters end higher after the kill, above).
    const live = `http://${KILLED}/api/health/live`;
    await hitAll(Array.from({ length: 10 }, () => live));
    await scrapes();
    const killed = cluster.supervisors.api[1];
    const old = killed.current;
    const from = supervisor.lines.length;
    process.kill(old.pid, 'SIGKILL');
    await supervisor.waitFor((l) => l.startsWith(`cluster: ${killed.name} is back`), from, 30_000, 'restart');
    await traffic(20);
    await hitAll([live]);
    await scrapes();

    // Requests per route template, on both instances (the killed one's counters started again: rate()
    // counts across the reset).
    const perRoute = await values('sum by (instance, route) (rate(api_http_requests_total{job="api"}[1m]))');
    for (const instance of API_PORTS.map((p) => `127.0.0.1:${p}`)) {
      for (const route of ['/api/posts', '/api/posts/:idOrSlug', '/api/health', 'unmatched']) {
        const found = perRoute.find((r) => r.instance === instance && r.route === route);
        assert.ok(found?.value > 0, `${instance} ${route}: ${JSON.stringify(found)}`);
      }
    }
    // Labels are templates, never a request's path.
    for (const { route } of perRoute) assert.match(route, /^(unmatched|(\/[\w:.-]*)+)$/, route);
    assert.ok(!perRoute.some((r) => /987654321/.test(r.route)));

    // Errors: the 404s of an unknown post and of unknown paths.
    const errors = await values(
      'sum by (route, status_class) (increase(api_http_requests_total{status_class=~"4xx|5xx"}[2m]))',
    );
    assert.ok(
      errors.some((r) => r.route === '/api/posts/:idOrSlug' && r.status_class === '4xx' && r.value > 0),
    );
    assert.ok(errors.some((r) => r.route === 'unmatched' && r.status_class === '4xx' && r.value > 0));
    // Pages by the route table's template: a random page path is `unmatched`.
    const pages = await values('sum by (route) (rate(edge_page_requests_total[1m]))');
    for (const route of ['/', '/post/:id', '/about', 'unmatched'])
      assert.ok(pages.find((r) => r.route === route)?.value > 0, `${route}: ${JSON.stringify(pages)}`);

    // A p95 per route, from the histogram: a number of seconds.
    const p95 = await values(
      'histogram_quantile(0.95, sum by (route, le) (rate(api_http_request_duration_seconds_bucket[1m])))',
    );
    const posts = p95.find((r) => r.route === '/api/posts');
    assert.ok(Number.isFinite(posts?.value) && posts.value > 0 && posts.value < 15, JSON.stringify(posts));

    // The restart: a new process start time on the killed instance only, and its counters reset.
    const changes = await values('changes(process_start_time_seconds{job="api"}[5m])');
    assert.equal(changes.find((r) => r.instance === KILLED)?.value, 1, JSON.stringify(changes));
    assert.equal(changes.find((r) => r.instance !== KILLED)?.value, 0, JSON.stringify(changes));
    const resets = await values(
      `sum(resets(api_http_requests_total{instance="${KILLED}",route="/api/health/live"}[5m]))`,
    );
    assert.ok(resets[0]?.value > 0, JSON.stringify(resets));
    // Every target is up again.
    for (const r of await values('up')) assert.equal(r.value, 1, `${r.job} ${r.instance} down`);
  });

  it("edge renders carry the live deployment's versions and cohorts; the gate's answer is there", async () => {
    const manifest = await (await fetch(at('/deployment.json'))).json();
    const research = manifest.remotes['mf-research'];
    assert.equal(research.canary?.version, canaryVersion);
    const renders = await values('sum by (remote, version, cohort) (edge_renders_total)');
    const live = new Set(
      Object.values(manifest.remotes).flatMap((d) => [d.stable, d.canary?.version].filter(Boolean)),
    );
    for (const r of renders) assert.ok(live.has(r.version), `${r.remote} ${r.version} is not live`);
    const ofResearch = renders.filter((r) => r.remote === 'mf-research' && r.value > 0);
    assert.deepEqual(
      new Set(ofResearch.map((r) => `${r.cohort} ${r.version}`)),
      new Set([`stable ${research.stable}`, `canary ${canaryVersion}`]),
    );
    const p95 = await values(
      'histogram_quantile(0.95, sum by (remote, version, le) (rate(edge_render_duration_seconds_bucket{remote="mf-research"}[2m])))',
    );
    assert.ok(
      p95.some((r) => r.version === research.stable && Number.isFinite(r.value)),
      JSON.stringify(p95),
    );
    // Too few browser reports to judge: inconclusive, the same on every instance.
    const gate = await values('api_rollout_gate{remote="mf-research",environment="production"} == 1');
    assert.deepEqual(
      new Set(gate.map((r) => `${r.instance} ${r.answer}`)),
      new Set(API_PORTS.map((p) => `127.0.0.1:${p} inconclusive`)),
    );
    const percent = await values(
      'max(api_rollout_canary_percent{remote="mf-research",environment="production"})',
    );
    assert.equal(percent[0]?.value, 50);
  });

  it('random paths add no series: at most a status class an unmatched series had not answered yet', async () => {
    const SERIES = '{__name__=~"api_http_.*|edge_page_.*|edge_render.*"}';
    const labelSets = async () =>
      new Set((await query(SERIES)).map(({ metric }) => JSON.stringify(Object.entries(metric).sort())));
    /** A series' labels without its status class (a random path's 404, or a 503 under load, is one more). */
    const withoutClass = (key) => JSON.stringify(JSON.parse(key).filter(([name]) => name !== 'status_class'));
    // The first flood may add an unmatched series an instance had not had yet; the second adds none but
    // those: the labels are route templates, methods and status classes, never anything a request chose.
    await flood(50);
    await scrapes();
    const first = await labelSets();
    await flood(100);
    await scrapes();
    const added = [...(await labelSets())].filter((key) => !first.has(key));
    // Meanwhile the edges' own reports (their render figures, every 10 s) may reach an instance for the first
    // time since its restart: a known route's series. What random paths reach is `unmatched`.
    const known = new Set([...first].map(withoutClass));
    const unmatched = (key) =>
      JSON.parse(key).some(([name, value]) => name === 'route' && value === 'unmatched');
    const unexplained = added.filter((key) => unmatched(key) && !known.has(withoutClass(key)));
    assert.deepEqual(unexplained, [], `series added by random paths: ${unexplained.join('\n')}`);
    // And small: routes × methods × status classes (× buckets), not requests.
    assert.ok(first.size + added.length < 1000, `${first.size + added.length} series`);
    const routes = await values(
      'count by (route) ({__name__=~"api_http_requests_total|edge_page_requests_total"})',
    );
    for (const { route } of routes) assert.match(route, /^(unmatched|(\/[\w:.-]*)+)$/, route);
  });

  it('every query of the Grafana dashboard runs against it, and the main panels have data', async () => {
    const dashboard = JSON.parse(fs.readFileSync(DASHBOARD, 'utf8'));
    assert.equal(dashboard.__inputs[0].name, 'DS_PROMETHEUS');
    const panels = dashboard.panels.filter((p) => p.type !== 'row');
    // Grafana's own variables, and the dashboard's (all selected: their allValue).
    const expand = (expr) =>
      expr
        .replaceAll('$__rate_interval', '1m')
        .replaceAll('$__range', '5m')
        .replaceAll('$__interval', '5s')
        .replace(/\$(instance|remote)\b/g, '.*');
    const empty = [];
    for (const panel of panels) {
      // The import's input, so the dashboard works with whatever the Prometheus data source is called.
      assert.equal(panel.datasource.uid, `\${DS_PROMETHEUS}`, panel.title);
      for (const target of panel.targets) {
        const result = await query(expand(target.expr));
        if (result.length === 0) empty.push(`${panel.title} (${target.refId})`);
      }
    }
    // On SQLite there is no pool. Everything else must show (0 where nothing failed, not no data).
    const mayBeEmpty = new Set(['PostgreSQL pool (A)', 'PostgreSQL pool (B)', 'PostgreSQL pool (C)']);
    assert.deepEqual(
      empty.filter((what) => !mayBeEmpty.has(what)),
      [],
    );
    for (const title of [
      'Request rate per route',
      'Error ratio per route (4xx, 5xx)',
      'p95 latency per route',
      'Renders per remote, version and cohort',
      'Gate answer per running canary',
    ]) {
      assert.ok(
        panels.some((p) => p.title === title),
        `no panel ${title}`,
      );
    }
  });
});

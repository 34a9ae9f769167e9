// One page's trace joins the edge and the API (issue 48; docs/operations.md, "Traces"), on the real
// bundles (services/*/dist/main.mjs, built here as `pnpm start` and the cluster build them): an OTLP/HTTP
// receiver (http/json) stands in for the collector, an API on a fresh SQLite database and an edge serve a
// release whose renderer asks the API for two answers per page. The page's spans must form one trace
// (edge server span -> edge client spans -> API server spans), named by route templates, and every log
// line both processes write for that page must carry its trace_id. Without an endpoint nothing is sent
// and the lines have no trace fields.
// Run: `node --import tsx --test scripts/cluster/traces.test.mjs` (part of `pnpm test:cluster`). Its own
// ports: API 4311 and 4314, edge 4312 and 4315, the receiver 4313.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { API_BUNDLE, buildApi } from '@app/api-server/build';
import { edgeEnvironment } from '@app/edge';
import { buildEdge, EDGE_BUNDLE } from '@app/edge/build';
import { waitForHttp } from '../wait-for.mjs';

const RECEIVER = 4313;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'traces-'));
const EDGE_SECRET = randomBytes(32).toString('hex');
const VERSION = '1.0.0-3fa2b1c9d0';
const PAGE = '/post/1';
// What the release's renderer asks for on PAGE: a post (hono's /api/posts/:idOrSlug) and the list (the
// list lane's /api/posts): both of the API's ways to answer, each must be traced.
const RENDERER = `
export function serverRequests(path) {
  return path === ${JSON.stringify(PAGE)} ? ['/api/posts/1', '/api/posts?limit=2'] : null;
}
export function renderPage() {
  return { html: '<h1 data-rendered="">rendered</h1>', css: '', ids: [] };
}`;

/** Every span the receiver got: { service, traceId, spanId, parentSpanId, name, kind, attributes }. */
const spans = [];
/** Every request to the receiver (path), to tell "nothing sent". */
const received = [];
const receiver = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    received.push(req.url);
    if (req.method === 'POST' && req.url === '/v1/traces') {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      for (const rs of body.resourceSpans ?? []) {
        const resource = attributesOf(rs.resource?.attributes);
        for (const ss of rs.scopeSpans ?? [])
          for (const span of ss.spans ?? [])
            spans.push({
              ...span,
              resource,
              service: resource['service.name'],
              attributes: attributesOf(span.attributes),
            });
      }
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{}');
  });
});
/** OTLP's JSON attributes ([{ key, value: { stringValue | intValue | … } }]) as a plain object. */
function attributesOf(list = []) {
  return Object.fromEntries(list.map(({ key, value }) => [key, Object.values(value ?? {})[0]]));
}

/** The shell's page, a release of mf-research with its renderer, and the deployment the API starts from. */
function writeFixture() {
  const shell = path.join(work, 'shell');
  fs.mkdirSync(shell, { recursive: true });
  fs.writeFileSync(
    path.join(shell, 'index.html'),
    '<!doctype html><html><head></head><body><div id="root"><main><!--prerendered-region--></main></div><script src="/main.js"></script></body></html>',
  );
  fs.writeFileSync(path.join(shell, 'main.js'), '');
  const dir = path.join(work, 'releases', 'mf-research', VERSION);
  fs.mkdirSync(dir, { recursive: true });
  const entry = `/* mf-research ${VERSION} */`;
  fs.writeFileSync(path.join(dir, 'remoteEntry.js'), entry);
  fs.writeFileSync(
    path.join(dir, 'mf-manifest.json'),
    JSON.stringify({
      metaData: { publicPath: 'auto', remoteEntry: { name: 'remoteEntry.js', path: '' } },
      exposes: [{ path: './App', assets: { js: { sync: ['__federation_expose_App.0123456789.js'] } } }],
    }),
  );
  fs.writeFileSync(path.join(dir, 'server-render.mjs'), RENDERER);
  const integrity = `sha384-${createHash('sha384').update(entry).digest('base64')}`;
  fs.writeFileSync(
    path.join(dir, 'release.json'),
    JSON.stringify({ remote: 'mf-research', version: VERSION, entryIntegrity: integrity }),
  );
  const deploy = path.join(work, 'deploy');
  fs.mkdirSync(deploy, { recursive: true });
  // The API's first start imports it (services/api-server/src/services/deploy-import.ts).
  fs.writeFileSync(
    path.join(deploy, 'production.json'),
    JSON.stringify({
      schemaVersion: 1,
      environment: 'production',
      revision: 1,
      updatedAt: new Date().toISOString(),
      remotes: { 'mf-research': { stable: VERSION, previous: [], integrity: { [VERSION]: integrity } } },
    }),
  );
  const config = path.join(work, 'config.json');
  fs.writeFileSync(
    config,
    JSON.stringify({
      apiBaseUrl: 'http://127.0.0.1:4311',
      remotes: {
        mf_public_pages: { url: 'http://localhost:3004/mf-manifest.json' },
        mf_account: { url: 'http://localhost:3001/mf-manifest.json' },
        mf_research: { url: 'http://localhost:3002/mf-manifest.json' },
        mf_survey: { url: 'http://localhost:3003/mf-manifest.json' },
      },
      deployment: { manifestUrl: '/deployment.json', releasesUrl: '/releases/' },
    }),
  );
  return { shell, config, store: path.join(work, 'releases'), deploy };
}

const children = [];
/** A bundle as its own process; its stdout kept as parsed JSON lines (and any other line as text). */
function run(bundle, env) {
  const child = spawn(process.execPath, [bundle], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines = [];
  let rest = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (text) => {
    const parts = (rest + text).split('\n');
    rest = parts.pop() ?? '';
    for (const line of parts) {
      try {
        lines.push(JSON.parse(line));
      } catch {
        lines.push({ text: line });
      }
    }
  });
  const errors = [];
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text) => errors.push(text));
  children.push(child);
  return { child, lines, errors };
}

/** Once `url` answers; a process that exits first fails the test with what it said on stderr. */
async function ready(url, { child, errors }) {
  try {
    await waitForHttp(url, 30_000, () => child.exitCode === null);
  } catch (error) {
    throw new Error(`${error.message}\n${errors.join('')}`);
  }
}

/** An API and an edge on these ports, with `otel` added to their environments; resolves once both are ready. */
async function startPair({ apiPort, edgePort, db, otel }, fixture) {
  const api = run(API_BUNDLE, {
    ...process.env,
    ...otel,
    PORT: String(apiPort),
    HOST: '127.0.0.1',
    DB_PATH: db,
    DEPLOY_DIR: fixture.deploy,
    RELEASE_STORE_DIR: fixture.store,
    EDGE_SECRET,
    SEED_DEMO: 'false',
    LOG_LEVEL: 'info',
  });
  await ready(`http://127.0.0.1:${apiPort}/api/health/ready`, api);
  const edge = run(
    EDGE_BUNDLE,
    edgeEnvironment({
      ...process.env,
      ...otel,
      PORT: String(edgePort),
      HOST: '127.0.0.1',
      SHELL_DIST: fixture.shell,
      SHELL_CONFIG: fixture.config,
      RELEASE_STORE_DIR: fixture.store,
      EDGE_SECRET,
      API_URL: `http://127.0.0.1:${apiPort}`,
      DEPLOY_ENV: 'production',
    }),
  );
  await ready(`http://127.0.0.1:${edgePort}/_edge/ready`, edge);
  return { api, edge };
}

/** Resolves once `check()` is truthy (polled), with its value; fails after `ms`. */
async function eventually(check, ms, what) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`no ${what} within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The page, asked until its renderer's answers are in it (the first visit may find the worker starting). */
async function renderedPage(edgePort, { edge }) {
  let html = '';
  for (let i = 0; i < 50; i += 1) {
    const response = await fetch(`http://127.0.0.1:${edgePort}${PAGE}`);
    html = await response.text();
    assert.equal(response.status, 200);
    if (html.includes('data-rendered')) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the page never carried its server render:\n${html}\n${edge.errors.join('')}`);
}

let fixture;
before(async () => {
  fixture = writeFixture();
  await Promise.all([buildApi(), buildEdge()]);
  await new Promise((resolve) => receiver.listen(RECEIVER, '127.0.0.1', resolve));
});
after(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  receiver.close();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('with OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  let pair;
  before(async () => {
    pair = await startPair(
      {
        apiPort: 4311,
        edgePort: 4312,
        db: path.join(work, 'traced.db'),
        otel: {
          OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${RECEIVER}`,
          OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
          OTEL_BSP_SCHEDULE_DELAY: '100',
        },
      },
      fixture,
    );
  });
  // Whatever the tests below did, nothing of this pair may still send spans when the next suite counts.
  after(() => {
    for (const { child } of [pair.api, pair.edge]) if (child.exitCode === null) child.kill('SIGKILL');
  });

  it("joins the page's edge span and the API calls it made in one trace, named by route templates", async () => {
    await renderedPage(4312, pair);
    // The last page's server span, and its trace's API server spans (both calls).
    const found = await eventually(
      () => {
        const page = spans
          .filter((s) => s.service === 'edge' && s.kind === 2 && s.name === 'GET /post/:id')
          .at(-1);
        if (!page) return null;
        const apiSpans = spans.filter(
          (s) => s.service === 'api' && s.kind === 2 && s.traceId === page.traceId,
        );
        return apiSpans.length >= 2 ? { page, apiSpans } : null;
      },
      10_000,
      `page trace with both API calls among ${JSON.stringify(spans.map((s) => [s.service, s.kind, s.name]))}`,
    );
    const { page, apiSpans } = found;
    assert.equal(page.attributes['http.route'], '/post/:id');
    assert.match(page.traceId, /^[0-9a-f]{32}$/);
    assert.deepEqual(apiSpans.map((s) => s.name).sort(), ['GET /api/posts', 'GET /api/posts/:idOrSlug']);
    assert.deepEqual(apiSpans.map((s) => s.attributes['http.route']).sort(), [
      '/api/posts',
      '/api/posts/:idOrSlug',
    ]);
    // Each API span's parent is a client span of the edge (undici: the renderer's fetches), in the page's trace,
    // under the page's server span.
    for (const apiSpan of apiSpans) {
      const parent = spans.find((s) => s.spanId === apiSpan.parentSpanId);
      assert.ok(parent, `the parent of ${apiSpan.name} was exported`);
      assert.equal(parent.service, 'edge');
      assert.equal(parent.kind, 3, 'a client span');
      assert.equal(parent.traceId, page.traceId);
      assert.equal(parent.parentSpanId, page.spanId);
    }
    // The resource: the default service names, the build's revision, the instance as host:port.
    assert.match(page.resource['service.instance.id'], /:4312$/);
    assert.match(apiSpans[0].resource['service.instance.id'], /:4311$/);
    assert.ok(page.resource['service.version']);
    // No span for the probes the test polled (/api/health/ready, /_edge/ready).
    assert.ok(
      !spans.some(
        (s) => /ready|health/.test(s.name) || /ready|health/.test(String(s.attributes['url.path'])),
      ),
    );

    // The log lines of that page: the edge's page line and the API's access lines, each with its trace_id.
    const edgeLine = await eventually(
      () => pair.edge.lines.find((l) => l.msg === 'page' && l.trace_id === page.traceId),
      2000,
      "edge's page line",
    );
    assert.equal(edgeLine.route, '/post/:id');
    assert.equal(edgeLine.span_id, page.spanId);
    const apiLines = pair.api.lines.filter((l) => l.trace_id === page.traceId);
    assert.deepEqual(apiLines.map((l) => l.path).sort(), ['/api/posts', '/api/posts/1']);
    for (const line of apiLines) assert.ok(apiSpans.some((s) => s.spanId === line.span_id));
    // Every per-request line either process wrote carries a trace (lines of the process itself do not),
    // but the probes', which make no span on purpose.
    const requestLines = [...pair.api.lines, ...pair.edge.lines].filter(
      (l) => (l.path || l.msg === 'page') && !String(l.path).startsWith('/api/health'),
    );
    assert.ok(requestLines.length >= 3);
    for (const line of requestLines)
      assert.match(String(line.trace_id), /^[0-9a-f]{32}$/, JSON.stringify(line));
  });

  it('flushes the last spans when a process drains on SIGTERM', async () => {
    const before = spans.length;
    await fetch(`http://127.0.0.1:4311/api/posts/tags`);
    pair.api.child.kill('SIGTERM');
    await new Promise((resolve) => pair.api.child.once('exit', resolve));
    assert.equal(pair.api.child.exitCode, 0);
    assert.ok(spans.slice(before).some((s) => s.service === 'api' && s.name === 'GET /api/posts/tags'));
    // The edge too (its feed's poll, now failing, is its last call); then nothing of this pair is left.
    pair.edge.child.kill('SIGTERM');
    await new Promise((resolve) => pair.edge.child.once('exit', resolve));
    assert.equal(pair.edge.child.exitCode, 0);
  });
});

describe('without an endpoint', () => {
  it('sends nothing, and its log lines have no trace fields', async () => {
    const sent = received.length;
    const pair = await startPair(
      { apiPort: 4314, edgePort: 4315, db: path.join(work, 'untraced.db'), otel: {} },
      fixture,
    );
    await renderedPage(4315, pair);
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(received.length, sent, 'nothing reached the receiver');
    const edgeLines = pair.edge.lines.filter((l) => l.msg === 'page');
    const apiLines = pair.api.lines.filter((l) => l.path);
    assert.ok(edgeLines.length > 0 && apiLines.length >= 2);
    for (const line of [...pair.api.lines, ...pair.edge.lines]) {
      assert.equal(line.trace_id, undefined, JSON.stringify(line));
      assert.equal(line.span_id, undefined);
    }
  });
});

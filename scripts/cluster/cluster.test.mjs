// The cluster as a visitor and an operator meet it (issue 12): nginx in front of two API processes on one
// database, started by the same startCluster() as `pnpm start:cluster`, on ports of its own and a fresh
// database, release store and deployment under a temp folder.
// Run: `pnpm test:cluster` (needs Debian's nginx: `bash scripts/install.sh --nginx`).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-test-'));
// nginx's workers (another user when started as root) read the release store and the config in here.
fs.chmodSync(work, 0o755);
// rolloutPaths() and the API read these: set before the cluster module is loaded.
process.env.RELEASE_STORE_DIR = path.join(work, 'releases');
process.env.DEPLOY_DIR = path.join(work, 'deploy');
process.env.DB_PATH = path.join(work, 'cluster.db');
const { startCluster } = await import('./cluster.mjs');
const { ROOT } = await import('../apps.mjs');

const PORT = 8180;
const API_PORTS = [4101, 4102];
let cluster;
const at = (p) => `http://localhost:${PORT}${p}`;
const instance = (i, p) => `http://127.0.0.1:${API_PORTS[i]}${p}`;

const json = async (url, { method = 'GET', body, token, headers = {} } = {}) => {
  const res = await fetch(url, {
    method,
    headers: {
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
};

let counter = 0;
async function member(base) {
  counter += 1;
  const username = `member${counter}_${Date.now().toString(36)}`;
  const email = `${username}@example.com`;
  const password = 'Cluster-pass-1';
  const registered = await json(`${base}/api/register`, {
    method: 'POST',
    body: {
      username,
      password,
      email,
      name: { first: 'Cluster', last: 'Member' },
      address: { street: 'Main Street 1', city: 'Berlin', postal_code: '10115', country: 'Germany' },
    },
  });
  assert.equal(registered.status, 201, JSON.stringify(registered.body));
  const login = await json(`${base}/api/login`, { method: 'POST', body: { username: email, password } });
  assert.equal(login.status, 200);
  return { email, password, token: login.body.token };
}

before(async () => {
  cluster = await startCluster({
    port: PORT,
    apiPorts: API_PORTS,
    runDir: path.join(work, 'run'),
    quiet: true,
    // PostgreSQL of its own, on a port of its own, thrown away with the folder.
    pgDir: path.join(work, 'postgres'),
    pgPort: 5441,
    freshDatabase: true,
    env: {
      REQUIRES_ACTIVATION: 'false',
      LOCKOUT_MAX_ATTEMPTS: '3',
      SESSION_CACHE_MS: '60000',
      RATE_LIMIT_REGISTER: '10/1h',
    },
  });
});
after(() => {
  cluster?.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('nginx serves the front ends', () => {
  it('pages: index.html for every app path, with the CSP and the page headers, revalidated', async () => {
    for (const p of ['/', '/about', '/post/1', '/research-center']) {
      const res = await fetch(at(p), { headers: { 'accept-encoding': 'gzip' } });
      assert.equal(res.status, 200, p);
      assert.match(await res.text(), /<div id="root">/);
      const csp = res.headers.get('content-security-policy');
      assert.match(csp, /script-src 'self' 'sha256-/);
      assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
      assert.match(csp, /frame-ancestors 'none'/);
      assert.equal(res.headers.get('x-frame-options'), 'DENY');
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(res.headers.get('referrer-policy'), 'strict-origin-when-cross-origin');
      assert.equal(res.headers.get('cross-origin-opener-policy'), 'same-origin');
      assert.match(res.headers.get('permissions-policy'), /camera=\(\)/);
      assert.equal(res.headers.get('cache-control'), 'no-cache');
    }
  });

  it('scripts compressed; hashed and released files cached for a year; config and manifest revalidated', async () => {
    const main = await fetch(at('/main.js'), { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(main.status, 200);
    assert.equal(main.headers.get('content-encoding'), 'gzip');
    assert.match(main.headers.get('content-type'), /javascript/);
    assert.equal(main.headers.get('cache-control'), 'no-cache');
    const hashed = fs
      .readdirSync(path.join(ROOT, 'shell', 'dist'))
      .find((f) => /\.[0-9a-f]{10}\.js$/.test(f));
    const chunk = await fetch(at(`/${hashed}`));
    assert.equal(chunk.headers.get('cache-control'), 'public, max-age=31536000, immutable');

    const deployment = await fetch(at('/deployment.json'));
    assert.equal(deployment.headers.get('cache-control'), 'no-cache');
    const manifest = await deployment.json();
    const stable = manifest.remotes['mf-public-pages'].stable;
    const entry = await fetch(at(`/releases/mf-public-pages/${stable}/remoteEntry.js`));
    assert.equal(entry.status, 200);
    assert.equal(entry.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.equal(entry.headers.get('x-content-type-options'), 'nosniff');

    const config = await fetch(at('/config.json'));
    assert.equal(config.headers.get('cache-control'), 'no-cache');
    assert.equal((await config.json()).apiBaseUrl, `http://localhost:${PORT}`);
    const remoteManifest = await fetch(at('/remotes/mf-account/mf-manifest.json'));
    assert.equal(remoteManifest.status, 200);
  });

  it('never serves source maps, dotfiles, paths outside the folders or a remote page', async () => {
    const stable = (await (await fetch(at('/deployment.json'))).json()).remotes['mf-research'].stable;
    for (const p of [
      '/main.js.map',
      `/releases/mf-research/${stable}/remoteEntry.js.map`,
      '/releases/mf-research/not-a-version/remoteEntry.js',
      '/.env',
      '/remotes/mf-account/index.html',
      '/remotes/mf-account/mf-manifest.json.map',
      '/releases/%2e%2e/package.json',
    ]) {
      assert.equal((await fetch(at(p))).status, 404, p);
    }
  });
});

describe('nginx in front of two API instances', () => {
  it('the instances share one PostgreSQL database, made fresh for this run', async () => {
    assert.equal(cluster.database, 'postgres');
    assert.match(cluster.databaseUrl, /^postgres:\/\/postgres@127\.0\.0\.1:5441\/app$/);
    // The demo content was seeded once, by the first instance, and both list it.
    const lists = await Promise.all(
      [0, 1].map(async (i) => (await json(instance(i, '/api/posts?limit=100'))).body),
    );
    assert.ok(lists[0].length > 0);
    assert.deepEqual(
      lists[1].map((p) => p.id),
      lists[0].map((p) => p.id),
    );
  });

  it('proxies /api, compressed', async () => {
    const res = await fetch(at('/api/posts?limit=20'), { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-encoding'), 'gzip');
    assert.ok(Array.isArray(await res.json()));
  });

  it('a token revoked through one instance is refused by the other at once', async () => {
    const m = await member(at(''));
    assert.equal((await json(instance(1, '/api/profile'), { token: m.token })).status, 200);
    assert.equal((await json(instance(0, '/api/logout'), { method: 'POST', token: m.token })).status, 200);
    assert.equal((await json(instance(1, '/api/profile'), { token: m.token })).status, 401);
    assert.equal((await json(at('/api/profile'), { token: m.token })).status, 401);
  });

  it('a post written through one instance is listed by the other and through nginx', async () => {
    const m = await member(at(''));
    const title = `Written through instance A ${Date.now()}`;
    const listed = async (base) =>
      (await json(`${base}/api/posts/my?limit=50`, { token: m.token })).body.map((p) => p.title);
    assert.deepEqual(await listed(instance(1, '')), []);
    const created = await json(instance(0, '/api/posts'), {
      method: 'POST',
      token: m.token,
      body: {
        title,
        summary: 'From A',
        content: 'Body',
        content_type: 'research_report',
        visibility: 'members_only',
        status: 'published',
        tags: ['cluster'],
        categories: ['Testing'],
      },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.deepEqual(await listed(instance(1, '')), [title]);
    assert.deepEqual(await listed(at('')), [title]);
  });

  it('failed logins count across instances: locked on both', async () => {
    const m = await member(at(''));
    const wrong = { username: m.email, password: 'Wrong-pass-1' };
    assert.equal((await json(instance(0, '/api/login'), { method: 'POST', body: wrong })).status, 401);
    assert.equal((await json(instance(1, '/api/login'), { method: 'POST', body: wrong })).status, 401);
    assert.equal((await json(at('/api/login'), { method: 'POST', body: wrong })).status, 423);
    const right = { username: m.email, password: m.password };
    for (const base of [instance(0, ''), instance(1, '')]) {
      assert.equal((await json(`${base}/api/login`, { method: 'POST', body: right })).status, 423);
    }
  });

  it('concurrent writes through both instances all succeed (write transactions take the lock up front)', async () => {
    const m = await member(at(''));
    const body = {
      title: 'One title, written at once through both instances',
      summary: 'Race',
      content: 'Body',
      content_type: 'research_report',
      visibility: 'members_only',
      status: 'published',
      tags: ['race'],
      categories: ['Testing'],
    };
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        json(instance(i % 2, '/api/posts'), { method: 'POST', token: m.token, body }),
      ),
    );
    assert.deepEqual(
      answers.filter((r) => r.status !== 201).map((r) => `${r.status} ${JSON.stringify(r.body)}`),
      [],
    );
    assert.equal(new Set(answers.map((r) => r.body.slug)).size, 60);
  });

  it('with one instance down, nginx keeps answering from the other', async () => {
    const first = cluster.children[0];
    first.kill('SIGTERM');
    await new Promise((resolve) => first.once('exit', resolve));
    for (let i = 0; i < 6; i += 1) {
      assert.equal((await fetch(at('/api/health'))).status, 200);
      assert.equal((await fetch(at('/api/posts?limit=6'))).status, 200);
    }
    const m = await member(at(''));
    assert.equal((await json(at('/api/profile'), { token: m.token })).status, 200);
  });

  // Last: it uses up the registration budget of this machine's address.
  it('counts a client as nginx saw it: a forged X-Forwarded-For buys no new budget', async () => {
    let refusedAfter = 0;
    for (let i = 1; i <= 12 && refusedAfter === 0; i += 1) {
      const res = await json(at('/api/register'), {
        method: 'POST',
        headers: { 'x-forwarded-for': `198.51.100.${i}` },
        body: { username: 'x' },
      });
      if (res.status === 429) refusedAfter = i;
      else assert.equal(res.status, 400);
    }
    // 10 a window (RATE_LIMIT_REGISTER below), some of it used by the members registered above.
    assert.ok(refusedAfter > 0 && refusedAfter <= 10, `refused after ${refusedAfter}`);
  });
});

// The cluster as a visitor and an operator meet it (issue 12, issue 30): nginx in front of two edge
// processes (the pages) and two API processes on one database, started by the same startCluster() as
// `pnpm start:cluster`, on ports of its own and a fresh database, release store and deployment under a temp
// folder.
// Issue 32: a process killed under load is restarted while nginx serves from the other instance (0 failed
// GETs), and `pnpm cluster reload` restarts every instance under load with 0 failed GETs.
// Run: `pnpm test:cluster` (needs Debian's nginx: `bash scripts/install.sh --nginx`).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import zlib from 'node:zlib';
import { lineLog } from './line-log.mjs';
import { clusterWorkDir, testClusterOptions } from './test-cluster.mjs';

const work = clusterWorkDir('cluster-test-');
const { startCluster } = await import('./cluster.mjs');
const { ROOT } = await import('../apps.mjs');
const { createContext, promote, release, rollback, startCanary } = await import('@app/release');

const PORT = 8180;
const API_PORTS = [4101, 4102];
const EDGE_PORTS = [4111, 4112];
let cluster;
// The supervisor's lines (deaths, restarts, reload steps), and waits for the next one a test expects.
const supervisor = lineLog();
const supervisorLog = supervisor.lines;
const logSupervisor = supervisor.log;
const at = (p) => `http://localhost:${PORT}${p}`;
const instance = (i, p) => `http://127.0.0.1:${API_PORTS[i]}${p}`;
const edge = (i, p) => `http://127.0.0.1:${EDGE_PORTS[i]}${p}`;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** The release and rollout commands' context, aimed at the first API instance (production). */
const deployContext = () =>
  createContext({ to: instance(0, ''), env: 'production', log: () => {}, root: ROOT });

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

/**
 * A GET as a browser makes it (gzip accepted, a fresh connection), with the header lines as sent (so a
 * header sent twice is seen twice) and the body unzipped.
 */
function get(url, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false, headers: { 'accept-encoding': 'gzip', ...headers } }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const bytes = Buffer.concat(chunks);
        const gzipped = res.headers['content-encoding'] === 'gzip';
        resolve({
          status: res.statusCode,
          headers: res.headers,
          lines: res.rawHeaders,
          body: (gzipped ? zlib.gunzipSync(bytes) : bytes).toString('utf8'),
        });
      });
    });
    req.on('error', reject);
  });
}
const timesSent = (res, name) =>
  res.lines.filter((value, i) => i % 2 === 0 && value.toLowerCase() === name.toLowerCase()).length;

/** The plan the edge wrote into the page for the shell, or null. */
const planOf = (html) => {
  const block = html.match(/<script type="application\/json" id="page-plan">([^<]*)<\/script>/);
  return block ? JSON.parse(block[1]) : null;
};
/** The first screen's remote and release, as the page marks them. */
const regionOf = (html) => {
  const region = html.match(/data-prerendered-region="([^"]+)" data-version="([^"]+)"/);
  return region ? { remote: region[1], version: region[2] } : null;
};
const visitorCookieOf = (res) => (res.headers['set-cookie'] ?? []).find((c) => c.startsWith('visitor='));
/** `visitor=<value>` as the browser sends it back. */
const cookiePair = (setCookie) => setCookie.split(';')[0];
const sha256 = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
/** The page's inline scripts: `run` those the browser runs, `data` the JSON blocks (the plan, the answers). */
const inlineScripts = (html) => {
  const blocks = [...html.matchAll(/<script(\s[^>]*)?>([\s\S]*?)<\/script>/gi)].filter(
    (m) => !/\ssrc\s*=/.test(m[1] ?? '') && m[2],
  );
  const isData = (m) => /\stype\s*=\s*"application\/json"/.test(m[1] ?? '');
  return {
    run: blocks.filter((m) => !isData(m)).map((m) => m[2]),
    data: blocks.filter(isData).map((m) => m[2]),
  };
};
const stableOf = async (remote) =>
  (await (await fetch(at('/deployment.json'))).json()).remotes[remote].stable;

/** A page as the edge composes it, wherever it came from: checks what every page carries. */
function assertComposedPage(res, label) {
  assert.equal(res.status, 200, label);
  assert.match(res.headers['content-type'], /^text\/html/, label);
  assert.match(res.body, /<div id="root">/, label);
  // Each security header once: nginx adds none of its own to a page (a second CSP would be enforced too).
  for (const name of [
    'content-security-policy',
    'x-frame-options',
    'x-content-type-options',
    'referrer-policy',
    'cross-origin-opener-policy',
    'permissions-policy',
    'cache-control',
  ]) {
    assert.equal(timesSent(res, name), 1, `${label}: ${name} sent ${timesSent(res, name)} times`);
  }
  const csp = res.headers['content-security-policy'];
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/, label);
  assert.match(csp, /frame-ancestors 'none'/, label);
  // The page's own inline scripts are admitted by their hashes; its data blocks (the plan) run nowhere and
  // need none, so they get none (issue 44: the CSP hashes only what the edge itself wrote to run).
  const scriptSrc = csp.match(/script-src ([^;]+)/)[1].split(' ');
  const scripts = inlineScripts(res.body);
  assert.ok(scripts.run.length > 0 && scripts.data.length > 0, label);
  for (const script of scripts.run)
    assert.ok(scriptSrc.includes(sha256(script)), `${label}: ${script.slice(0, 60)}`);
  for (const block of scripts.data)
    assert.ok(!scriptSrc.includes(sha256(block)), `${label}: a data block hashed`);
  assert.equal(res.headers['x-frame-options'], 'DENY', label);
  assert.equal(res.headers['x-content-type-options'], 'nosniff', label);
  assert.equal(res.headers['referrer-policy'], 'strict-origin-when-cross-origin', label);
  assert.equal(res.headers['cross-origin-opener-policy'], 'same-origin', label);
  assert.match(res.headers['permissions-policy'], /camera=\(\)/, label);
  // Per visitor: no shared cache keeps it, the browser asks again every time.
  assert.equal(res.headers['cache-control'], 'private, no-cache', label);
  assert.match(res.headers.vary, /\bCookie\b/, label);
  assert.ok(planOf(res.body), `${label}: no #page-plan`);
}

/**
 * Asks until `check(page)` holds, for at most `ms`; returns how long it took (or fails with the last page).
 * A poll on purpose: what it measures is when a visitor's next page changes, and only a page shows that;
 * every 20 ms is the measure's resolution, not a wait for something to be done.
 */
async function within(ms, url, headers, check) {
  const started = Date.now();
  let last;
  do {
    last = await get(url, headers);
    if (check(last)) return Date.now() - started;
    await sleep(20);
  } while (Date.now() - started < ms);
  assert.fail(`${url} not changed within ${ms} ms: ${JSON.stringify(regionOf(last.body))}`);
}

/**
 * The lines of nginx's access log from byte `from` on that `match` accepts, once there are `count` of them.
 * nginx writes a request's line after it has sent the answer, so a client may read the answer first: the
 * file is watched, and each write to it is the event that checks again (at most `ms`).
 */
function accessLogLines(file, from, match, count, ms = 5000) {
  const read = () => fs.readFileSync(file, 'utf8').slice(from).split('\n').filter(match);
  return new Promise((resolve, reject) => {
    const watcher = fs.watch(file);
    const done = (error, lines) => {
      clearTimeout(timer);
      watcher.close();
      if (error) reject(error);
      else resolve(lines);
    };
    const check = () => {
      const lines = read();
      if (lines.length >= count) done(null, lines);
    };
    const timer = setTimeout(
      () => done(new Error(`not ${count} such lines in ${file} within ${ms} ms:\n${read().join('\n')}`)),
      ms,
    );
    watcher.on('change', check);
    watcher.on('error', (error) => done(error));
    check();
  });
}

before(async () => {
  cluster = await startCluster(
    testClusterOptions(
      { port: PORT, apiPorts: API_PORTS, edgePorts: EDGE_PORTS, work, log: logSupervisor },
      {
        // PostgreSQL of its own, on a port of its own, thrown away with the folder.
        pgDir: path.join(work, 'postgres'),
        pgPort: 5441,
        control: true,
        env: {
          // The demo content the tests read (pages of posts, lists); the cluster has none unless asked.
          SEED_DEMO: 'true',
          REQUIRES_ACTIVATION: 'false',
          LOCKOUT_MAX_ATTEMPTS: '3',
          SESSION_CACHE_MS: '60000',
          RATE_LIMIT_REGISTER: '10/1h',
        },
      },
    ),
  );
});
after(async () => {
  await cluster?.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('nginx serves the front ends', () => {
  it("pages come from the edge: the first screen of the visitor's release, the plan, one CSP, a cookie", async () => {
    const stable = {
      'mf-public-pages': await stableOf('mf-public-pages'),
      'mf-research': await stableOf('mf-research'),
    };
    const manifest = await (await fetch(at('/deployment.json'))).json();
    for (const [p, remote] of [
      ['/', 'mf-public-pages'],
      ['/about', 'mf-public-pages'],
      ['/post/1', 'mf-research'],
      ['/research-center', 'mf-research'],
      ['/index.html', null],
    ]) {
      const res = await get(at(p));
      assertComposedPage(res, p);
      // Compressed by nginx on the way out.
      assert.equal(res.headers['content-encoding'], 'gzip', p);
      assert.deepEqual(regionOf(res.body), remote ? { remote, version: stable[remote] } : null, p);
      // The plan names the manifest's stable version of every remote (no canary yet).
      const { plan } = planOf(res.body);
      for (const [name, deployment] of Object.entries(manifest.remotes)) {
        const choice = Object.values(plan).find((c) => c.remote === name);
        assert.equal(choice?.version, deployment.stable, `${p}: ${name}`);
      }
      // A first visit gets its cohort key: HttpOnly, SameSite=Lax, not Secure over plain http.
      const cookie = visitorCookieOf(res);
      assert.match(cookie ?? '', /^visitor=[^;]+;.*HttpOnly/, p);
      assert.match(cookie, /SameSite=Lax/, p);
      assert.doesNotMatch(cookie, /Secure/, p);
    }
    // nginx tells the edge the scheme it saw: a client claiming https over plain http gets no Secure cookie.
    const claimed = await get(at('/about'), { 'x-forwarded-proto': 'https' });
    assert.doesNotMatch(visitorCookieOf(claimed), /Secure/);
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

describe('nginx in front of two edge instances', () => {
  let v1;
  let v2;
  before(async () => {
    // A second release of mf-public-pages whose /about first screen says so: the current build with one
    // line added to that page's pre-rendered region, published like `pnpm release --dist`.
    v1 = await stableOf('mf-public-pages');
    const dist = path.join(work, 'public-pages-v2');
    fs.cpSync(path.join(ROOT, 'mf-public-pages', 'dist'), dist, { recursive: true });
    const file = path.join(dist, 'prerender.json');
    const prerender = JSON.parse(fs.readFileSync(file, 'utf8'));
    prerender.pages['/about'].html =
      `<p data-cluster-test="v2">The second release</p>${prerender.pages['/about'].html}`;
    fs.writeFileSync(file, JSON.stringify(prerender));
    // Uploaded through one API instance's deploy API, as a pipeline would (the local token: loopback).
    const ctx = deployContext();
    ({ version: v2 } = (
      await release({ remote: 'mf-public-pages', root: ROOT, dist, build: false, force: true }, ctx.client)
    ).info);
    assert.notEqual(v2, v1);
  });
  /**
   * A change through the first API instance's deploy API; resolves once both edge instances have it (their
   * feeds bring it within a few hundred ms; the promote test below measures that itself).
   */
  const rollout = async (command, input) => {
    const { revision } = await command(deployContext(), { remote: 'mf-public-pages', ...input });
    const deadline = Date.now() + 2000;
    for (const i of [0, 1]) {
      // The feed's revision: the deployment's own (DeployState.revision), which the change answered with.
      // Asked, with a deadline: a condition on another process, which announces nothing to this one (the
      // instances' output is off), not a wait for a while.
      while (!((await json(edge(i, '/_edge/status'))).body.feed?.revision >= revision)) {
        assert.ok(Date.now() < deadline, `edge ${i} did not get revision ${revision} within 2 s`);
        await sleep(10);
      }
    }
  };

  it('both instances answer, directly and through nginx, from the same config and manifest', async () => {
    const statuses = await Promise.all([0, 1].map(async (i) => (await json(edge(i, '/_edge/status'))).body));
    for (const status of statuses) assert.equal(status.config, 'valid');
    assert.deepEqual(statuses[1].manifest, statuses[0].manifest);
    // The status is for operators at each edge's own port: nginx's public server does not pass it on.
    assert.equal((await fetch(at('/_edge/status'))).status, 404);
    // So are the instances' Prometheus metrics (issue 48): each API and edge answers /metrics at its own port.
    assert.equal((await fetch(at('/metrics'))).status, 404);
    for (const url of [0, 1].flatMap((i) => [instance(i, '/metrics'), edge(i, '/metrics')])) {
      const res = await fetch(url);
      assert.equal(res.status, 200, url);
      assert.match(await res.text(), /^(api|edge)_build_info\{version="[^"]+"\} 1$/m, url);
    }
    for (const i of [0, 1]) {
      // Asked directly, as nginx asks it (the host with its port: the page's origin is nginx's).
      const res = await get(edge(i, '/about'), { host: `localhost:${PORT}` });
      assertComposedPage(res, `edge ${i}`);
      assert.deepEqual(regionOf(res.body), { remote: 'mf-public-pages', version: v1 });
      assert.match(res.headers['content-security-policy'], /^default-src 'self'; script-src 'self' 'sha256-/);
    }
    // nginx spreads pages over both (its log names the instance that answered each request).
    const log = path.join(cluster.runDir, 'access.log');
    const from = fs.statSync(log).size;
    // Told apart by their User-Agent: the log holds paths only, never a query string (issue 46).
    for (let i = 0; i < 6; i += 1)
      assert.equal((await get(at('/about'), { 'user-agent': `cluster-test spread-${i}` })).status, 200);
    const answered = await accessLogLines(log, from, (l) => l.includes('cluster-test spread-'), 6);
    assert.equal(answered.length, 6);
    for (const port of EDGE_PORTS) {
      assert.ok(
        answered.some((line) => line.includes(`upstream=127.0.0.1:${port} 200`)),
        `no page from ${port}:\n${answered.join('\n')}`,
      );
    }
  });

  it('a canary: each visitor gets one version, painted first, and the same plan from both instances', async () => {
    await rollout(startCanary, { version: v2, percent: 50 });
    const seen = new Set();
    for (let n = 0; n < 16; n += 1) {
      const first = await get(at('/about'));
      assertComposedPage(first, 'through nginx');
      const cookie = cookiePair(visitorCookieOf(first));
      const planned = Object.values(planOf(first.body).plan).find((c) => c.remote === 'mf-public-pages');
      seen.add(planned.version);
      // The first screen is the release the plan names (no other version first).
      assert.deepEqual(regionOf(first.body), { remote: 'mf-public-pages', version: planned.version });
      assert.equal(first.body.includes('data-cluster-test="v2"'), planned.version === v2);
      // The cookie one instance signed is good on the other (one secret): no new key, the same plan.
      for (const i of [0, 1]) {
        const again = await get(edge(i, '/about'), { host: `localhost:${PORT}`, cookie });
        assertComposedPage(again, `edge ${i} with a cookie`);
        assert.equal(visitorCookieOf(again), undefined, `edge ${i} refused the cookie`);
        assert.deepEqual(planOf(again.body).plan, planOf(first.body).plan, `edge ${i}`);
        assert.deepEqual(regionOf(again.body), regionOf(first.body), `edge ${i}`);
      }
    }
    // 16 visitors at 50 %: both versions (all alike has a chance of 1 in 32,768).
    assert.deepEqual([...seen].sort(), [v1, v2].sort());
  });

  // Measured from the change's answer: no waiting for the edges first.
  const command = (verb) => verb(deployContext(), { remote: 'mf-public-pages' });

  it('a promote and a rollback reach the next page of both instances within 1 s, with no restart', async () => {
    const pids = cluster.edges.map((child) => child.pid);
    // As stable: during the canary a fresh visitor may already draw v2 (50 %), which proves nothing.
    const shows = (version) => (res) => {
      const choice = Object.values(planOf(res.body)?.plan ?? {}).find((c) => c.remote === 'mf-public-pages');
      return (
        regionOf(res.body)?.version === version && choice?.track === 'stable' && choice.version === version
      );
    };
    await command(promote);
    for (const i of [0, 1]) {
      const took = await within(1000, edge(i, '/about'), { host: `localhost:${PORT}` }, shows(v2));
      assert.ok(took < 1000, `edge ${i}: ${took} ms`);
    }
    const promoted = await get(at('/about'));
    assert.ok(promoted.body.includes('data-cluster-test="v2"'));
    await command(rollback);
    for (const i of [0, 1]) {
      const took = await within(1000, edge(i, '/about'), { host: `localhost:${PORT}` }, shows(v1));
      assert.ok(took < 1000, `edge ${i}: ${took} ms`);
    }
    const rolledBack = await get(at('/about'));
    assert.deepEqual(regionOf(rolledBack.body), { remote: 'mf-public-pages', version: v1 });
    assert.ok(!rolledBack.body.includes('data-cluster-test'));
    assert.deepEqual(
      cluster.edges.map((child) => child.pid),
      pids,
    );
    for (const child of cluster.edges) assert.equal(child.exitCode, null);
  });

  it('with one edge instance killed (SIGKILL), nginx keeps serving pages from the other', async () => {
    const [first] = cluster.edges;
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    await assert.rejects(fetch(edge(0, '/_edge/status')));
    const log = path.join(cluster.runDir, 'access.log');
    const from = fs.statSync(log).size;
    for (let i = 0; i < 8; i += 1) {
      const res = await get(at(i % 2 ? '/about' : '/'), { 'user-agent': `cluster-test after-kill-${i}` });
      assertComposedPage(res, `page ${i}`);
      assert.equal(regionOf(res.body)?.remote, 'mf-public-pages');
    }
    // The operator's log shows what happened: tried on the dead instance, answered by the other.
    const lines = await accessLogLines(log, from, (line) => line.includes('after-kill'), 8);
    const [dead, alive] = EDGE_PORTS.map((port) => `127.0.0.1:${port}`);
    assert.ok(
      lines.some(
        (line) => line.includes('after-kill') && line.includes(`upstream=${dead}, ${alive} 502, 200`),
      ),
      lines.join('\n'),
    );
    assert.equal((await fetch(at('/_edge/ready'))).status, 200);
    // A POST that never reached the dead instance (refused) goes to the other: exit preview works.
    const exit = await fetch(at('/_edge/exit-preview'), { method: 'POST' });
    assert.equal(exit.status, 204);
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

  it('limits count per client behind nginx (TRUSTED_PROXIES names nginx), not one bucket for everyone', async () => {
    // Two clients on this machine, told apart by their source address (any of 127.0.0.0/8 on Linux): nginx
    // names each in X-Forwarded-For, and the API believes it from nginx alone. Forgot password allows 10
    // requests per address in 15 minutes by default.
    const forgot = (localAddress) =>
      new Promise((resolve, reject) => {
        const body = JSON.stringify({ email: 'nobody.behind.nginx@example.com' });
        const req = http.request(
          {
            host: '127.0.0.1',
            port: PORT,
            localAddress,
            method: 'POST',
            path: '/api/auth/forgot-password',
            agent: false,
            headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    const first = await Promise.all(Array.from({ length: 10 }, () => forgot('127.0.0.7')));
    assert.deepEqual(first, Array(10).fill(202));
    assert.equal(await forgot('127.0.0.7'), 429);
    // Another client is not held back by the first one's limit.
    assert.equal(await forgot('127.0.0.8'), 202);
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

/**
 * GETs through nginx in a loop, `concurrency` at a time over `paths`, until stop(): every answer that is not
 * 200 and every error is a failure.
 */
function loadOf(paths, concurrency = 4) {
  let running = true;
  let ok = 0;
  const failures = [];
  const waiters = new Set();
  const worker = async (w) => {
    for (let n = w; running; n += 1) {
      const p = paths[n % paths.length];
      try {
        const res = await fetch(at(p), { signal: AbortSignal.timeout(20_000) });
        await res.arrayBuffer();
        if (res.status === 200) {
          ok += 1;
          for (const wake of [...waiters]) wake();
        } else failures.push(`${p}: ${res.status}`);
      } catch (error) {
        failures.push(`${p}: ${error.cause?.code ?? error.message}`);
      }
    }
  };
  const workers = Array.from({ length: concurrency }, (_, w) => worker(w));
  return {
    /**
     * Resolves once `count` more GETs have been answered 200 from now on (each answer is the event): the
     * load is running, rather than "has run for a while". Fails after `ms`.
     */
    more(count, ms = 30_000) {
      const target = ok + count;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`not ${count} more GETs within ${ms} ms (${ok} ok): ${failures.join('; ')}`));
        }, ms);
        function check() {
          if (ok < target) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        }
        waiters.add(check);
        check();
      });
    },
    async stop() {
      running = false;
      await Promise.all(workers);
      return { ok, failures };
    },
  };
}

/**
 * Waits until `check()` holds (polled every 50 ms), at most `ms`: for a state only asking shows (a request
 * through nginx and the API after PostgreSQL came back), never where a process or the supervisor says it.
 */
async function until(check, ms, what) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`${what}: not within ${ms} ms\n${supervisorLog.join('\n')}`);
    await sleep(50);
  }
}
/**
 * Resolves once supervisor `s` runs a process that is not `old`: at once if it does, else at its "is back"
 * line (logged once the new process is ready, just before it becomes current).
 */
function backFrom(s, old, ms = 30_000) {
  if (s.current && s.current !== old) return Promise.resolve();
  return supervisor.waitFor(
    (l) => l.startsWith(`cluster: ${s.name} is back (`),
    supervisorLog.length,
    ms,
    `${s.name} back`,
  );
}
const answers = async (url) => {
  try {
    return (await fetch(url)).status === 200;
  } catch {
    return false;
  }
};

describe('supervision: a process that dies is restarted, nginx loses no GET (issue 32)', () => {
  before(async () => {
    // The tests above killed an instance of each kind: the supervisor has brought both back.
    for (const s of [...cluster.supervisors.api, ...cluster.supervisors.edge]) await backFrom(s, null);
    for (const i of [0, 1]) {
      assert.ok(await answers(instance(i, '/api/health')), `api ${i} back`);
      assert.ok(await answers(edge(i, '/_edge/status')), `edge ${i} back`);
    }
    assert.ok(
      supervisorLog.some((l) =>
        /^cluster: edge :4111 \(pid \d+\) died: signal SIGKILL; restarting in/.test(l),
      ),
    );
  });

  for (const [kind, paths, direct] of [
    ['API', ['/api/posts?limit=6', '/api/health'], instance],
    ['edge', ['/about', '/', '/_edge/ready'], edge],
  ]) {
    it(`kill -9 of one ${kind} instance under GET load: 0 failed GETs, a new process answers`, async () => {
      const s = kind === 'API' ? cluster.supervisors.api[1] : cluster.supervisors.edge[1];
      const old = s.current;
      const load = loadOf(paths);
      await load.more(20);
      process.kill(old.pid, 'SIGKILL');
      await backFrom(s, old);
      assert.ok(await answers(direct(1, paths.at(-1))), `${s.name} answers`);
      // The load goes on with the new process back.
      await load.more(50);
      const { ok, failures } = await load.stop();
      assert.deepEqual(failures, []);
      assert.ok(ok > 50, `only ${ok} GETs`);
      assert.notEqual(s.current.pid, old.pid);
      assert.equal(old.signalCode, 'SIGKILL');
      const death = supervisorLog.findLast((l) => l.includes(`${s.name} (pid ${old.pid}) died`));
      assert.match(death ?? '', /died: signal SIGKILL; restarting in \d/);
      assert.ok(supervisorLog.some((l) => l.startsWith(`cluster: ${s.name} is back (pid ${s.current.pid}`)));
    });
  }

  it('`pnpm cluster reload` under GET load: every instance replaced, one at a time, 0 failed GETs', async () => {
    const before = [...cluster.supervisors.api, ...cluster.supervisors.edge].map((s) => s.current.pid);
    const load = loadOf(['/api/posts?limit=6', '/about', '/api/health', '/_edge/ready']);
    await load.more(20);
    const cli = spawn(process.execPath, [path.join(ROOT, 'scripts', 'cluster-cli.mjs'), 'reload'], {
      env: { ...process.env, CLUSTER_RUN_DIR: cluster.runDir },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    cli.stdout.on('data', (chunk) => {
      out += chunk;
    });
    const [code] = await new Promise((resolve) => cli.on('exit', (...a) => resolve(a)));
    // The load goes on with every instance replaced.
    await load.more(50);
    const { ok, failures } = await load.stop();
    assert.equal(code, 0, out);
    assert.deepEqual(failures, []);
    assert.ok(ok > 50, `only ${ok} GETs`);
    const after = [...cluster.supervisors.api, ...cluster.supervisors.edge].map((s) => s.current.pid);
    for (const [i, pid] of after.entries()) assert.notEqual(pid, before[i]);
    // One at a time, in order: each back before the next goes out.
    const steps = out
      .split('\n')
      .filter((l) => l.startsWith('cluster reload: '))
      .map((l) => l.replace(/ \(pid \d+\)/, '').replace(/done in [\d.]+ s/, 'done'));
    const names = ['api :4101', 'api :4102', 'edge :4111', 'edge :4112'];
    assert.deepEqual(steps, [
      ...names.flatMap((n) => [
        `cluster reload: ${n}: SIGTERM, draining`,
        `cluster reload: ${n} ready again`,
      ]),
      'cluster reload: done',
    ]);
    assert.match(out.trim().split('\n').at(-1), /^ok$/);
    // Nothing was counted as a death.
    for (const pid of before) assert.ok(!supervisorLog.some((l) => l.includes(`(pid ${pid}) died`)));
  });

  it('nginx and PostgreSQL killed with -9 are started again, and the cluster serves through them', async () => {
    for (const key of ['nginx', 'postgres']) {
      const s = cluster.supervisors[key];
      const old = s.current;
      process.kill(old.pid, 'SIGKILL');
      await backFrom(s, old);
      assert.match(
        supervisorLog.findLast((l) => l.includes(`${key} (pid ${old.pid}) died`)) ?? '',
        /; restarting in /,
      );
    }
    // A search reads the database on every request: PostgreSQL is back for the API instances too. Asked
    // until it answers (a condition, with a deadline): the instances' pools reconnect on a request, and
    // nothing tells this process when they have.
    await until(
      () => answers(at(`/api/posts/search?q=risk&n=${Date.now()}`)),
      30_000,
      'a search through the new nginx',
    );
    await until(() => answers(at('/about')), 10_000, 'a page through the new nginx');
  });
});

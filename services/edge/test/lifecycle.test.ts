// Liveness, readiness and draining (docs/decisions/0028-process-lifecycle.md): in process for the details,
// and once as a real process for the signal and the exit code.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { drainServer, type Lifecycle } from '@app/http-lifecycle';
import { afterAll, describe, expect, it } from 'vitest';
import { EDGE_PATHS } from '../src/edge-endpoints';
import { serveApp } from '../src/serve';
import { EDGE_SECRET, edgeFixture, runtimeConfig } from './fixture';

const fx = edgeFixture('edge-lifecycle');
afterAll(() => fx.close());

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function request(
  url: string,
  o: { method?: string; agent?: http.Agent | false; headers?: Record<string, string> } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: o.method ?? 'GET', agent: o.agent, headers: o.headers },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** A port nobody listens on now. */
function freePort(): Promise<number> {
  const probe = http.createServer();
  return new Promise((resolve) =>
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    }),
  );
}

/** A stand-in API whose profile answers only when `release` is called: an identity request held in flight. */
async function heldApi() {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let arrived = () => {};
  /** Resolves once a request has reached the stand-in API (the edge's call is in flight). */
  const reached = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  const api = http.createServer((_req, res) => {
    arrived();
    void released.then(() => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ id: 7 }));
    });
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(api.address() as AddressInfo).port}`,
    release,
    reached,
    close: () => api.close(),
  };
}

/**
 * What a child prints on `stream`, and a wait for a part of it: resolved by the chunk that brings it (no
 * polling), rejected when the child exits first or after `timeoutMs`.
 */
function printed(stream: Readable, child: ChildProcess) {
  let text = '';
  const waiters = new Set<() => void>();
  stream.on('data', (chunk: Buffer) => {
    text += chunk.toString();
    for (const wake of [...waiters]) wake();
  });
  child.once('exit', () => {
    for (const wake of [...waiters]) wake();
  });
  return {
    text: () => text,
    waitFor(part: string, timeoutMs = 20_000): Promise<void> {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => finish(new Error(`no "${part}" within ${timeoutMs} ms:\n${text}`)),
          timeoutMs,
        );
        function finish(error?: Error) {
          clearTimeout(timer);
          waiters.delete(check);
          if (error) reject(error);
          else resolve();
        }
        function check() {
          if (text.includes(part)) finish();
          else if (child.exitCode !== null || child.signalCode !== null)
            finish(new Error(`the process exited before "${part}":\n${text}`));
        }
        waiters.add(check);
        check();
      });
    },
  };
}

async function startEdge(lifecycle: Lifecycle, apiBaseUrl?: string) {
  const feed = await fx.newFeed();
  await feed.waitFor(0);
  const server = await serveApp({
    name: 'shell',
    dir: fx.dist,
    port: 0,
    host: '127.0.0.1',
    spa: true,
    runtimeConfig: runtimeConfig(apiBaseUrl),
    releases: { store: fx.store },
    feed,
    edgeSecret: EDGE_SECRET,
    lifecycle,
  });
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('liveness and readiness', () => {
  it('are 200 while the shell can be read; ready is 503 with Retry-After when it cannot', async () => {
    const { server, url } = await startEdge({ draining: false });
    expect((await request(url + EDGE_PATHS.live)).status).toBe(200);
    expect((await request(url + EDGE_PATHS.ready)).status).toBe(200);
    expect((await request(url + EDGE_PATHS.ready, { method: 'POST' })).status).toBe(405);
    const page = path.join(fx.dist, 'index.html');
    fs.renameSync(page, `${page}.away`);
    try {
      const ready = await request(url + EDGE_PATHS.ready);
      expect(ready.status).toBe(503);
      expect(ready.headers['retry-after']).toMatch(/^\d+$/);
      expect(JSON.parse(ready.body).error).toEqual(expect.any(String));
      expect((await request(url + EDGE_PATHS.live)).status).toBe(200);
    } finally {
      fs.renameSync(`${page}.away`, page);
    }
    server.close();
  });
});

describe('draining', () => {
  it('answers ready 503, refuses new connections and lets a request in flight finish', async () => {
    const api = await heldApi();
    const lifecycle: Lifecycle = { draining: false };
    const { server, url } = await startEdge(lifecycle, api.url);
    const kept = new http.Agent({ keepAlive: true, maxSockets: 1 });
    expect((await request(url + EDGE_PATHS.ready, { agent: kept })).status).toBe(200);

    const identity = request(url + EDGE_PATHS.identity, {
      method: 'POST',
      agent: false,
      headers: { Authorization: 'Bearer some-token' },
    });
    // In flight: the edge has passed it on to the API, which holds it.
    await api.reached;
    const drained = drainServer(server, lifecycle, 5000);

    const ready = await request(url + EDGE_PATHS.ready, { agent: kept });
    expect(ready.status).toBe(503);
    expect(ready.headers.connection).toBe('close');
    await expect(request(url + EDGE_PATHS.live, { agent: false })).rejects.toMatchObject({
      code: 'ECONNREFUSED',
    });

    api.release();
    expect((await identity).status).toBe(204);
    expect(await drained).toMatchObject({ forced: false });
    kept.destroy();
    api.close();
  });

  it('a real edge process exits 0 on SIGTERM, with a line when it starts draining and one when done', async () => {
    const asked = fx.api.asked.length;
    const stagingPort = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: path.resolve(import.meta.dirname, '..'),
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        SHELL_DIST: fx.dist,
        SHELL_CONFIG: path.join(fx.root, 'config.json'),
        RELEASE_STORE_DIR: fx.store,
        DEPLOY_DIR: path.join(fx.root, 'deploy'),
        // Its poll is held by the stand-in API (up to 25 s): the drain must not wait for it.
        API_URL: await fx.api.url(),
        DEPLOY_ENV: 'production',
        // A second environment from the same process, on a port of its own (as `pnpm start` serves staging).
        EXTRA_ENVIRONMENTS: `staging:${stagingPort}`,
        EDGE_SECRET,
        DRAIN_TIMEOUT_MS: '2000',
      },
    });
    const out = printed(child.stdout, child);
    const err = printed(child.stderr, child);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    // Each listener prints a line once it listens; staging's comes last.
    await out.waitFor(`edge listening on ${stagingPort}`);
    expect(out.text()).toContain('(production: pages of');
    // The stand-in API knows production only: staging's listener answers, and says why it is not ready
    // (the edge logs the feed's first failure, after its status has it).
    await err.waitFor("edge: staging's deployment feed is unreachable (retrying)");
    const staging = JSON.parse((await request(`http://127.0.0.1:${stagingPort}${EDGE_PATHS.status}`)).body);
    expect(staging.feed).toMatchObject({ environment: 'staging', error: expect.stringContaining('404') });
    expect((await request(`http://127.0.0.1:${stagingPort}${EDGE_PATHS.ready}`)).status).toBe(503);
    // Its first poll was answered, the second one (`after` a revision) is held now.
    await fx.api.whenAsked((after) => after !== null, asked);
    const stopping = Date.now();
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(Date.now() - stopping).toBeLessThan(2000);
    const lines = out
      .text()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => line.msg)).toEqual(['edge draining', 'edge drained']);
  }, 30_000);
});

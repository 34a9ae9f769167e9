// nginx's retry rules for /api/ (issue 32), on the real rendered config in front of two stand-in API
// instances in this process that fail on cue: a read that an instance drops mid-request is answered by the
// other; a POST or PATCH that reached an instance is never sent again, while PUT and DELETE are (nginx
// counts them idempotent: the API's must be safe to repeat); a write that no instance got (refused) is
// sent to the other; a 503 with Retry-After (the shared database is away) is passed through, not retried.
// Run: `node --import tsx --test scripts/cluster/nginx-retry.test.mjs` (part of `pnpm test:cluster`;
// needs Debian's nginx). Its own ports: nginx 8190, stand-ins 4121 and 4122, a closed port 4123.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestNginx, stopTestNginx } from './test-nginx.mjs';

const PORT = 8190;
const STAND_INS = [4121, 4122];
const CLOSED = 4123;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'nginx-retry-'));
fs.chmodSync(work, 0o755);
const servers = [];
const nginxes = [];
// Per request id: how many attempts reached a stand-in, and which.
const attempts = new Map();

function standIn(port) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    const id = url.searchParams.get('id');
    const seen = attempts.get(id) ?? [];
    attempts.set(id, [...seen, port]);
    req.resume();
    req.on('end', () => {
      // The first attempt of a ?drop request dies with the request in flight (the socket reset).
      if (url.searchParams.has('drop') && seen.length === 0) return req.socket.destroy();
      if (url.pathname === '/api/db-away') {
        res.writeHead(503, { 'retry-after': '2', 'content-type': 'application/json' });
        return res.end('{"error":"The database is unreachable"}');
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ port }));
    });
  });
  servers.push(server);
  return new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
}

async function startNginx(apiPorts, runDir) {
  const nginx = await startTestNginx({
    test: 'nginx-retry.test.mjs',
    work,
    runDir,
    port: PORT,
    apiPorts,
    edgePorts: STAND_INS,
  });
  nginxes.push(nginx);
  return nginx;
}
const stopNginx = stopTestNginx;

let n = 0;
/** One request through nginx with a fresh id; its answer and the stand-ins it reached. */
async function send(method, pathname, { drop = false } = {}) {
  n += 1;
  const id = `${method}-${n}`;
  const res = await fetch(`http://127.0.0.1:${PORT}${pathname}?id=${id}${drop ? '&drop' : ''}`, {
    method,
    headers: method === 'GET' ? {} : { 'content-type': 'application/json' },
    body: method === 'GET' ? undefined : '{"a":1}',
  });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), reached: attempts.get(id) ?? [] };
}

before(async () => {
  await Promise.all(STAND_INS.map(standIn));
});
after(async () => {
  await Promise.all(nginxes.map(stopNginx));
  for (const server of servers) server.close();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('nginx in front of two API instances: what is retried', () => {
  let nginx;
  before(async () => {
    nginx = await startNginx(STAND_INS, path.join(work, 'run'));
  });
  after(() => stopNginx(nginx));

  it('a GET that one instance drops mid-request is answered by the other', async () => {
    for (let i = 0; i < 4; i += 1) {
      const { status, reached } = await send('GET', '/api/posts', { drop: true });
      assert.equal(status, 200);
      assert.equal(reached.length, 2, JSON.stringify(reached));
    }
  });

  for (const method of ['POST', 'PATCH']) {
    it(`a ${method} that reached an instance is never sent again: the client gets the error`, async () => {
      for (let i = 0; i < 4; i += 1) {
        const { status, reached } = await send(method, '/api/posts/1', { drop: true });
        assert.equal(status, 502);
        assert.equal(reached.length, 1, JSON.stringify(reached));
      }
      assert.equal((await send(method, '/api/posts/1')).status, 200);
    });
  }

  // What nginx does, pinned: PUT and DELETE are idempotent in HTTP, and nginx resends them.
  for (const method of ['PUT', 'DELETE']) {
    it(`a ${method} whose instance died with it in flight is sent again to the other`, async () => {
      const { status, reached } = await send(method, '/api/posts/1', { drop: true });
      assert.equal(status, 200);
      assert.equal(reached.length, 2, JSON.stringify(reached));
    });
  }

  it('a 503 with Retry-After (the shared database is away) is passed through, not retried', async () => {
    for (let i = 0; i < 6; i += 1) {
      const { status, retryAfter, reached } = await send('GET', '/api/db-away');
      assert.equal(status, 503);
      assert.equal(retryAfter, '2');
      assert.equal(reached.length, 1);
    }
    // Not counted as failures: the instances still answer at once.
    assert.equal((await send('GET', '/api/posts')).status, 200);
  });
});

describe("the deployment feed and the edges' manifest", () => {
  let nginx;
  let conf;
  before(async () => {
    nginx = await startNginx(STAND_INS, path.join(work, 'run-feed'));
    conf = fs.readFileSync(path.join(work, 'run-feed', 'nginx.conf'), 'utf8');
  });
  after(() => stopNginx(nginx));

  it("the feed's long poll (held up to ~25 s by the API) is not cut by nginx, and a dropped one is retried", async () => {
    const location = conf.slice(conf.indexOf('location ^~ /api/deployment/ {'));
    const block = location.slice(0, location.indexOf('}'));
    assert.ok(Number(block.match(/proxy_read_timeout (\d+)s;/)?.[1]) > 30, block);
    assert.match(block, /proxy_pass http:\/\/api;/);
    const { status, reached } = await send('GET', '/api/deployment/production', { drop: true });
    assert.equal(status, 200);
    assert.equal(reached.length, 2, JSON.stringify(reached));
  });

  it("/deployment.json is the edge's (no file on disk any more)", async () => {
    assert.doesNotMatch(conf, /deployment\.json[^}]*alias/);
    const { status, reached } = await send('GET', '/deployment.json');
    assert.equal(status, 200);
    assert.equal(reached.length, 1);
  });
});

describe('nginx with one API instance down (its port closed)', () => {
  let nginx;
  before(async () => {
    nginx = await startNginx([CLOSED, STAND_INS[0]], path.join(work, 'run-down'));
  });
  after(() => stopNginx(nginx));

  it('reads and writes that no instance got are sent to the live one: all answered', async () => {
    for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'GET', 'POST', 'PUT', 'DELETE']) {
      const { status, reached } = await send(method, '/api/posts');
      assert.equal(status, 200, method);
      assert.deepEqual(reached, [STAND_INS[0]]);
    }
  });
});

// nginx keeps a busy client's connection open (issue 48): on the real rendered config, in front of a
// stand-in for the API and the edge, 2,500 requests on one keep-alive connection (files nginx serves itself,
// API calls and pages it proxies), each sent the moment the last answer was read, all go through that one
// connection with no "Connection: close". With nginx's default keepalive_requests (1000) the 1000th answer
// says "Connection: close" and the connection ends: a client that does not wait for that races it and is
// reset (ECONNRESET), 9 of 44,889 reads at 10 connections in the issue. The idle limit is announced
// (Keep-Alive: timeout=25, below nginx's 30 s), so clients that read it close an idle connection first.
// Run: `node --import tsx --test scripts/cluster/nginx-keepalive.test.mjs` (part of `pnpm test:cluster`;
// needs Debian's nginx). Its own ports: nginx 8192, the stand-in 4125.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestNginx, stopTestNginx } from './test-nginx.mjs';

const PORT = 8192;
const STAND_IN = 4125;
/** Well past nginx's default keepalive_requests (1000), twice over. */
const REQUESTS = 2500;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'nginx-keepalive-'));
fs.chmodSync(work, 0o755);
const runDir = path.join(work, 'run');
let standIn;
let nginx;

before(async () => {
  standIn = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
  });
  // As the API's and the edge's servers: idle connections end after 5 s (nginx drops its own after 4 s).
  standIn.keepAliveTimeout = 5000;
  await new Promise((resolve) => standIn.listen(STAND_IN, '127.0.0.1', resolve));
  nginx = await startTestNginx({
    test: 'nginx-keepalive.test.mjs',
    work,
    runDir,
    port: PORT,
    apiPorts: [STAND_IN],
    edgePorts: [STAND_IN],
  });
});

after(async () => {
  await stopTestNginx(nginx);
  standIn?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

/** One GET on `agent`: its status, headers and the socket it went over. */
const get = (agent, pathname) =>
  new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port: PORT, path: pathname, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, socket: req.socket }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });

describe("nginx's keep-alive limits", () => {
  it(`${REQUESTS} requests in a row keep one connection: no "Connection: close", nothing reset`, async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set();
    const closing = [];
    const paths = ['/config.json', '/api/posts', '/about'];
    try {
      for (let n = 0; n < REQUESTS; n += 1) {
        const { status, headers, socket } = await get(agent, paths[n % paths.length]);
        assert.equal(status, 200, `request ${n + 1}`);
        sockets.add(socket);
        if (headers.connection === 'close') closing.push(n + 1);
      }
    } finally {
      agent.destroy();
    }
    assert.deepEqual(closing, [], 'answers that closed the connection (keepalive_requests)');
    assert.equal(sockets.size, 1, 'connections used');
  });

  it('announces its idle limit below the one it enforces: Keep-Alive: timeout=25 (closes at 30 s)', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (const pathname of ['/config.json', '/api/posts', '/']) {
        const { headers } = await get(agent, pathname);
        assert.equal(headers['keep-alive'], 'timeout=25', pathname);
      }
    } finally {
      agent.destroy();
    }
    const conf = fs.readFileSync(path.join(runDir, 'nginx.conf'), 'utf8');
    assert.match(conf, /^\s*keepalive_timeout 30s 25s;$/m);
  });
});

// What is for operators is never reached through nginx's public server (issue 44, issue 48): /metrics (every
// API and edge instance's Prometheus metrics) and the edge's /_edge/status are answered 404 by nginx itself,
// however the path is spelled, and neither the API nor the edge sees the request. (Each instance would
// refuse it as well: it came through a proxy.) On the real rendered config, in front of stand-ins that
// record what reaches them.
// Run: `node --import tsx --test scripts/cluster/nginx-internal.test.mjs` (part of `pnpm test:cluster`; needs
// Debian's nginx). Its own ports: nginx 8196, the stand-ins 4128 (API) and 4129 (edge).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestNginx, stopTestNginx } from './test-nginx.mjs';

const PORT = 8196;
const API = 4128;
const EDGE = 4129;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'nginx-internal-'));
fs.chmodSync(work, 0o755);
const runDir = path.join(work, 'run');
/** Every request that reached a stand-in: `api /path` or `edge /path`. */
const reached = [];
const standIns = [];
let nginx;

before(async () => {
  for (const [name, port] of [
    ['api', API],
    ['edge', EDGE],
  ]) {
    const server = http.createServer((req, res) => {
      reached.push(`${name} ${req.url}`);
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(name);
      });
    });
    await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
    standIns.push(server);
  }
  nginx = await startTestNginx({
    test: 'nginx-internal.test.mjs',
    work,
    runDir,
    port: PORT,
    apiPorts: [API],
    edgePorts: [EDGE],
  });
});

after(async () => {
  await stopTestNginx(nginx);
  for (const server of standIns) server.close();
  fs.rmSync(work, { recursive: true, force: true });
});

/** Status and body of a raw request line's target (no client normalises it first). */
function get(target, method = 'GET') {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: PORT, path: target, method }, (res) => {
      let body = '';
      res.on('data', (chunk) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('nginx never passes on what is for operators', () => {
  it('answers /metrics and /_edge/status 404 itself, however spelled; pages and the API still pass', async () => {
    for (const target of [
      '/metrics',
      '/metrics?format=prometheus',
      '/%6Detrics',
      '//metrics',
      '/_edge/status',
      '/_edge/status?x=1',
    ]) {
      for (const method of ['GET', 'HEAD']) {
        const { status } = await get(target, method);
        assert.equal(status, 404, `${method} ${target}`);
      }
    }
    assert.deepEqual(reached, []);
    // The stand-ins do answer what nginx passes on: a page goes to the edge, /api/ to the API.
    assert.deepEqual(await get('/about'), { status: 200, body: 'edge' });
    assert.deepEqual(await get('/api/health'), { status: 200, body: 'api' });
    assert.deepEqual(reached, ['edge /about', 'api /api/health']);
  });
});

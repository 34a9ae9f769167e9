// nginx's logs hold no query string (issue 46): a reset link's ?token= from an older mail, a preview link's
// token, whatever a client appends, never reaches access.log or csp-reports.log, and neither does the query of
// a Referer. On the real rendered config in front of a stand-in for the API and the edge, read back from
// the log files nginx wrote.
// Run: `node --import tsx --test scripts/cluster/nginx-log.test.mjs` (part of `pnpm test:cluster`; needs
// Debian's nginx). Its own ports: nginx 8191, the stand-in 4124.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestNginx, stopTestNginx } from './test-nginx.mjs';

const PORT = 8191;
const STAND_IN = 4124;
/** Debian's nginx, wherever it is (scripts/prerequisites.mjs names the package when it is missing). */
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'nginx-log-'));
fs.chmodSync(work, 0o755);
const runDir = path.join(work, 'run');
let standIn;
let nginx;

/** A secret of this run, one per request, so a line that holds one says which request leaked it. */
const secret = (name) => `s3cret-${name}-${process.pid}`;

before(async () => {
  standIn = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise((resolve) => standIn.listen(STAND_IN, '127.0.0.1', resolve));
  nginx = await startTestNginx({
    test: 'nginx-log.test.mjs',
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

/** The lines of `file` once `count` of them match `match` (nginx writes each line as the request ends). */
async function linesOf(file, match, count) {
  const until = Date.now() + 5000;
  for (;;) {
    const lines = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
    if (lines.filter(match).length >= count || Date.now() > until) return lines;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('nginx logs paths, never query strings', () => {
  it('the rendered config writes no "$request", $request_uri, $args or raw Referer into a log format', () => {
    const conf = fs.readFileSync(path.join(runDir, 'nginx.conf'), 'utf8');
    const formats = conf.match(/log_format[\s\S]*?;/g) ?? [];
    assert.equal(formats.length, 1, conf);
    for (const format of formats) {
      assert.doesNotMatch(format, /\$request\b(?!_)|\$request_uri|\$args|\$query_string|\$http_referer/);
      assert.match(format, /\$request_method \$uri \$server_protocol/);
    }
    // Every access_log names that format (a bare one would use "combined", which logs "$request").
    for (const line of conf.match(/^\s*access_log\s[^;]*;/gm) ?? []) assert.match(line, / upstreams;$/);
  });

  it('tokens in the query of a page, an API call, a file, a CSP report or a Referer stay out of the logs', async () => {
    const at = (p) => `http://127.0.0.1:${PORT}${p}`;
    const requests = [
      [at(`/reset-password?token=${secret('reset')}`), {}],
      [
        at(`/about?preview=${secret('preview')}`),
        { referer: `http://localhost/reset-password?token=${secret('referer')}#x` },
      ],
      [at(`/api/auth/reset-password?token=${secret('api')}`), { 'user-agent': 'nginx-log-test' }],
      [at(`/config.json?token=${secret('file')}`), {}],
    ];
    for (const [url, headers] of requests) assert.equal((await fetch(url, { headers })).status, 200);
    const report = await fetch(at(`/csp-report?token=${secret('csp')}`), { method: 'POST', body: '{}' });
    assert.equal(report.status, 204);

    const access = await linesOf(
      path.join(runDir, 'access.log'),
      (l) => /"GET \/(reset-password|about|api|config)/.test(l),
      4,
    );
    const csp = await linesOf(path.join(runDir, 'csp-reports.log'), (l) => l.includes('/csp-report'), 1);
    const all = [...access, ...csp].join('\n');
    assert.ok(
      access.some((l) => l.includes('"GET /reset-password HTTP/1.1" 200')),
      all,
    );
    assert.ok(
      access.some((l) => l.includes('"GET /api/auth/reset-password HTTP/1.1" 200')),
      all,
    );
    assert.ok(
      access.some((l) => l.includes('"GET /config.json HTTP/1.1" 200')),
      all,
    );
    // The Referer is kept up to its query: where the visitor came from, not what the address carried.
    assert.ok(
      access.some((l) => /"GET \/about HTTP\/1.1" 200 \d+ "http:\/\/localhost\/reset-password" /.test(l)),
      all,
    );
    // No Referer is written as combined writes it.
    assert.ok(
      access.some((l) => /"GET \/reset-password HTTP\/1.1" 200 \d+ "-" /.test(l)),
      all,
    );
    assert.ok(
      csp.some((l) => l.includes('"POST /csp-report HTTP/1.1" 204')),
      all,
    );
    assert.doesNotMatch(all, /s3cret-/);
    assert.doesNotMatch(all, /\?/);
  });
});

import fs from 'node:fs';
import http, { type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveApp } from '../src/serve';

// A tiny build folder served the way `pnpm start` serves the shell (the edge) and a remote.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edge-serve-'));
const reports = path.join(dir, 'reports.jsonl');
const html =
  '<!doctype html><html><head><script>document.documentElement.dataset.theme="light"</script><style>body{margin:0}</style></head><body><div id="root"></div><script src="/main.js"></script></body></html>';
fs.writeFileSync(path.join(dir, 'index.html'), html);
fs.writeFileSync(path.join(dir, 'main.js'), 'console.log(1)');
fs.writeFileSync(path.join(dir, 'main.js.map'), '{}');
fs.writeFileSync(path.join(dir, 'chunk.0123456789.js'), 'console.log(2)');
fs.writeFileSync(path.join(dir, '.env'), 'SECRET=1');
fs.writeFileSync(path.join(os.tmpdir(), 'outside.txt'), 'outside');

const remoteAt = (port: number) => ({ url: `http://remote.example.test:${port}/mf-manifest.json` });
const config = {
  apiBaseUrl: 'http://api.example.test:4000',
  remotes: {
    mf_account: remoteAt(3001),
    mf_research: remoteAt(3002),
    mf_survey: remoteAt(3003),
    mf_public_pages: remoteAt(3004),
  },
};
let shell: Server;
let remote: Server;
const SHELL = 'http://localhost:3970';
const REMOTE = 'http://localhost:3971';

beforeAll(async () => {
  shell = await serveApp({
    name: 'shell',
    dir,
    port: 3970,
    spa: true,
    runtimeConfig: config,
    cspReportFile: reports,
  });
  remote = await serveApp({ name: 'mf-account', dir, port: 3971, allowedOrigins: [SHELL] });
});
afterAll(() => {
  shell.close();
  remote.close();
});

const csp = (response: Response): Record<string, string[]> =>
  Object.fromEntries(
    (response.headers.get('content-security-policy') ?? '')
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name, values]),
  );

describe('pages', () => {
  it.each(['/', '/post/42', '/index.html'])('%s carries the CSP and the page headers', async (url) => {
    const response = await fetch(SHELL + url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(response.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(response.headers.get('permissions-policy')).toContain('camera=()');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const policy = csp(response);
    expect(policy['frame-ancestors']).toEqual(["'none'"]);
    expect(policy['object-src']).toEqual(["'none'"]);
    expect(policy['base-uri']).toEqual(["'none'"]);
  });

  it('allows scripts from itself, the configured remotes and its own inline block by hash, nothing inline else', async () => {
    const policy = csp(await fetch(`${SHELL}/`));
    expect(policy['script-src']).toContain("'self'");
    expect(policy['script-src']).toContain('http://remote.example.test:3001');
    expect(policy['script-src']).not.toContain('http://api.example.test:4000');
    expect(policy['script-src']?.some((v) => v.startsWith("'sha256-"))).toBe(true);
    for (const directive of ['script-src', 'style-src']) {
      expect(policy[directive]).not.toContain("'unsafe-inline'");
      expect(policy[directive]).not.toContain("'unsafe-eval'");
    }
    expect(policy['connect-src']).toEqual(
      expect.arrayContaining(["'self'", 'http://api.example.test:4000', 'http://remote.example.test:3001']),
    );
  });

  it('the hash admits exactly the page inline script', async () => {
    const { createHash } = await import('node:crypto');
    const inline = 'document.documentElement.dataset.theme="light"';
    const hash = `'sha256-${createHash('sha256').update(inline).digest('base64')}'`;
    expect(csp(await fetch(`${SHELL}/`))['script-src']).toContain(hash);
  });

  it('scripts get no page headers but nosniff and the right type', async () => {
    const response = await fetch(`${SHELL}/main.js`);
    expect(response.headers.get('content-type')).toMatch(/javascript/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toBeNull();
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const hashed = await fetch(`${SHELL}/chunk.0123456789.js`);
    expect(hashed.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });
});

/** A GET whose path goes out byte for byte (fetch would normalise %2e%2e away before sending). */
function rawGet(port: number, rawPath: string): Promise<{ status?: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: 'localhost', port, path: rawPath }, (res) => {
        let body = '';
        res.on('data', (chunk) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode, body }));
      })
      .on('error', reject);
  });
}

describe('what is never served', () => {
  it.each([
    '/main.js.map',
    '/.env',
    '/%2e%2e/outside.txt',
    '/..%2foutside.txt',
    '/%252e%252e/outside.txt',
    '/a/%2E%2E/%2E%2E/outside.txt',
    '/main.js%00',
    '/..\\outside.txt',
    '/%E0%A4%A',
  ])('%s is a 404 (not the SPA page)', async (url) => {
    for (const port of [3970, 3971]) {
      const { status, body } = await rawGet(port, url);
      expect(status).toBe(404);
      expect(body).toBe('Not found');
    }
  });

  it('source maps are served with serveSourceMaps (the team flag)', async () => {
    const withMaps = await serveApp({ name: 'shell', dir, port: 3972, serveSourceMaps: true });
    try {
      expect((await fetch('http://localhost:3972/main.js.map')).status).toBe(200);
    } finally {
      withMaps.close();
    }
  });
});

describe('CORS', () => {
  it("answers the shell's origin and nobody else", async () => {
    const own = await fetch(`${REMOTE}/main.js`, { headers: { Origin: SHELL } });
    expect(own.headers.get('access-control-allow-origin')).toBe(SHELL);
    expect(own.headers.get('vary')).toContain('Origin');
    const foreign = await fetch(`${REMOTE}/main.js`, { headers: { Origin: 'http://evil.example.test' } });
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    const none = await fetch(`${REMOTE}/main.js`);
    expect(none.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('CSP reports', () => {
  it('are stored one per line, and only POSTs are taken', async () => {
    const body = JSON.stringify({
      'csp-report': {
        'document-uri': `${SHELL}/about`,
        'effective-directive': 'script-src-elem',
        'blocked-uri': 'http://evil.example.test/x.js',
      },
    });
    const response = await fetch(`${SHELL}/csp-report`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/csp-report' },
      body,
    });
    expect(response.status).toBe(204);
    await expect
      .poll(() => (fs.existsSync(reports) ? fs.readFileSync(reports, 'utf8') : ''))
      .toContain('http://evil.example.test/x.js');
    const line = JSON.parse(fs.readFileSync(reports, 'utf8').trim().split('\n').at(-1) ?? '');
    expect(line).toMatchObject({ app: 'shell', directive: 'script-src-elem', page: `${SHELL}/about` });
    expect((await fetch(`${SHELL}/csp-report`)).status).toBe(405);
  });
});

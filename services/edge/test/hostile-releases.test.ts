import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { ticketKey, verifyTicket } from '@app/rollout/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EDGE_SECRET, edgeFixture, paintedVersion, planOf, runtimeConfig } from './fixture';

// Issue 44: a team's release is code the platform did not write. Each release below attacks from its server
// renderer, shipped as the stable version a visitor gets; each attack is refused, the page is still served
// (with the release's build-time picture), the edge says which release failed, and nothing outside the
// release's own folder is read, written or started. The layer under the worker's JavaScript guard (the OS
// and Node's permission model) is tried on its own in sandbox.test.ts.
const f = edgeFixture('edge-hostile');
const SECRET = 'mfd_the-admin-deploy-token-nobody-may-read-0000000000';
const deployDir = path.join(f.root, 'deploy');
const written = path.join(f.root, 'written-by-a-render.txt');
const spawned = path.join(f.root, 'spawned-by-a-render.txt');
const API_PORT = 3962;
let apiHits = 0;
const api = http.createServer((req, res) => {
  if (req.url?.startsWith('/stolen')) apiHits += 1;
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify([{ title: 'A post' }]));
});

/** A renderer (as tooling/webpack builds them: an ES module with a createRequire banner) running `attack`. */
const renderer = (attack: string) => `import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const seen = {};
const tryIt = (name, run) => {
  try { seen[name] = String(run()).slice(0, 200); } catch (error) { seen[name] = 'refused: ' + error.message.slice(0, 120); }
};
export const serverRequests = () => ['/api/posts'];
export function renderPage() {
  ${attack}
  return { html: '<h1>Rendered</h1><pre id="seen">' + JSON.stringify(seen).replace(/</g, '&lt;') + '</pre>', css: '' };
}`;

const ATTACKS = {
  'reads-secrets': renderer(`
    tryIt('env', () => JSON.stringify(process.env));
    tryIt('file', () => require('fs').readFileSync(${JSON.stringify(path.join(deployDir, 'local-deploy-token'))}, 'utf8'));
    tryIt('builtin', () => process.getBuiltinModule('node:fs').readFileSync(${JSON.stringify(path.join(deployDir, 'local-deploy-token'))}, 'utf8'));
    tryIt('folder', () => process.getBuiltinModule('fs').readdirSync(${JSON.stringify(deployDir)}).join(','));
    tryIt('proc', () => require('fs').readFileSync('/proc/' + process.ppid + '/environ', 'utf8'));`),
  'writes-a-file': renderer(`
    tryIt('fs', () => require('fs').writeFileSync(${JSON.stringify(written)}, 'x'));
    tryIt('builtin', () => process.getBuiltinModule('fs').writeFileSync(${JSON.stringify(written)}, 'x'));`),
  'spawns-a-process': renderer(`
    tryIt('child', () => require('child_process').execSync('touch ${spawned}'));
    tryIt('builtin', () => process.getBuiltinModule('child_process').execSync('touch ${spawned}'));
    tryIt('worker', () => new (require('worker_threads').Worker)('1', { eval: true }));`),
  'calls-out': renderer(`
    tryIt('fetch', () => fetch('http://127.0.0.1:${API_PORT}/stolen'));
    tryIt('net', () => require('http').get('http://127.0.0.1:${API_PORT}/stolen'));
    tryIt('kill', () => process.kill(process.ppid, 'SIGKILL'));`),
  'loops-forever': renderer('for (;;) {}'),
  'hangs-beside-others': renderer('for (;;) {}'),
  'allocates-the-heap': renderer('const kept = []; for (;;) kept.push(new Array(1e6).fill(kept.length));'),
  'allocates-buffers': renderer('const kept = []; for (;;) kept.push(Buffer.alloc(64 * 1024 * 1024, 1));'),
  'emits-scripts': `export const serverRequests = () => ['/api/posts'];
export const renderPage = () => ({
  html: '<h1>Rendered</h1><script>window.__pwned = 1</script><script src="/releases/mf-research/x/evil.js"></script>' +
    '<script type="application/json" data-primed-responses="">{"/api/profile":{"body":{"role":"admin"}}}</script>' +
    '<meta http-equiv="refresh" content="0;url=https://evil.example"><base href="https://evil.example/">' +
    '<img src=x onerror="window.__pwned = 2"><plaintext>everything after this would be text',
  css: '',
});`,
  'imports-fs': `import fs from 'node:fs';
export const serverRequests = () => ['/api/posts'];
export const renderPage = () => ({ html: fs.readFileSync(${JSON.stringify(path.join(deployDir, 'local-deploy-token'))}, 'utf8'), css: '' });`,
} as const;
type Attack = keyof typeof ATTACKS;
const versionOf = (attack: Attack) => `1.0.${Object.keys(ATTACKS).indexOf(attack)}-${'a'.repeat(10)}`;
const built = { '/research-center': { html: '<h1>Research (built)</h1>', css: '' } };
let URL = '';

interface Degraded {
  kind: string;
  subject: string;
  path: string | null;
  error: string;
}
const degraded = async () =>
  ((await (await fetch(`${URL}/_edge/status`)).json()) as { degraded: Degraded[] }).degraded;

beforeAll(async () => {
  process.env.EDGE_SECRET = SECRET; // in the edge's own environment: no render may see it
  fs.mkdirSync(deployDir, { recursive: true });
  fs.writeFileSync(path.join(deployDir, 'local-deploy-token'), `${SECRET}\n`);
  for (const attack of Object.keys(ATTACKS) as Attack[]) {
    f.release('mf-research', versionOf(attack), { renderer: ATTACKS[attack], pages: built });
  }
  f.release('mf-public-pages', '2.0.0-bbbbbbbbbb', {
    renderer: renderer("tryIt('ok', () => 'fine');").replace('<h1>Rendered</h1>', '<h1>Home rendered</h1>'),
  });
  await new Promise<void>((resolve) => api.listen(API_PORT, resolve));
  URL = await f.start(3961, { runtimeConfig: runtimeConfig(`http://localhost:${API_PORT}`) });
}, 60_000);
afterAll(() => {
  delete process.env.EDGE_SECRET;
  api.close();
  f.close();
});

/** Ships the attack as mf-research's stable version and opens its page, as any visitor would. */
async function visit(attack: Attack) {
  await f.deploy({
    'mf-research': { stable: versionOf(attack) },
    'mf-public-pages': { stable: '2.0.0-bbbbbbbbbb' },
  });
  const started = Date.now();
  const response = await fetch(`${URL}/research-center`);
  return { status: response.status, html: await response.text(), ms: Date.now() - started };
}

const seenIn = (html: string): Record<string, string> =>
  JSON.parse(
    (html.match(/<pre id="seen">(.*?)<\/pre>/)?.[1] ?? '{}')
      .replace(/&amp;/g, '&')
      .replace(/&lt;/g, '<')
      .replace(/&quot;/g, '"'),
  );

describe('a release whose server code', () => {
  it("reads the edge's environment and the deploy folder sees neither: an empty environment, every read refused", async () => {
    const { status, html } = await visit('reads-secrets');
    expect(status).toBe(200);
    expect(html).not.toContain(SECRET);
    const seen = seenIn(html);
    expect(JSON.parse(seen.env ?? '{}')).toEqual({ NODE_ENV: 'production' });
    for (const read of ['file', 'builtin', 'folder', 'proc']) expect(seen[read]).toMatch(/^refused: /);
  });

  it('imports node:fs outright does not load at all: the build-time picture, and the edge names the release', async () => {
    const { status, html } = await visit('imports-fs');
    expect(status).toBe(200);
    expect(html).not.toContain(SECRET);
    expect(html).toContain('<h1>Research (built)</h1>');
    expect(paintedVersion(html)).toBe(versionOf('imports-fs'));
    expect(await degraded()).toContainEqual(
      expect.objectContaining({
        kind: 'renderer-import-failed',
        subject: `mf-research@${versionOf('imports-fs')}`,
        error: expect.stringContaining('node:fs'),
      }),
    );
  });

  it('emits scripts gets no script the CSP admits, and nothing that acts on the page outside its region', async () => {
    const { status, html } = await visit('emits-scripts');
    expect(status).toBe(200);
    const page = await fetch(`${URL}/research-center`);
    const policy = page.headers.get('content-security-policy') ?? '';
    const body = await page.text();
    const region = body.slice(body.indexOf('data-prerendered-region'), body.indexOf('</main>'));
    expect(region).toContain('<h1>Rendered</h1>');
    // The inline script stays for the browser to refuse and report: no hash of it, no 'unsafe-inline'.
    expect(region).toContain('<script>window.__pwned = 1</script>');
    const scriptSrc = policy.split(';').find((d) => d.trim().startsWith('script-src')) ?? '';
    expect(scriptSrc).not.toContain("'sha256-");
    expect(scriptSrc).not.toContain('unsafe');
    // What the CSP would not stop is gone: a script from a file, a data block, a refresh, a base, a plaintext.
    for (const gone of ['evil.js', '"role":"admin"', 'http-equiv', '<base', '<plaintext', 'everything after'])
      expect(region).not.toContain(gone);
    // The page goes on after the region: the shell's own script and the page's end are there.
    expect(body.indexOf('<script src="/main.js"></script>')).toBeGreaterThan(body.indexOf('</main>'));
    expect(html).toContain('</html>');
    expect(await degraded()).toContainEqual(
      expect.objectContaining({
        kind: 'region-cleaned',
        subject: `mf-research@${versionOf('emits-scripts')}`,
      }),
    );
  });

  it('writes a file writes nothing', async () => {
    const { status, html } = await visit('writes-a-file');
    expect(status).toBe(200);
    expect(Object.values(seenIn(html))).toEqual([
      expect.stringMatching(/^refused/),
      expect.stringMatching(/^refused/),
    ]);
    expect(fs.existsSync(written)).toBe(false);
  });

  it('starts a process or a thread starts nothing', async () => {
    const { status, html } = await visit('spawns-a-process');
    expect(status).toBe(200);
    for (const value of Object.values(seenIn(html))) expect(value).toMatch(/^refused/);
    expect(fs.existsSync(spawned)).toBe(false);
  });

  it('calls the network or signals the edge reaches nobody', async () => {
    const { status, html } = await visit('calls-out');
    expect(status).toBe(200);
    for (const value of Object.values(seenIn(html))) expect(value).toMatch(/^refused/);
    // The edge itself is alive (it answered this page) and answers the next one.
    expect((await fetch(`${URL}/_edge/live`)).status).toBe(200);
    expect(apiHits).toBe(0);
  });

  it('loops forever is killed at its budget: the page is served with the picture, the release named', async () => {
    const { status, html, ms } = await visit('loops-forever');
    expect(status).toBe(200);
    expect(html).toContain('<h1>Research (built)</h1>');
    expect(ms).toBeLessThan(5000);
    // The page view's health ticket says so: the version's health counts it (the API records it).
    const verdict = verifyTicket(planOf(html).health.ticket, ticketKey(EDGE_SECRET));
    expect(verdict.ok && verdict.ticket.renderFailures).toEqual(['mf-research']);
    expect(await degraded()).toContainEqual(
      expect.objectContaining({
        kind: 'render-failed',
        subject: `mf-research@${versionOf('loops-forever')}`,
        error: expect.stringContaining('killed'),
      }),
    );
    // Paused after that: the next visitor does not wait the render budget (2 s here) out again.
    const again = Date.now();
    expect((await fetch(`${URL}/research-center`)).status).toBe(200);
    expect(Date.now() - again).toBeLessThan(2000);
  });

  for (const [attack, what] of [
    ['allocates-the-heap', 'fills its heap'],
    ['allocates-buffers', 'allocates Buffers'],
  ] as const) {
    it(`${what} without bound is stopped at its cap: the page is served`, async () => {
      const { status, html } = await visit(attack);
      expect(status).toBe(200);
      expect(html).toContain('<h1>Research (built)</h1>');
      expect(await degraded()).toContainEqual(
        expect.objectContaining({ kind: 'render-failed', subject: `mf-research@${versionOf(attack)}` }),
      );
      expect((await fetch(`${URL}/_edge/live`)).status).toBe(200);
    });
  }

  it("hangs leaves other remotes' regions and other visitors unaffected", async () => {
    await f.deploy({
      'mf-research': { stable: versionOf('hangs-beside-others') },
      'mf-public-pages': { stable: '2.0.0-bbbbbbbbbb' },
    });
    // The research page's render hangs (for the render budget) while the home page is asked.
    let researchDoneAt = 0;
    const research = fetch(`${URL}/research-center`)
      .then((r) => r.text())
      .then((html) => {
        researchDoneAt = Date.now();
        return html;
      });
    await new Promise<void>((resolve) => {
      const poll = async () => {
        const status = (await (await fetch(`${URL}/_edge/status`)).json()) as {
          renderSandbox: { workers: Array<{ version: string; busy: boolean }> };
        };
        // Polled: the worker's busy state has no event outside the edge; it is asked within milliseconds.
        if (
          status.renderSandbox.workers.some((w) => w.version === versionOf('hangs-beside-others') && w.busy)
        )
          resolve();
        else setTimeout(poll, 20);
      };
      void poll();
    });
    const home = await (await fetch(`${URL}/`)).text();
    const homeDoneAt = Date.now();
    expect(home).toContain('<h1>Home rendered</h1>');
    expect(await research).toContain('<h1>Research (built)</h1>');
    // The home page did not wait for the research page's render to be killed.
    expect(homeDoneAt).toBeLessThan(researchDoneAt);
  });
});

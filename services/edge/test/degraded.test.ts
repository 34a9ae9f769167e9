import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { edgeFixture, paintedVersion, planOf, runtimeConfig } from './fixture';

// Issue 30, "says when it degrades": what the edge could not do is logged once per release and path, counted,
// and shown at /_edge/status; the visitor still gets a page, and a bad edit never breaks one.
const f = edgeFixture('edge-degraded');
const BROKEN_IMPORT = '1.0.0-aaaaaaaaaa';
const THROWS = '1.0.1-bbbbbbbbbb';
const configFile = path.join(f.root, 'config.json');
const warnings: string[] = [];
let URL = '';

beforeAll(async () => {
  vi.spyOn(console, 'warn').mockImplementation((line: string) => {
    warnings.push(line);
  });
  const built = { '/research-center': { html: '<h1>Research (built)</h1>', css: '' } };
  f.release('mf-research', BROKEN_IMPORT, { renderer: 'export const = nonsense;', pages: built });
  f.release('mf-research', THROWS, {
    renderer: `export const serverRequests = () => ['/api/posts'];
export function renderPage() { throw new Error('the renderer broke'); }`,
    pages: built,
  });
  await f.deploy({ 'mf-research': { stable: BROKEN_IMPORT } });
  fs.writeFileSync(configFile, JSON.stringify(runtimeConfig('http://localhost:3986')));
  URL = await f.start(3985, {
    runtimeConfig: undefined,
    configFile,
    fetchImpl: async () => Response.json([]),
  });
});
afterAll(() => {
  vi.restoreAllMocks();
  f.close();
});

interface Status {
  config: string;
  feed: { revision: number | null; error: string | null } | null;
  degraded: Array<{ kind: string; subject: string; path: string | null; count: number; error: string }>;
}
const statusAt = async (url: string) => (await (await fetch(`${url}/_edge/status`)).json()) as Status;
const status = () => statusAt(URL);
const page = async (path: string) => (await fetch(`${URL}${path}`)).text();

describe('a release whose renderer fails', () => {
  it('to import: the build-time picture of that release, logged once, counted per page', async () => {
    for (let i = 0; i < 3; i++) {
      const html = await page('/research-center');
      expect(html).toContain('<h1>Research (built)</h1>');
      expect(paintedVersion(html)).toBe(BROKEN_IMPORT);
    }
    const entry = (await status()).degraded.find(
      (d: { kind: string }) => d.kind === 'renderer-import-failed',
    );
    expect(entry).toMatchObject({
      subject: `mf-research@${BROKEN_IMPORT}`,
      path: '/research-center',
      count: 3,
    });
    expect(warnings.filter((w) => w.includes('renderer-import-failed'))).toHaveLength(1);
  });

  it('to render: the same, under its own kind', async () => {
    await f.deploy({ 'mf-research': { stable: THROWS } });
    await page('/research-center');
    const html = await page('/research-center');
    expect(html).toContain('<h1>Research (built)</h1>');
    const entry = (await status()).degraded.find((d) => d.kind === 'render-failed');
    expect(entry).toMatchObject({
      subject: `mf-research@${THROWS}`,
      count: 2,
      error: 'Error: the renderer broke',
    });
    expect(warnings.filter((w) => w.includes('render-failed'))).toHaveLength(1);
  });
});

describe('a bad edit', () => {
  it('of config.json keeps the last good config (and says so); a good one is taken at once', async () => {
    expect(planOf(await page('/')).config.apiBaseUrl).toBe('http://localhost:3986');
    fs.writeFileSync(configFile, JSON.stringify({ ...runtimeConfig(), apiBaseUrl: 'not a url' }));
    const response = await fetch(`${URL}/`);
    expect(response.status).toBe(200);
    expect(planOf(await response.text()).config.apiBaseUrl).toBe('http://localhost:3986');
    const entry = (await status()).degraded.find((d) => d.kind === 'config-invalid');
    expect(entry?.error).toContain('apiBaseUrl');
    fs.writeFileSync(configFile, '{ "half": ');
    expect((await fetch(`${URL}/`)).status).toBe(200);
    fs.writeFileSync(configFile, JSON.stringify(runtimeConfig('http://localhost:3987')));
    expect(planOf(await page('/')).config.apiBaseUrl).toBe('http://localhost:3987');
  });

  it('of the deployment manifest keeps the last good one', async () => {
    await f.deploy({ 'mf-research': { stable: BROKEN_IMPORT } });
    expect(planOf(await page('/')).plan.mf_research.version).toBe(BROKEN_IMPORT);
    await f.publishRaw({ schemaVersion: 1, remotes: { 'mf-research': {} } });
    expect(planOf(await page('/')).plan.mf_research.version).toBe(BROKEN_IMPORT);
    // The feed says why it skipped that revision (and keeps asking for the next one).
    expect((await status()).feed).toMatchObject({
      revision: f.api.revision() - 1,
      error: expect.stringContaining('invalid'),
    });
  });

  it('before any good config: the plain page, for the shell to report', async () => {
    const lonely = edgeFixture('edge-no-config');
    try {
      const bad = path.join(lonely.root, 'config.json');
      fs.writeFileSync(bad, '{}');
      const url = await lonely.start(3988, { runtimeConfig: undefined, configFile: bad });
      const response = await fetch(`${url}/about`);
      expect(response.status).toBe(200);
      expect(planOf(await response.text())).toBeNull();
      expect((await statusAt(url)).config).toBe('missing or invalid');
    } finally {
      lonely.close();
    }
  });
});

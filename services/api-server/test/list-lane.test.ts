import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app';
import { withListLane } from '../src/http-list-lane';
import type { Env } from '../src/routes/http-helpers';
import { createListCache } from '../src/routes/list-cache';
import { postInput, startTestServer, type TestServer, type TestUser } from './helpers';

/**
 * GET /api/posts is served by the list lane (src/http-list-lane.ts), without hono. It must answer exactly
 * what the hono route answers (routes/posts.ts): the same bodies, statuses, errors and paging headers, for
 * guests, members, teasers, filters, search text, cursors and bad input. Everything else goes to hono.
 */
let s: TestServer;
let hono: Hono<Env>;
let member: TestUser;
let author: TestUser;

beforeAll(async () => {
  s = await startTestServer({ listCacheSize: 0 });
  // The hono route, over the same database: what the lane must match.
  hono = createApp(s.ctx);
  member = await s.user([], 'lanemember');
  author = await s.user([], 'laneauthor');
  const admin = await s.user(['admin'], 'laneadmin');
  for (let i = 0; i < 7; i++) {
    await s.post('/api/posts', postInput({ title: `Lane public ${i}`, tags: ['lane'] }), author.token);
  }
  await s.post('/api/posts', postInput({ title: 'Lane members', visibility: 'members_only' }), author.token);
  await s.post('/api/posts', postInput({ title: 'Lane premium', visibility: 'paid-tier-1' }), admin.token);
  await s.post('/api/posts', postInput({ title: 'Lane draft', status: 'draft' }), author.token);
});
afterAll(() => s.close());

interface Answer {
  status: number;
  body: string;
  type: string | null;
  cursor: string | null;
  expose: string | null;
}

const auth = (token?: string): Record<string, string> => (token ? { authorization: `Bearer ${token}` } : {});

async function viaLane(path: string, token?: string): Promise<Answer> {
  return answer(await fetch(`${s.url}${path}`, { headers: auth(token) }));
}
async function viaHono(path: string, token?: string): Promise<Answer> {
  return answer(await hono.fetch(new Request(`http://api.test${path}`, { headers: auth(token) })));
}
async function answer(r: Response): Promise<Answer> {
  return {
    status: r.status,
    body: await r.text(),
    type: r.headers.get('content-type'),
    cursor: r.headers.get('x-next-cursor'),
    expose: r.headers.get('access-control-expose-headers'),
  };
}

describe('the list lane answers what the hono route answers', () => {
  const cases: [string, 'guest' | 'member' | 'author'][] = [
    ['/api/posts', 'guest'],
    ['/api/posts?limit=3', 'guest'],
    ['/api/posts?status=published&visibility=public&visibility=members_only&teasers=1&limit=50', 'member'],
    ['/api/posts?visibility=public,members_only&teasers=true', 'member'],
    ['/api/posts?teasers=1', 'guest'],
    ['/api/posts?tag=lane&limit=2', 'member'],
    ['/api/posts?content_type=research_report&offset=2&limit=2', 'guest'],
    ['/api/posts?status=draft', 'author'],
    ['/api/posts?status=draft', 'guest'],
    ['/api/posts?q=lane+public&limit=2', 'member'],
    ['/api/posts?q=', 'guest'],
    // Bad input: the same 400s and messages.
    ['/api/posts?limit=0', 'guest'],
    ['/api/posts?limit=abc', 'member'],
    ['/api/posts?teasers=2', 'guest'],
    ['/api/posts?visibility=secret', 'guest'],
    ['/api/posts?cursor=abc&offset=2', 'guest'],
    ['/api/posts?cursor=not-a-cursor', 'guest'],
    ['/api/posts?tag=%E0%A4%A', 'guest'],
  ];
  for (const [path, who] of cases) {
    it(`${path} as ${who}`, async () => {
      const token = who === 'member' ? member.token : who === 'author' ? author.token : undefined;
      const lane = await viaLane(path, token);
      expect(lane).toEqual(await viaHono(path, token));
    });
  }

  it('pages alike: the lane’s cursor gives the hono route’s next page, and back', async () => {
    const first = await viaLane('/api/posts?limit=4', member.token);
    expect(first.status).toBe(200);
    expect(first.cursor).toEqual(expect.any(String));
    const next = `/api/posts?limit=4&cursor=${encodeURIComponent(first.cursor!)}`;
    expect(await viaLane(next, member.token)).toEqual(await viaHono(next, member.token));
    expect(JSON.parse((await viaLane(next, member.token)).body).length).toBeGreaterThan(0);
  });

  it('a token that is no longer valid is the same 401 (the client then clears it)', async () => {
    const lane = await viaLane('/api/posts', 'not-a-session');
    expect(lane.status).toBe(401);
    expect(JSON.parse(lane.body)).toEqual({ error: 'Session expired or invalid' });
    expect(lane).toEqual(await viaHono('/api/posts', 'not-a-session'));
  });

  it('keeps the edge headers and compresses a large page as before', async () => {
    const r = await fetch(`${s.url}/api/posts?limit=50`, {
      headers: { 'accept-encoding': 'gzip', origin: 'http://localhost:3000' },
    });
    expect(r.status).toBe(200);
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.headers.get('vary')).toBe('Origin, Accept-Encoding');
    const raw = await new Promise<http.IncomingMessage>((resolve) =>
      http.get(`${s.url}/api/posts?limit=50`, { headers: { 'accept-encoding': 'gzip' } }, resolve),
    );
    const chunks: Buffer[] = [];
    for await (const chunk of raw) chunks.push(chunk as Buffer);
    expect(raw.headers['content-encoding']).toBe('gzip');
    const cards = JSON.parse(gunzipSync(Buffer.concat(chunks)).toString('utf8')) as { title: string }[];
    expect(cards.map((c) => c.title)).toContain('Lane public 0');
  });
});

describe('what the lane takes', () => {
  it('only a GET of exactly /api/posts; HEAD, other paths and a trailing slash go on to hono', async () => {
    const passed: string[] = [];
    const listener = withListLane(s.ctx, createListCache(0), (req, res) => {
      passed.push(`${req.method} ${req.url}`);
      res.writeHead(299);
      res.end();
    });
    const server = http.createServer(listener);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const served = await fetch(`${base}/api/posts?limit=2`);
      expect(served.status).toBe(200);
      expect((await served.json()) as unknown[]).toHaveLength(2);
      expect((await fetch(`${base}/api/posts`)).status).toBe(200);
      for (const [method, path] of [
        ['HEAD', '/api/posts'],
        ['POST', '/api/posts'],
        ['GET', '/api/posts/'],
        ['GET', '/api/posts/search?q=lane'],
        ['GET', '/api/posts/my'],
        ['GET', '/api/postsx'],
      ] as const) {
        expect((await fetch(`${base}${path}`, { method })).status, `${method} ${path}`).toBe(299);
      }
      expect(passed).toEqual([
        'HEAD /api/posts',
        'POST /api/posts',
        'GET /api/posts/',
        'GET /api/posts/search?q=lane',
        'GET /api/posts/my',
        'GET /api/postsx',
      ]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

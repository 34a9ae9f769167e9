import { CommentSchema, LikeResultSchema, PostCardListSchema, PostSchema, StatsSchema } from '@app/contracts';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postInput, startTestServer, type TestServer, type TestUser } from './helpers';

let s: TestServer;
let author: TestUser;
let other: TestUser;
let admin: TestUser;
beforeAll(async () => {
  s = await startTestServer();
  author = await s.user([], 'author');
  other = await s.user([], 'other');
  admin = await s.user(['admin'], 'admin');
});
afterAll(() => s.close());

const create = async (over: Record<string, unknown> = {}, token = author.token) => {
  const r = await s.post('/api/posts', postInput(over), token);
  expect(r.status).toBe(201);
  return r.body as v.InferOutput<typeof PostSchema>;
};

describe('create and read', () => {
  it('creates a post in the contract shape and reads it by id and slug', async () => {
    const p = await create({ title: 'Hello World Post', tags: ['one', 'two'], categories: ['Cat'] });
    expect(v.is(PostSchema, p)).toBe(true);
    expect(p).toMatchObject({
      _id: String(p.id),
      slug: 'hello-world-post',
      status: 'published',
      tags: ['one', 'two'],
      categories: ['Cat'],
      author: { id: author.id, name: 'Jane Doe' },
      views: 0,
    });
    expect(p.published_at).toBeTruthy();
    const byId = await s.get(`/api/posts/${p.id}`);
    expect(byId.status).toBe(200);
    const bySlug = await s.get('/api/posts/hello-world-post');
    expect(bySlug.body.id).toBe(p.id);
  });

  it('gives unique slugs with -2, -3 suffixes', async () => {
    const a = await create({ title: 'Same Title!' });
    const b = await create({ title: 'Same title' });
    const c = await create({ title: 'same   TITLE' });
    expect([a.slug, b.slug, c.slug]).toEqual(['same-title', 'same-title-2', 'same-title-3']);
  });

  it('counts a view on every single read', async () => {
    const p = await create();
    await s.get(`/api/posts/${p.id}`);
    await s.get(`/api/posts/${p.slug}`, other.token);
    const third = await s.get(`/api/posts/${p.id}`);
    expect(third.body.views).toBe(3);
  });

  it('counts no view for a read made ahead of a visit (Sec-Purpose or Purpose: prefetch)', async () => {
    const p = await create();
    const ahead = await s.req('GET', `/api/posts/${p.id}`, { headers: { 'sec-purpose': 'prefetch' } });
    expect(ahead.status).toBe(200);
    expect(ahead.body.views).toBe(0);
    await s.req('GET', `/api/posts/${p.slug}`, { headers: { purpose: 'prefetch' }, token: other.token });
    const visit = await s.get(`/api/posts/${p.id}`);
    expect(visit.body.views).toBe(1);
  });

  it('defaults to a draft, validates input and needs a session', async () => {
    const draft = await s.post('/api/posts', { title: 'Only title', content: 'Body' }, author.token);
    expect(draft.status).toBe(201);
    expect(draft.body).toMatchObject({ status: 'draft', visibility: 'public', published_at: null });
    const noTitle = await s.post('/api/posts', { content: 'x', title: '  ' }, author.token);
    expect(noTitle.status).toBe(400);
    expect(noTitle.body.error).toBe('Title is required');
    const badVis = await s.post('/api/posts', postInput({ visibility: 'secret' }), author.token);
    expect(badVis.status).toBe(400);
    expect(badVis.body.visibility).toBeTruthy();
    expect((await s.post('/api/posts', postInput())).status).toBe(401);
  });

  it('404s for unknown ids and slugs', async () => {
    expect((await s.get('/api/posts/999999')).status).toBe(404);
    expect((await s.get('/api/posts/no-such-slug')).body).toEqual({ error: 'Post not found' });
    expect((await s.get('/api/posts/99999999999999999999999')).status).toBe(404);
  });
});

describe('list', () => {
  let listServer: TestServer;
  let u: TestUser;
  beforeAll(async () => {
    listServer = await startTestServer();
    u = await listServer.user(['admin']);
    const mk = (over: Record<string, unknown>) => listServer.post('/api/posts', postInput(over), u.token);
    for (let i = 1; i <= 25; i++) await mk({ title: `Bulk ${i}`, tags: [], categories: [] });
    await mk({ title: 'Tagged', tags: ['special'], categories: ['Rare'], content_type: 'osint' });
    await mk({ title: 'Members', visibility: 'members_only', tags: [], categories: [] });
    await mk({ title: 'Hidden draft', status: 'draft' });
  });
  afterAll(() => listServer.close());

  it('answers an array of cards (no content), newest first, 20 by default', async () => {
    const r = await listServer.get('/api/posts', u.token);
    expect(r.status).toBe(200);
    expect(v.is(PostCardListSchema, r.body)).toBe(true);
    expect(r.body.some((p: object) => 'content' in p)).toBe(false);
    expect(r.body).toHaveLength(20);
    expect(r.body[0].title).toBe('Members');
  });

  it('supports limit and offset, limit at most 100', async () => {
    const page = await listServer.get('/api/posts?limit=5&offset=5', u.token);
    expect(page.body.map((p: { title: string }) => p.title)).toEqual([
      'Bulk 22',
      'Bulk 21',
      'Bulk 20',
      'Bulk 19',
      'Bulk 18',
    ]);
    expect((await listServer.get('/api/posts?limit=100', u.token)).body).toHaveLength(27);
    for (const bad of ['limit=0', 'limit=101', 'limit=abc', 'offset=-1', 'limit=1.5']) {
      const r = await listServer.get(`/api/posts?${bad}`);
      expect(r.status, bad).toBe(400);
      expect(r.body.error).toBeTruthy();
    }
  });

  it('filters by status, repeatable visibility, tag, category, content_type and q', async () => {
    const drafts = await listServer.get('/api/posts?status=draft', u.token);
    expect(drafts.body.map((p: { title: string }) => p.title)).toEqual(['Hidden draft']);
    const both = await listServer.get(
      '/api/posts?visibility=public&visibility=members_only&limit=100',
      u.token,
    );
    expect(both.body).toHaveLength(27);
    const members = await listServer.get('/api/posts?visibility=members_only', u.token);
    expect(members.body.map((p: { title: string }) => p.title)).toEqual(['Members']);
    expect((await listServer.get('/api/posts?tag=special')).body[0].title).toBe('Tagged');
    expect((await listServer.get('/api/posts?category=Rare')).body).toHaveLength(1);
    expect((await listServer.get('/api/posts?content_type=osint')).body).toHaveLength(1);
    expect((await listServer.get('/api/posts?q=bulk%202')).body).toHaveLength(7);
    expect((await listServer.get('/api/posts?q=100%25')).body).toHaveLength(0);
    expect((await listServer.get('/api/posts?status=nope')).status).toBe(400);
    expect((await listServer.get('/api/posts?visibility=nope')).status).toBe(400);
    expect((await listServer.get('/api/posts?content_type=nope')).status).toBe(400);
  });

  it('search needs q and matches title, summary and content', async () => {
    expect((await listServer.get('/api/posts/search')).status).toBe(400);
    const t = await listServer.post('/api/posts', postInput({ title: 'Ocelot title' }), u.token);
    const sm = await listServer.post(
      '/api/posts',
      postInput({ title: 'S', summary: 'an ocelot summary' }),
      u.token,
    );
    const c = await listServer.post(
      '/api/posts',
      postInput({ title: 'C', content: 'content OCELOT' }),
      u.token,
    );
    const r = await listServer.get('/api/posts/search?q=ocelot');
    expect(r.body.map((p: { id: number }) => p.id).sort()).toEqual([t.body.id, sm.body.id, c.body.id].sort());
  });

  it("/api/posts/my returns the caller's posts including drafts, and needs a session", async () => {
    const mine = await listServer.get('/api/posts/my?limit=100', u.token);
    expect(mine.body.some((p: { status: string }) => p.status === 'draft')).toBe(true);
    expect(mine.body.every((p: { author: { id: number } }) => p.author.id === u.id)).toBe(true);
    expect((await listServer.get('/api/posts/my')).status).toBe(401);
    const fresh = await listServer.user();
    expect((await listServer.get('/api/posts/my', fresh.token)).body).toEqual([]);
  });

  it("stats counts the caller's own posts", async () => {
    const fresh = await listServer.user();
    await listServer.post('/api/posts', postInput({ content_type: 'osint' }), fresh.token);
    await listServer.post('/api/posts', postInput({ status: 'draft' }), fresh.token);
    const r = await listServer.get('/api/stats', fresh.token);
    expect(v.is(StatsSchema, r.body)).toBe(true);
    expect(r.body).toMatchObject({ total: 2, published: 1, drafts: 1, views: 0 });
    expect(r.body.by_content_type).toMatchObject({ osint: 1, research_report: 1, case_study: 0 });
    expect((await listServer.get('/api/stats')).status).toBe(401);
  });
});

describe('ownership on every write', () => {
  it('update: author and admin may, others 403, guests 401', async () => {
    const p = await create({ title: 'Owned' });
    expect((await s.put(`/api/posts/${p.id}`, { title: 'x' })).status).toBe(401);
    const denied = await s.put(`/api/posts/${p.id}`, { title: 'Hijack' }, other.token);
    expect(denied.status).toBe(403);
    const own = await s.put(`/api/posts/${p.id}`, { title: 'Renamed', tags: ['z'] }, author.token);
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ title: 'Renamed', tags: ['z'], slug: p.slug, categories: p.categories });
    expect((await s.put(`/api/posts/${p.id}`, { summary: 'by admin' }, admin.token)).body.summary).toBe(
      'by admin',
    );
    expect((await s.put(`/api/posts/${p.id}`, { title: 123 }, author.token)).status).toBe(400);
    expect((await s.put('/api/posts/999999', { title: 'x' }, author.token)).status).toBe(404);
  });

  it('delete: others 403, author ok, then 404', async () => {
    const p = await create();
    expect((await s.del(`/api/posts/${p.id}`)).status).toBe(401);
    expect((await s.del(`/api/posts/${p.id}`, other.token)).status).toBe(403);
    expect((await s.del(`/api/posts/${p.id}`, author.token)).status).toBe(200);
    expect((await s.get(`/api/posts/${p.id}`)).status).toBe(404);
    const q = await create();
    expect((await s.del(`/api/posts/${q.id}`, admin.token)).status).toBe(200);
  });

  it('publish: others 403 (404 for a draft they cannot see), author sets published_at', async () => {
    const p = await create({ status: 'draft' });
    expect((await s.put(`/api/posts/${p.id}/publish`)).status).toBe(401);
    expect((await s.put(`/api/posts/${p.id}/publish`, undefined, other.token)).status).toBe(404);
    const pub = await s.put(`/api/posts/${p.id}/publish`, undefined, author.token);
    expect(pub.status).toBe(200);
    expect(pub.body.status).toBe('published');
    expect(pub.body.published_at).toBeTruthy();
    expect((await s.put(`/api/posts/${p.id}/publish`, undefined, other.token)).status).toBe(403);
    const q = await create({ status: 'draft' });
    expect((await s.put(`/api/posts/${q.id}/publish`, undefined, admin.token)).body.status).toBe('published');
  });

  it('visibility: validated, author or admin only', async () => {
    const p = await create();
    expect((await s.put(`/api/posts/${p.id}/visibility`, { visibility: 'private' })).status).toBe(401);
    expect(
      (await s.put(`/api/posts/${p.id}/visibility`, { visibility: 'private' }, other.token)).status,
    ).toBe(403);
    expect((await s.put(`/api/posts/${p.id}/visibility`, { visibility: 'gold' }, author.token)).status).toBe(
      400,
    );
    // A basic member may not choose Premium (decision 0011); an administrator may.
    expect(
      (await s.put(`/api/posts/${p.id}/visibility`, { visibility: 'paid-tier-1' }, author.token)).status,
    ).toBe(403);
    const r = await s.put(`/api/posts/${p.id}/visibility`, { visibility: 'paid-tier-1' }, admin.token);
    expect(r.body.visibility).toBe('paid-tier-1');
    // Above the other member's tier the post is now a teaser: no content (test/teasers.test.ts).
    const locked = await s.get(`/api/posts/${p.id}`, other.token);
    expect(locked.body).toMatchObject({ locked: true });
    expect(locked.body.content).toBeUndefined();
    expect((await s.put(`/api/posts/${p.id}/visibility`, { visibility: 'public' }, admin.token)).status).toBe(
      200,
    );
  });
});

describe('likes', () => {
  it('toggle one like per user', async () => {
    const p = await create();
    expect((await s.post(`/api/posts/${p.id}/like`)).status).toBe(401);
    const a = await s.post(`/api/posts/${p.id}/like`, undefined, other.token);
    expect(v.is(LikeResultSchema, a.body)).toBe(true);
    expect(a.body).toEqual({ liked: true, likes: 1 });
    expect((await s.post(`/api/posts/${p.id}/like`, undefined, author.token)).body).toEqual({
      liked: true,
      likes: 2,
    });
    expect((await s.post(`/api/posts/${p.id}/like`, undefined, other.token)).body).toEqual({
      liked: false,
      likes: 1,
    });
    const read = await s.get(`/api/posts/${p.id}`, author.token);
    expect(read.body).toMatchObject({ likes: 1, liked: true });
    expect((await s.post('/api/posts/999999/like', undefined, other.token)).status).toBe(404);
  });
});

describe('comments', () => {
  it('create, list, edit by author, delete by author or admin, like', async () => {
    const p = await create();
    expect((await s.post(`/api/posts/${p.id}/comments`, { content: 'x' })).status).toBe(401);
    expect((await s.post(`/api/posts/${p.id}/comments`, { content: '   ' }, other.token)).status).toBe(400);
    const c = await s.post(`/api/posts/${p.id}/comments`, { content: 'First!' }, other.token);
    expect(c.status).toBe(201);
    expect(v.is(CommentSchema, c.body)).toBe(true);
    expect(c.body).toMatchObject({ post_id: p.id, content: 'First!', author: { id: other.id } });

    const list = await s.get(`/api/posts/${p.id}/comments`);
    expect(list.body).toHaveLength(1);
    expect((await s.get(`/api/posts/${p.id}`)).body.comment_count).toBe(1);

    expect((await s.put(`/api/comments/${c.body.id}`, { content: 'edit' })).status).toBe(401);
    expect((await s.put(`/api/comments/${c.body.id}`, { content: 'edit' }, author.token)).status).toBe(403);
    expect((await s.put(`/api/comments/${c.body.id}`, { content: 'edit' }, admin.token)).status).toBe(403);
    const edited = await s.put(`/api/comments/${c.body.id}`, { content: 'Edited' }, other.token);
    expect(edited.body.content).toBe('Edited');
    expect((await s.put(`/api/comments/${c.body.id}`, { content: 5 }, other.token)).status).toBe(400);

    const like = await s.post(`/api/comments/${c.body.id}/like`, undefined, author.token);
    expect(like.body).toEqual({ liked: true, likes: 1 });
    expect((await s.post(`/api/comments/${c.body.id}/like`, undefined, author.token)).body.liked).toBe(false);
    expect((await s.post(`/api/comments/${c.body.id}/like`)).status).toBe(401);

    expect((await s.del(`/api/comments/${c.body.id}`, author.token)).status).toBe(403);
    expect((await s.del(`/api/comments/${c.body.id}`, other.token)).status).toBe(200);
    expect((await s.del(`/api/comments/${c.body.id}`, other.token)).status).toBe(404);

    const c2 = await s.post(`/api/posts/${p.id}/comments`, { content: 'Spam' }, other.token);
    expect((await s.del(`/api/comments/${c2.body.id}`, admin.token)).status).toBe(200);
    expect((await s.put('/api/comments/abc', { content: 'x' }, other.token)).status).toBe(404);
    expect((await s.get('/api/posts/999999/comments')).status).toBe(404);
  });
});

describe('list cache', () => {
  it('never serves a stale list after a write or a view', async () => {
    const c = await startTestServer();
    try {
      const u = await c.user();
      const first = await c.get('/api/posts', u.token);
      expect(first.body).toEqual([]);
      const p = await c.post('/api/posts', postInput({ title: 'Fresh' }), u.token);
      expect((await c.get('/api/posts', u.token)).body.map((x: { id: number }) => x.id)).toEqual([p.body.id]);
      await c.get(`/api/posts/${p.body.id}`);
      expect((await c.get('/api/posts', u.token)).body[0].views).toBe(1);
      await c.post(`/api/posts/${p.body.id}/like`, undefined, u.token);
      expect((await c.get('/api/posts', u.token)).body[0]).toMatchObject({ likes: 1, liked: true });
      expect((await c.get('/api/posts')).body[0]).toMatchObject({ likes: 1, liked: false });
      await c.put(`/api/posts/${p.body.id}/visibility`, { visibility: 'members_only' }, u.token);
      expect((await c.get('/api/posts')).body).toEqual([]);
    } finally {
      await c.close();
    }
  });

  it('serves gzip to clients that accept it', async () => {
    const c = await startTestServer({ seedDemo: true });
    try {
      const res = await fetch(`${c.url}/api/posts`, { headers: { 'accept-encoding': 'gzip' } });
      expect(res.headers.get('content-encoding')).toBe('gzip');
      const body = (await res.json()) as unknown[];
      expect(v.is(PostCardListSchema, body)).toBe(true);
      expect(body.length).toBeGreaterThan(10);
    } finally {
      await c.close();
    }
  });
});

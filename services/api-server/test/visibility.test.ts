import type { Visibility } from '@app/contracts';
import { canOpen, VISIBILITIES } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postInput, ROLES, startTestServer, type TestServer } from './helpers';

/** The §6 table, role by role: the server must agree with contracts' canOpen on every read path. */
const EXPECTED: Record<string, Visibility[]> = {
  guest: ['public'],
  basic: ['public', 'members_only'],
  premium: ['public', 'members_only', 'paid-tier-1'],
  'premium pro': ['public', 'members_only', 'paid-tier-1', 'paid-tier-2'],
  admin: ['public', 'members_only', 'paid-tier-1', 'paid-tier-2', 'private'],
};

let s: TestServer;
const tokens: Record<string, string | null> = {};
const postIds = {} as Record<Visibility, number>;
let draftId = 0;

beforeAll(async () => {
  s = await startTestServer();
  // An administrator may publish at every visibility (decision 0011); the readers below are other users.
  const author = await s.user(['admin'], 'author');
  for (const vis of VISIBILITIES.values) {
    const r = await s.post(
      '/api/posts',
      postInput({ title: `Matrix ${vis} zebra`, content: `matrix body zebra ${vis}`, visibility: vis }),
      author.token,
    );
    postIds[vis] = r.body.id;
    // One comment on every post, written by the author.
    await s.post(`/api/posts/${r.body.id}/comments`, { content: `comment on ${vis}` }, author.token);
  }
  draftId = (
    await s.post('/api/posts', postInput({ title: 'Matrix draft zebra', status: 'draft' }), author.token)
  ).body.id;
  for (const [name, roles] of Object.entries(ROLES)) {
    tokens[name] = roles === null ? null : (await s.user(roles, name.replace(' ', ''))).token;
  }
});
afterAll(() => s.close());

describe.each(Object.keys(ROLES))('%s', (name) => {
  const roles = () => ROLES[name]!;
  const token = () => tokens[name];

  it('matches canOpen for every visibility', () => {
    for (const vis of VISIBILITIES.values) expect(canOpen(vis, roles())).toBe(EXPECTED[name]!.includes(vis));
  });

  it('list returns exactly the openable visibilities, never a draft of someone else', async () => {
    const r = await s.get('/api/posts?limit=100', token());
    expect(r.status).toBe(200);
    const matrix = (r.body as { title: string; visibility: Visibility }[]).filter((p) =>
      p.title.startsWith('Matrix'),
    );
    expect(matrix.map((p) => p.visibility).sort()).toEqual([...EXPECTED[name]!].sort());
    expect(matrix.some((p) => p.title.includes('draft'))).toBe(false);
  });

  it('list asking for every visibility still gets only the openable ones', async () => {
    const qs = VISIBILITIES.values.map((vis) => `visibility=${vis}`).join('&');
    const r = await s.get(`/api/posts?${qs}&limit=100`, token());
    const got = new Set((r.body as { visibility: Visibility }[]).map((p) => p.visibility));
    expect([...got].sort()).toEqual([...EXPECTED[name]!].sort());
  });

  it('single read by id and by slug: content when openable, else a teaser (tier) or 404 (private)', async () => {
    for (const vis of VISIBILITIES.values) {
      const byId = await s.get(`/api/posts/${postIds[vis]}`, token());
      if (EXPECTED[name]!.includes(vis)) {
        expect(byId.status, `${vis} by id`).toBe(200);
        expect(byId.body.content).toContain('matrix body');
        const bySlug = await s.get(`/api/posts/${byId.body.slug}`, token());
        expect(bySlug.status).toBe(200);
        expect(bySlug.body.id).toBe(postIds[vis]);
      } else if (vis === 'private') {
        expect(byId.status, `${vis} by id`).toBe(404);
        expect(byId.body).toEqual({ error: 'Post not found' });
      } else {
        // Above the tier: the teaser, never the content (test/teasers.test.ts covers its shape).
        expect(byId.status, `${vis} by id`).toBe(200);
        expect(byId.body.locked).toBe(true);
        expect(byId.body.content).toBeUndefined();
      }
    }
  });

  it('a draft of someone else is 404 (admin excepted)', async () => {
    const r = await s.get(`/api/posts/${draftId}`, token());
    expect(r.status).toBe(name === 'admin' ? 200 : 404);
  });

  it('search returns only openable published posts', async () => {
    const r = await s.get('/api/posts/search?q=zebra&limit=100', token());
    expect(r.status).toBe(200);
    const vis = (r.body as { visibility: Visibility; status: string }[]).map((p) => p.visibility).sort();
    expect(vis).toEqual([...EXPECTED[name]!].sort());
    expect((r.body as { status: string }[]).every((p) => p.status === 'published')).toBe(true);
  });

  it('comments of a locked post are refused like the post itself', async () => {
    for (const vis of VISIBILITIES.values) {
      const r = await s.get(`/api/posts/${postIds[vis]}/comments`, token());
      if (EXPECTED[name]!.includes(vis)) {
        expect(r.status).toBe(200);
        expect(r.body.map((c: { content: string }) => c.content)).toContain(`comment on ${vis}`);
      } else {
        expect(r.status).toBe(vis === 'private' ? 404 : 403);
        expect(JSON.stringify(r.body)).not.toContain('comment on');
      }
    }
  });

  it('likes and comments on a locked post are refused', async () => {
    if (token() === null) return;
    for (const vis of VISIBILITIES.values) {
      const like = await s.post(`/api/posts/${postIds[vis]}/like`, undefined, token());
      const comment = await s.post(`/api/posts/${postIds[vis]}/comments`, { content: 'hi' }, token());
      if (EXPECTED[name]!.includes(vis)) {
        expect(like.status).toBe(200);
        expect(comment.status).toBe(201);
      } else {
        expect(like.status).toBeGreaterThanOrEqual(403);
        expect(like.status).toBeLessThanOrEqual(404);
        expect(comment.status).toBe(like.status);
      }
    }
  });

  it('tags, categories and the report count only openable posts', async () => {
    const tags = await s.get('/api/posts/tags', token());
    expect(tags.body).toEqual([{ name: 'alpha', count: EXPECTED[name]!.length }]);
    const cats = await s.get('/api/posts/categories', token());
    expect(cats.body).toEqual([{ name: 'Testing', count: EXPECTED[name]!.length }]);
    const report = await s.get('/api/report', token());
    expect(report.body.published).toBe(EXPECTED[name]!.length);
    expect(Object.keys(report.body.by_visibility).sort()).toEqual([...EXPECTED[name]!].sort());
  });

  it('the deprecated lists follow the same rules', async () => {
    const pub = await s.get('/api/public-posts', token());
    expect(pub.status).toBe(200);
    expect(new Set((pub.body as { visibility: string }[]).map((p) => p.visibility))).toEqual(
      new Set(['public']),
    );
    const priv = await s.get('/api/private-posts?limit=100', token());
    if (token() === null) {
      expect(priv.status).toBe(401);
    } else {
      const vis = (priv.body as { visibility: Visibility }[]).map((p) => p.visibility).sort();
      expect(vis).toEqual([...EXPECTED[name]!].sort());
    }
  });
});

it('an author sees their own drafts and locked-tier posts', async () => {
  const author = await s.user([], 'own');
  const mine = await s.post('/api/posts', postInput({ title: 'Own private' }), author.token);
  // A member cannot choose Admin Only (decision 0011), but an administrator may move their post there.
  const admin = await s.user(['admin'], 'boss');
  await s.put(`/api/posts/${mine.body.id}/visibility`, { visibility: 'private' }, admin.token);
  expect((await s.get(`/api/posts/${mine.body.id}`, author.token)).status).toBe(200);
  const draft = await s.post(
    '/api/posts',
    postInput({ title: 'Own draft quokka', status: 'draft' }),
    author.token,
  );
  const search = await s.get('/api/posts/search?q=quokka', author.token);
  expect(search.body.map((p: { id: number }) => p.id)).toEqual([draft.body.id]);
  const drafts = await s.get('/api/posts?status=draft', author.token);
  expect(drafts.body.map((p: { id: number }) => p.id)).toEqual([draft.body.id]);
  const guestDrafts = await s.get('/api/posts?status=draft');
  expect(guestDrafts.body).toEqual([]);
});

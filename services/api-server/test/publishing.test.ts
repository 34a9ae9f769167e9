import type { Role, Visibility } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostService } from '../src/services/posts';
import { postInput, startTestServer, type TestServer, type TestUser } from './helpers';

/** Decision 0011: what each role may publish, on every write path; and excerpts as plain text. */
let s: TestServer;
const users = {} as Record<'basic' | 'premium' | 'pro' | 'admin', TestUser>;
const ROLES: Record<keyof typeof users, Role[]> = {
  basic: [],
  premium: ['paid-tier-1'],
  pro: ['paid-tier-2'],
  admin: ['admin'],
};
beforeAll(async () => {
  s = await startTestServer();
  for (const [name, roles] of Object.entries(ROLES)) {
    users[name as keyof typeof users] = await s.user(roles, name);
  }
});
afterAll(() => s.close());

describe('visibility an author may choose', () => {
  const cases: [keyof typeof users, Visibility, boolean][] = [
    ['basic', 'public', true],
    ['basic', 'members_only', true],
    ['basic', 'paid-tier-1', false],
    ['basic', 'paid-tier-2', false],
    ['basic', 'private', false],
    ['premium', 'paid-tier-1', true],
    ['premium', 'paid-tier-2', false],
    ['pro', 'paid-tier-2', true],
    ['pro', 'private', false],
    ['admin', 'private', true],
  ];

  it.each(cases)('create: %s choosing %s allowed=%s', async (who, visibility, allowed) => {
    const r = await s.post('/api/posts', postInput({ visibility }), users[who].token);
    if (allowed) {
      expect(r.status).toBe(201);
      expect(r.body.visibility).toBe(visibility);
    } else {
      expect(r.status).toBe(403);
      expect(r.body.error).toMatch(
        /^(Basic Member|Premium|Premium Pro) accounts cannot publish .+ research\. Choose /,
      );
    }
  });

  it('refuses a basic member in words, creates nothing, and names the choices left', async () => {
    const before = (await s.get('/api/posts/my', users.basic.token)).body.length;
    const r = await s.post('/api/posts', postInput({ visibility: 'paid-tier-2' }), users.basic.token);
    expect(r.status).toBe(403);
    expect(r.body).toEqual({
      error: 'Basic Member accounts cannot publish Premium Pro research. Choose Public or Members.',
    });
    expect((await s.get('/api/posts/my', users.basic.token)).body.length).toBe(before);
  });

  it('update and the visibility call refuse the same, and leave the post as it was', async () => {
    const p = (await s.post('/api/posts', postInput({ title: 'Mine' }), users.basic.token)).body;
    const put = await s.put(
      `/api/posts/${p.id}`,
      { title: 'Changed', visibility: 'private' },
      users.basic.token,
    );
    expect(put.status).toBe(403);
    expect(put.body.error).toBe(
      'Basic Member accounts cannot publish Admin Only research. Choose Public or Members.',
    );
    const vis = await s.put(
      `/api/posts/${p.id}/visibility`,
      { visibility: 'paid-tier-1' },
      users.basic.token,
    );
    expect(vis.status).toBe(403);
    const now = (await s.get(`/api/posts/${p.id}`, users.basic.token)).body;
    expect(now).toMatchObject({ title: 'Mine', visibility: 'public' });
    expect(
      (await s.put(`/api/posts/${p.id}`, { visibility: 'members_only' }, users.basic.token)).status,
    ).toBe(200);
  });

  it('an author keeps a visibility an administrator gave the post while editing its text', async () => {
    const p = (await s.post('/api/posts', postInput({ title: 'Promoted' }), users.basic.token)).body;
    await s.put(`/api/posts/${p.id}/visibility`, { visibility: 'paid-tier-2' }, users.admin.token);
    const edit = await s.put(
      `/api/posts/${p.id}`,
      { title: 'Promoted, edited', visibility: 'paid-tier-2' },
      users.basic.token,
    );
    expect(edit.status).toBe(200);
    expect(edit.body).toMatchObject({ title: 'Promoted, edited', visibility: 'paid-tier-2' });
  });
});

describe('excerpts in list responses', () => {
  it('are plain text with hyphens, ranges and compounds intact', async () => {
    const content = [
      '## Loss prevention for a 12-store chain',
      '',
      'Shrinkage costs **3-10% of revenue**; <img src=x onerror=alert(1)>on-site audits cut it.',
      '',
      '- [Benchmarks](https://example.com/bench) for mid-market retailers',
      '',
      '```js',
      'const secret = 1;',
      '```',
    ].join('\n');
    const p = (
      await s.post(
        '/api/posts',
        postInput({ title: 'Excerpt zebu', summary: '', content }),
        users.basic.token,
      )
    ).body;
    const expected =
      'Loss prevention for a 12-store chain. Shrinkage costs 3-10% of revenue; on-site audits cut it. Benchmarks for…';
    expect(p.excerpt).toBe(expected);
    const list = await s.get('/api/posts?limit=100');
    const listed = list.body.find((post: { id: number }) => post.id === p.id);
    expect(listed.excerpt).toBe(expected);
    const mine = (await s.get('/api/posts/my', users.basic.token)).body.find(
      (post: { id: number }) => post.id === p.id,
    );
    expect(mine.excerpt).toBe(expected);
    for (const text of [listed.excerpt, mine.excerpt]) {
      expect(text).not.toMatch(/[<>*#`[\]]|onerror|https:/);
    }
  });

  it('come from the summary when there is one, stripped the same way', async () => {
    const p = (
      await s.post(
        '/api/posts',
        postInput({ summary: 'A *well-known* <b>B2B</b> risk: 5-7 days', content: 'Body text' }),
        users.basic.token,
      )
    ).body;
    expect(p.excerpt).toBe('A well-known B2B risk: 5-7 days');
    const edited = await s.put(
      `/api/posts/${p.id}`,
      { summary: '', content: 'New `on-call` body' },
      users.basic.token,
    );
    expect(edited.body.excerpt).toBe('New on-call body');
  });

  it('are recomputed at startup where a migration marked them stale (NULL)', async () => {
    const p = (
      await s.post('/api/posts', postInput({ summary: 'Cross-border 2-3 week delays' }), users.basic.token)
    ).body;
    await s.sql.run('UPDATE posts SET excerpt = NULL WHERE id = ?', [p.id]);
    await new PostService(s.sql).init();
    const excerpt = await s.sql.value('SELECT excerpt FROM posts WHERE id = ?', [p.id]);
    expect(excerpt).toBe('Cross-border 2-3 week delays');
  });
});

import { openableVisibilities, type Roles } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postInput, startTestServer, type TestServer, type TestUser } from './helpers';

/**
 * Tag, category and report counts are kept in tables on write (migration 7). After every kind of write
 * they must equal what a GROUP BY over the posts says right now, for every tier.
 */
let s: TestServer;
let admin: TestUser;
let member: TestUser;

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.user(['admin'], 'counts-admin');
  member = await s.user([], 'counts-member');
});
afterAll(() => s.close());

/** `IN (?, ?, …)` over the visibilities these roles may open (never empty: a guest opens public). */
const openIn = (roles: Roles) => {
  const open = openableVisibilities(roles);
  return { sql: `IN (${open.map(() => '?').join(', ')})`, values: [...open] };
};

/** The counts computed from the posts themselves, to compare with the stored ones. */
function fresh(kind: 'tag' | 'category', roles: Roles) {
  const open = openIn(roles);
  return s.sql.all(
    `SELECT t.name AS name, COUNT(*) AS count FROM post_terms t JOIN posts p ON p.id = t.post_id
     WHERE t.kind = ? AND p.status = 'published' AND p.visibility ${open.sql}
     GROUP BY t.name ORDER BY count DESC, t.name`,
    [kind, ...open.values],
  );
}

async function freshPublished(roles: Roles): Promise<number> {
  const open = openIn(roles);
  return (await s.sql.value<number>(
    `SELECT COUNT(*) FROM posts WHERE status = 'published' AND visibility ${open.sql}`,
    open.values,
  ))!;
}

async function expectCountsMatch() {
  for (const [token, roles] of [
    [null, null],
    [member.token, []],
    [admin.token, ['admin']],
  ] as const) {
    const tags = await s.get('/api/posts/tags', token);
    const categories = await s.get('/api/posts/categories', token);
    expect(tags.status).toBe(200);
    expect(tags.body).toEqual(await fresh('tag', roles));
    expect(categories.body).toEqual(await fresh('category', roles));
    const report = await s.get('/api/report', token);
    expect(report.body.published).toBe(await freshPublished(roles));
  }
}

describe('tag and category counts follow every write', () => {
  it('create, publish, change visibility, retag, delete', async () => {
    await expectCountsMatch();
    const draft = await s.post(
      '/api/posts',
      postInput({ status: 'draft', tags: ['risk', 'supply'], categories: ['Ops'] }),
      member.token,
    );
    const pub = await s.post(
      '/api/posts',
      postInput({ tags: ['risk'], categories: ['Ops', 'Finance'], visibility: 'members_only' }),
      member.token,
    );
    const secret = await s.post(
      '/api/posts',
      postInput({ tags: ['risk', 'secret'], categories: ['Ops'], visibility: 'private' }),
      admin.token,
    );
    expect([draft.status, pub.status, secret.status]).toEqual([201, 201, 201]);
    await expectCountsMatch();
    // A guest sees no members' or private terms; a member sees members' ones.
    expect((await s.get('/api/posts/tags')).body).toEqual([]);
    expect((await s.get('/api/posts/tags', member.token)).body).toEqual([{ name: 'risk', count: 1 }]);

    expect((await s.put(`/api/posts/${draft.body.id}/publish`, undefined, member.token)).status).toBe(200);
    await expectCountsMatch();
    expect((await s.get('/api/posts/tags', member.token)).body).toEqual([
      { name: 'risk', count: 2 },
      { name: 'supply', count: 1 },
    ]);

    const vis = await s.put(`/api/posts/${pub.body.id}/visibility`, { visibility: 'public' }, member.token);
    expect(vis.status).toBe(200);
    await expectCountsMatch();
    expect((await s.get('/api/posts/categories')).body).toEqual([
      { name: 'Ops', count: 2 },
      { name: 'Finance', count: 1 },
    ]);

    const edit = await s.put(
      `/api/posts/${pub.body.id}`,
      { tags: ['supply'], categories: ['Ops'], status: 'published' },
      member.token,
    );
    expect(edit.status).toBe(200);
    await expectCountsMatch();

    const unpublish = await s.put(`/api/posts/${draft.body.id}`, { status: 'draft' }, member.token);
    expect(unpublish.status).toBe(200);
    await expectCountsMatch();

    for (const p of [draft, pub, secret]) {
      expect((await s.del(`/api/posts/${p.body.id}`, admin.token)).status).toBe(200);
      await expectCountsMatch();
    }
    expect((await s.get('/api/posts/tags', admin.token)).body).toEqual([]);
    expect(await s.sql.value('SELECT COUNT(*) FROM term_counts')).toBe(0);
    expect(await s.sql.value('SELECT COUNT(*) FROM post_counts')).toBe(0);
  });
});

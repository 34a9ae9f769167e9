import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postInput, startTestServer, type TestServer, type TestUser } from './helpers';

/**
 * Lists send each card from its stored JSON (migration 9; its counts and author since migration 18) with the
 * views and the caller's like added per read. Whatever is written, a card in a list must say what the single
 * read of the same post says, and its counts must be what was done.
 */
let s: TestServer;
let author: TestUser;
let reader: TestUser;
let admin: TestUser;

beforeAll(async () => {
  s = await startTestServer({ listCacheSize: 0 });
  author = await s.user([], 'cardauthor');
  reader = await s.user(['paid-tier-1'], 'cardreader');
  admin = await s.user(['admin'], 'cardadmin');
});
afterAll(() => s.close());

/** The single read as a list would show it: without the content, read as a prefetch (no view counted). */
async function single(id: number, token: string) {
  const r = await s.req('GET', `/api/posts/${id}`, { token, headers: { 'Sec-Purpose': 'prefetch' } });
  expect(r.status).toBe(200);
  const { content, ...card } = r.body;
  expect(typeof content).toBe('string');
  return card;
}

async function listed(id: number, token: string, path = '/api/posts?limit=100') {
  const r = await s.get(path, token);
  expect(r.status, path).toBe(200);
  return (r.body as { id: number }[]).find((p) => p.id === id);
}

describe('a card in a list says what the single read says', () => {
  it('after a create, a like, a comment, a visit, an edit, a visibility change and a renamed author', async () => {
    const created = await s.post(
      '/api/posts',
      postInput({ title: 'Stored card', summary: 'First summary', tags: ['alpha'], categories: ['Markets'] }),
      author.token,
    );
    expect(created.status).toBe(201);
    const id = created.body.id as number;
    const same = async () => expect(await listed(id, reader.token)).toEqual(await single(id, reader.token));

    await same();
    expect((await s.post(`/api/posts/${id}/like`, undefined, reader.token)).status).toBe(200);
    await s.post(`/api/posts/${id}/comments`, { content: 'A first comment' }, reader.token);
    await s.get(`/api/posts/${id}`, reader.token); // a counted visit
    await same();
    expect(await listed(id, reader.token)).toMatchObject({
      likes: 1,
      liked: true,
      comment_count: 1,
      views: 1,
    });
    // Another member sees the same card, not liked by them.
    expect(await listed(id, author.token)).toMatchObject({ likes: 1, liked: false });
    // Counts go down as well as up: an unlike, a comment deleted, a like by someone else.
    expect((await s.post(`/api/posts/${id}/like`, undefined, reader.token)).status).toBe(200);
    const second = await s.post(`/api/posts/${id}/comments`, { content: 'A second comment' }, reader.token);
    expect(second.status).toBe(201);
    expect((await s.req('DELETE', `/api/comments/${second.body.id}`, { token: reader.token })).status).toBe(
      200,
    );
    expect((await s.post(`/api/posts/${id}/like`, undefined, admin.token)).status).toBe(200);
    await same();
    expect(await listed(id, reader.token)).toMatchObject({ likes: 1, liked: false, comment_count: 1 });
    expect(await listed(id, admin.token)).toMatchObject({ likes: 1, liked: true, comment_count: 1 });

    const edited = await s.put(
      `/api/posts/${id}`,
      {
        title: 'Stored card, edited',
        summary: 'Second summary',
        tags: ['beta', 'gamma'],
        categories: ['Strategy'],
      },
      author.token,
    );
    expect(edited.status).toBe(200);
    await same();
    expect(await listed(id, reader.token)).toMatchObject({
      title: 'Stored card, edited',
      summary: 'Second summary',
      excerpt: 'Second summary',
      tags: ['beta', 'gamma'],
      categories: ['Strategy'],
    });

    expect(
      (await s.put(`/api/posts/${id}/visibility`, { visibility: 'members_only' }, author.token)).status,
    ).toBe(200);
    await same();
    expect(await listed(id, reader.token)).toMatchObject({ visibility: 'members_only' });

    const renamed = await s.put(
      '/api/profile',
      {
        name: { first: 'Renamed', last: 'Author' },
        email: author.email,
        address: { street: 'Main Street 1', city: '', postal_code: '', country: '' },
      },
      author.token,
    );
    expect(renamed.status).toBe(200);
    await same();
    expect(await listed(id, reader.token)).toMatchObject({ author: { name: 'Renamed Author' } });
    // Posts carry their author's name (migration 17): every list that shows the card says the new one.
    expect(await listed(id, author.token, '/api/posts/my?limit=100')).toMatchObject({
      author: { name: 'Renamed Author' },
    });
    expect(await listed(id, reader.token, '/api/posts/search?q=stored')).toMatchObject({
      author: { name: 'Renamed Author' },
    });
  });

  it('a draft published later, in My Research and in search', async () => {
    const draft = await s.post(
      '/api/posts',
      postInput({ title: 'Quetzal draft', status: 'draft' }),
      author.token,
    );
    const id = draft.body.id as number;
    expect(await listed(id, author.token, '/api/posts/my?limit=100')).toEqual(await single(id, author.token));
    expect((await s.post(`/api/posts/${id}/publish`, undefined, author.token)).status).toBe(200);
    const published = await single(id, author.token);
    expect(published.status).toBe('published');
    expect(published.published_at).toEqual(expect.any(String));
    expect(await listed(id, author.token, '/api/posts/my?limit=100')).toEqual(published);
    expect(await listed(id, author.token, '/api/posts/search?q=quetzal')).toEqual(published);
    expect(await listed(id, admin.token, '/api/posts?status=published&limit=100')).toEqual(
      await single(id, admin.token),
    );
  });

  it('a teaser in a list carries only a teaser, like the single read of a locked post', async () => {
    const premium = await s.post(
      '/api/posts',
      postInput({ title: 'Premium card', visibility: 'paid-tier-2', tags: ['secret-tag'] }),
      admin.token,
    );
    const id = premium.body.id as number;
    const teaser = await listed(id, reader.token, '/api/posts?teasers=1&limit=100');
    const locked = await s.get(`/api/posts/${id}`, reader.token);
    expect(teaser).toEqual(locked.body);
    expect(teaser).toMatchObject({ locked: true, title: 'Premium card' });
    for (const hidden of ['tags', 'excerpt', 'views', 'likes', 'content'])
      expect(teaser).not.toHaveProperty(hidden);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postInput, startTestServer, type TestServer, type TestUser } from './helpers';

/**
 * Search answers are kept per query and visibility set until the next write (services/search-cache.ts,
 * issue 36). What a caller gets must be exactly what the search computes: the same ranking for a rare word
 * as without the cache, each caller's own posts and likes, and nothing from before a write.
 */
type Item = { id: number; liked?: boolean; locked?: boolean };
const ids = (body: Item[]) => body.map((p) => p.id);

let cached: TestServer;
let uncached: TestServer;
let author: TestUser;
let reader: TestUser;
let other: TestUser;

beforeAll(async () => {
  cached = await startTestServer();
  uncached = await startTestServer({ searchCacheSize: 0 });
  author = await cached.user([], 'cacheauthor');
  reader = await cached.user([], 'cachereader');
  other = await cached.user([], 'cacheother');
});
afterAll(async () => {
  await cached.close();
  await uncached.close();
});

/** The same posts on both servers, in the same order: a rare word in titles, summaries and bodies. */
async function writeBoth(posts: Record<string, unknown>[]) {
  const uncachedAuthor = await uncached.user([], 'cacheauthor');
  for (const p of posts) {
    expect((await cached.post('/api/posts', postInput(p), author.token)).status).toBe(201);
    expect((await uncached.post('/api/posts', postInput(p), uncachedAuthor.token)).status).toBe(201);
  }
}

describe('search cache', () => {
  it('ranks a rare word exactly as the search without the cache, first and later pages', async () => {
    await writeBoth([
      { title: 'Field notes', content: 'a wombat crossed the road, another wombat waited' },
      { title: 'Wombat census', summary: 'counting wombat burrows' },
      { title: 'Market note', summary: 'the wombat index fell' },
      { title: 'Wombat', content: 'wombat' },
      { title: 'Weekly', content: 'nothing about it but the word wombat once' },
    ]);
    for (const path of ['/api/posts/search?q=wombat', '/api/posts/search?q=womb&limit=2']) {
      const want = await uncached.get(path, null);
      const first = await cached.get(path, reader.token);
      const again = await cached.get(path, reader.token);
      expect(ids(first.body), path).toEqual(ids(want.body));
      expect(again.body, path).toEqual(first.body);
      expect(again.headers.get('x-next-cursor'), path).toBe(first.headers.get('x-next-cursor'));
      const next = first.headers.get('x-next-cursor');
      if (next) {
        const page2 = await cached.get(`${path}&cursor=${encodeURIComponent(next)}`, reader.token);
        const want2 = await uncached.get(
          `${path}&cursor=${encodeURIComponent(want.headers.get('x-next-cursor')!)}`,
          null,
        );
        expect(ids(page2.body), `${path} page 2`).toEqual(ids(want2.body));
      }
    }
  });

  it('shows a post written after an answer was kept, at its rank', async () => {
    const before = await cached.get('/api/posts/search?q=wombat', reader.token);
    const fresh = await cached.post('/api/posts', postInput({ title: 'Wombat wombat wombat' }), author.token);
    const after = await cached.get('/api/posts/search?q=wombat', reader.token);
    expect(ids(after.body)).not.toEqual(ids(before.body));
    expect(ids(after.body)[0]).toBe(fresh.body.id);
  });

  it("keeps a caller's likes and own drafts theirs, and a write by another connection empties it", async () => {
    const draft = await cached.post(
      '/api/posts',
      postInput({ title: 'Wombat draft', status: 'draft', visibility: 'members_only' }),
      other.token,
    );
    const first = (await cached.get('/api/posts/search?q=wombat', reader.token)).body as Item[];
    const liked = first[1]!.id;
    expect((await cached.post(`/api/posts/${liked}/like`, {}, other.token)).status).toBe(200);
    // `other` wrote a draft and liked a post: their answer is theirs.
    const theirs = (await cached.get('/api/posts/search?q=wombat', other.token)).body as Item[];
    expect(ids(theirs)).toContain(draft.body.id);
    expect(theirs.find((p) => p.id === liked)?.liked).toBe(true);
    // The reader, same tier, sees neither the draft nor the like as theirs, before and after other callers.
    for (let i = 0; i < 2; i++) {
      const mine = (await cached.get('/api/posts/search?q=wombat', reader.token)).body as Item[];
      expect(ids(mine)).not.toContain(draft.body.id);
      expect(mine.find((p) => p.id === liked)?.liked).toBe(false);
    }
    // Another instance (or the CLI) retitles a post: the next answer is computed again.
    const row = (await cached.get('/api/posts/search?q=wombat', reader.token)).body as Item[];
    const gone = row.at(-1)!.id;
    const db = cached.ctx.sql;
    if (db.sqlite) {
      const Database = (await import('better-sqlite3')).default;
      const elsewhere = new Database(cached.ctx.config.dbPath);
      elsewhere
        .prepare("UPDATE posts SET title = 'Retitled', content = 'x', summary = 'y' WHERE id = ?")
        .run(gone);
      elsewhere.close();
    } else {
      await db.run("UPDATE posts SET title = 'Retitled', content = 'x', summary = 'y' WHERE id = ?", [gone]);
    }
    const after = (await cached.get('/api/posts/search?q=wombat', reader.token)).body as Item[];
    expect(ids(after)).not.toContain(gone);
  });
});

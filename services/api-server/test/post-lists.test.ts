import { NEXT_CURSOR_HEADER } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postInput, type Res, ROLES, startTestServer, type TestServer, type TestUser } from './helpers';

/** Issue 17: lists and search answer cards, search is ranked FTS5, pages go on with a cursor. */
let s: TestServer;
let author: TestUser;
const tokens: Record<string, string | null> = {};

beforeAll(async () => {
  s = await startTestServer();
  author = await s.user(['admin'], 'listauthor');
  for (const vis of ['public', 'members_only', 'paid-tier-1', 'paid-tier-2', 'private']) {
    await s.post(
      '/api/posts',
      postInput({
        title: `Card ${vis} pangolin`,
        content: `Hiddenbody${vis.replace(/\W/g, '')} pangolin`,
        visibility: vis,
      }),
      author.token,
    );
  }
  await s.post('/api/posts', postInput({ title: 'Card draft pangolin', status: 'draft' }), author.token);
  for (const [name, roles] of Object.entries(ROLES)) {
    tokens[name] = roles === null ? null : (await s.user(roles, `l${name.replace(' ', '')}`)).token;
    // Something of their own for My Research: a draft whose body a card must not carry either.
    if (tokens[name]) {
      await s.post('/api/posts', postInput({ title: `Own ${name}`, status: 'draft' }), tokens[name]);
    }
  }
});
afterAll(() => s.close());

type Item = { id: number; title: string; locked?: boolean; content?: string };

describe.each(Object.keys(ROLES))('cards for %s', (name) => {
  it('no list, My Research or search item has a content key', async () => {
    const paths = ['/api/posts?teasers=1&limit=100', '/api/posts/search?q=pangolin&teasers=1&limit=100'];
    if (tokens[name]) paths.push('/api/posts/my?limit=100');
    for (const path of paths) {
      const r = await s.get(path, tokens[name]);
      expect(r.status, path).toBe(200);
      expect(r.body.length, path).toBeGreaterThan(0);
      for (const item of r.body as Item[])
        expect(item, `${path} ${item.title}`).not.toHaveProperty('content');
    }
  });
});

describe('search', () => {
  it('ranks a title hit above a summary hit above a body hit', async () => {
    const body = await s.post(
      '/api/posts',
      postInput({ title: 'B', content: 'about the okapi' }),
      author.token,
    );
    const summary = await s.post(
      '/api/posts',
      postInput({ title: 'S', summary: 'okapi notes' }),
      author.token,
    );
    const title = await s.post('/api/posts', postInput({ title: 'Okapi census' }), author.token);
    const r = await s.get('/api/posts/search?q=okapi');
    expect(r.body.map((p: Item) => p.id)).toEqual([title.body.id, summary.body.id, body.body.id]);
  });

  it('matches the last word as a prefix, every word as a plain word', async () => {
    expect((await s.get('/api/posts/search?q=okap')).body).toHaveLength(3);
    expect((await s.get('/api/posts/search?q=okap%20census')).body).toHaveLength(0); // only the last word
    expect((await s.get('/api/posts/search?q=okapi%20cens')).body.map((p: Item) => p.title)).toEqual([
      'Okapi census',
    ]);
  });

  it('never shows private posts or others drafts, and a locked hit is a teaser found by its title', async () => {
    const r = await s.get('/api/posts/search?q=pangolin&teasers=1&limit=100', tokens.basic);
    const titles = (r.body as Item[]).map((p) => p.title).sort();
    expect(titles).toEqual([
      'Card members_only pangolin',
      'Card paid-tier-1 pangolin',
      'Card paid-tier-2 pangolin',
      'Card public pangolin',
    ]);
    expect(JSON.stringify(r.body)).not.toMatch(/Hiddenbody(paidtier|private)/);
    // A body word of a locked post finds nothing above the tier.
    const probe = await s.get('/api/posts/search?q=Hiddenbodypaidtier2&teasers=1', tokens.basic);
    expect(probe.body).toEqual([]);
  });

  const HOSTILE = [
    '"',
    '"unclosed',
    '*',
    'pangolin*',
    '-pangolin',
    'NOT pangolin',
    'pangolin OR okapi',
    'pangolin AND',
    'NEAR(pangolin okapi, 2)',
    '(pangolin',
    'title:pangolin',
    '{title}: x',
    '^pangolin',
    '🦔🔒',
    'pangolin 🦔',
    "'; DROP TABLE posts; --",
    '%_\\',
    'a'.repeat(200),
    'a '.repeat(100),
    'x'.repeat(10_000),
  ];
  it.each(HOSTILE.map((q) => [q.slice(0, 24), q]))(
    'answers %j with 200 or a 400 error, never a 5xx',
    async (_, q) => {
      for (const path of ['/api/posts/search', '/api/posts']) {
        const r = await s.get(`${path}?q=${encodeURIComponent(q)}&teasers=1`, tokens.basic);
        expect([200, 400], `${path} ${q.slice(0, 20)}`).toContain(r.status);
        if (r.status === 400) expect(r.body.error).toBeTruthy();
        else expect(Array.isArray(r.body)).toBe(true);
      }
    },
  );

  it('says how long search text may be', async () => {
    const r = await s.get(`/api/posts/search?q=${'x'.repeat(201)}`);
    expect(r).toMatchObject({ status: 400, body: { error: 'Search text is at most 200 characters' } });
  });
});

/** Every page from the first on, inserting a post between pages; the ids in the order seen. */
async function pageThrough(path: string, token: string | null, between: () => Promise<unknown>) {
  const seen: number[] = [];
  let cursor: string | null = null;
  for (let guard = 0; guard < 50; guard++) {
    const sep = path.includes('?') ? '&' : '?';
    const r: Res = await s.get(`${path}${cursor ? `${sep}cursor=${encodeURIComponent(cursor)}` : ''}`, token);
    expect(r.status).toBe(200);
    expect(r.headers.get('access-control-expose-headers')).toContain(NEXT_CURSOR_HEADER);
    seen.push(...(r.body as Item[]).map((p) => p.id));
    cursor = r.headers.get(NEXT_CURSOR_HEADER);
    if (!cursor) return seen;
    await between();
  }
  throw new Error('no last page');
}

describe('cursor pages', () => {
  let pager: TestUser;
  const before: number[] = [];
  beforeAll(async () => {
    pager = await s.user([], 'pager');
    for (let i = 0; i < 12; i++) {
      before.push(
        (await s.post('/api/posts', postInput({ title: `Page aardvark ${i}` }), pager.token)).body.id,
      );
    }
  });
  const insert = () => s.post('/api/posts', postInput({ title: 'Late aardvark' }), pager.token);

  it.each([
    ['list', '/api/posts?limit=5&tag=alpha'],
    ['search', '/api/posts/search?q=aardvark&limit=5'],
    ['My Research', '/api/posts/my?limit=5'],
  ])('%s: every post once, none skipped or repeated, while posts arrive', async (_name, path) => {
    const existing = (await s.get(path.replace('limit=5', 'limit=100'), pager.token)).body.map(
      (p: Item) => p.id,
    );
    const seen = await pageThrough(path, pager.token, insert);
    expect(new Set(seen).size).toBe(seen.length);
    for (const id of existing) expect(seen).toContain(id);
    for (const id of before) expect(seen).toContain(id);
  });

  it('the last page has no X-Next-Cursor', async () => {
    const r = await s.get('/api/posts/search?q=zzzznothing');
    expect(r.status).toBe(200);
    expect(r.headers.get(NEXT_CURSOR_HEADER)).toBeNull();
  });

  it('an invalid cursor, or one of another list, is a 400 with an error', async () => {
    const listCursor = (await s.get('/api/posts?limit=1')).headers.get(NEXT_CURSOR_HEADER)!;
    const bad = ['garbage!', 'e30', Buffer.from('{"k":"p","at":1}').toString('base64url'), 'x'.repeat(300)];
    for (const cursor of bad) {
      const r = await s.get(`/api/posts?cursor=${encodeURIComponent(cursor)}`);
      expect(r.status, cursor).toBe(400);
      expect(r.body.error, cursor).toMatch(/cursor/i);
    }
    const mixed = await s.get(`/api/posts/search?q=aardvark&cursor=${listCursor}`);
    expect(mixed).toMatchObject({
      status: 400,
      body: { error: 'Invalid cursor: load the first page again' },
    });
  });

  it('offset still works up to 10,000 and is a 400 beyond, or with a cursor', async () => {
    expect((await s.get('/api/posts?offset=10000')).status).toBe(200);
    const far = await s.get('/api/posts?offset=10001');
    expect(far.status).toBe(400);
    expect(far.body.error).toMatch(/offset.*cursor/);
    const cursor = (await s.get('/api/posts?limit=1')).headers.get(NEXT_CURSOR_HEADER)!;
    expect((await s.get(`/api/posts?offset=1&cursor=${cursor}`)).status).toBe(400);
  });
});

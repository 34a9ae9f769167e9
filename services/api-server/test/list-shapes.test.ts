import type { Visibility } from '@app/contracts';
import { canOpen, VISIBILITIES } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postInput, ROLES, startTestServer, type TestServer, type TestUser } from './helpers';

/**
 * Lists and search write their SQL for each kind of caller and query (services/access-sql.ts). Every
 * combination of role, teasers, visibility filter and tag / category / type filter is checked here against
 * a model of the rule written in plain TypeScript from contracts' canOpen.
 */
interface Known {
  id: number;
  authorId: number;
  visibility: Visibility;
  status: 'published' | 'draft';
  tag: string;
  category: string;
  type: string;
}

let s: TestServer;
const readers: Record<string, TestUser | null> = {};
const known: Known[] = [];

beforeAll(async () => {
  s = await startTestServer({ listCacheSize: 0 });
  const admin = await s.user(['admin'], 'shapeadmin');
  for (const [name, roles] of Object.entries(ROLES)) {
    readers[name] = roles === null ? null : await s.user(roles, `shape${name.replace(' ', '')}`);
  }
  const write = async (author: TestUser, i: number, visibility: Visibility, status: Known['status']) => {
    const tag = i % 2 ? 'odd' : 'even';
    const category = i % 3 ? 'Markets' : 'Strategy';
    const type = i % 2 ? 'osint' : 'research_report';
    const r = await s.post(
      '/api/posts',
      postInput({
        title: `Shape ${i} okapi`,
        visibility,
        status,
        tags: [tag],
        categories: [category],
        content_type: type,
      }),
      author.token,
    );
    expect(r.status).toBe(201);
    known.push({ id: r.body.id, authorId: author.id, visibility, status, tag, category, type });
  };
  let i = 0;
  for (const vis of VISIBILITIES.values) {
    for (let n = 0; n < 2; n++) await write(admin, i++, vis, 'published');
  }
  await write(admin, i++, 'public', 'draft');
  // Each member has a published post of their own above the tier a basic member opens, and a draft.
  for (const reader of Object.values(readers)) {
    if (!reader) continue;
    await write(reader, i++, 'members_only', 'published');
    await write(reader, i++, 'public', 'draft');
  }
});
afterAll(() => s.close());

type Filters = { vis?: Visibility[]; tag?: string; category?: string; type?: string; teasers?: boolean };

/** The rule, as a model: what a list of published posts holds for this reader, and which rows are teasers. */
function expected(
  reader: TestUser | null,
  roles: string[] | null,
  f: Filters,
): { id: number; locked: boolean }[] {
  const out: { id: number; locked: boolean }[] = [];
  for (const p of known) {
    if (p.status !== 'published') continue;
    if (f.tag && p.tag !== f.tag) continue;
    if (f.category && p.category !== f.category) continue;
    if (f.type && p.type !== f.type) continue;
    // (An administrator's bypass in lists reaches others' drafts only; canOpen already opens every tier.)
    const visible = p.authorId === reader?.id || canOpen(p.visibility, roles as never);
    const listed = visible && (!f.vis || f.vis.includes(p.visibility));
    const teaser = f.teasers === true && !visible && p.visibility !== 'private';
    if (listed || teaser) out.push({ id: p.id, locked: !visible });
  }
  return out.sort((a, b) => b.id - a.id);
}

const FILTERS: Filters[] = [];
for (const teasers of [false, true]) {
  for (const vis of [undefined, ['public'], ['members_only', 'paid-tier-1']] as (
    | Visibility[]
    | undefined
  )[]) {
    for (const extra of [{}, { tag: 'odd' }, { category: 'Strategy' }, { type: 'osint' }]) {
      FILTERS.push({ teasers, vis, ...extra });
    }
  }
}

function query(f: Filters): string {
  const qs = new URLSearchParams({ status: 'published', limit: '100' });
  for (const v of f.vis ?? []) qs.append('visibility', v);
  if (f.tag) qs.set('tag', f.tag);
  if (f.category) qs.set('category', f.category);
  if (f.type) qs.set('content_type', f.type);
  if (f.teasers) qs.set('teasers', '1');
  return qs.toString();
}

describe.each(Object.keys(ROLES))('list shapes for %s', (name) => {
  it('every combination of teasers and filters lists exactly what the rule says', async () => {
    const reader = readers[name] ?? null;
    for (const f of FILTERS) {
      const r = await s.get(`/api/posts?${query(f)}`, reader?.token);
      expect(r.status, query(f)).toBe(200);
      const got = (r.body as { id: number; locked?: boolean }[])
        .filter((p) => known.some((k) => k.id === p.id))
        .map((p) => ({ id: p.id, locked: p.locked === true }));
      expect(got, query(f)).toEqual(expected(reader, ROLES[name]!, f));
    }
  });

  it('search under the same filters finds the same posts', async () => {
    const reader = readers[name] ?? null;
    for (const f of FILTERS) {
      const r = await s.get(`/api/posts/search?q=okapi&${query(f)}`, reader?.token);
      expect(r.status, query(f)).toBe(200);
      const got = (r.body as { id: number; locked?: boolean }[])
        .map((p) => ({ id: p.id, locked: p.locked === true }))
        .sort((a, b) => b.id - a.id);
      // Search also finds the caller's own drafts (services/search.ts).
      const own = known
        .filter((k) => k.status === 'draft' && reader && k.authorId === reader.id)
        .filter((k) => (!f.tag || k.tag === f.tag) && (!f.category || k.category === f.category))
        .filter((k) => (!f.type || k.type === f.type) && (!f.vis || f.vis.includes(k.visibility)))
        .map((k) => ({ id: k.id, locked: false }));
      const want = [...expected(reader, ROLES[name]!, f), ...own].sort((a, b) => b.id - a.id);
      expect(got, query(f)).toEqual(want);
    }
  });
});

describe('a lapsed subscriber', () => {
  it('lists their own posts above their tier as their own, never as teasers, under every filter', async () => {
    // Published while Premium Pro, then the role lapsed: their posts are theirs (visible), not teasers.
    const lapsed = await s.user(['paid-tier-2'], 'shapelapsed');
    for (const [i, vis] of (['paid-tier-1', 'paid-tier-2', 'members_only'] as Visibility[]).entries()) {
      const r = await s.post(
        '/api/posts',
        postInput({ title: `Lapsed ${i} okapi`, visibility: vis, status: 'published', tags: ['odd'] }),
        lapsed.token,
      );
      expect(r.status).toBe(201);
      known.push({
        id: r.body.id,
        authorId: lapsed.id,
        visibility: vis,
        status: 'published',
        tag: 'odd',
        category: 'Markets',
        type: 'research_report',
      });
    }
    await s.ctx.accounts.revoke(lapsed.id, 'paid-tier-2');
    for (const f of FILTERS) {
      const r = await s.get(`/api/posts?${query(f)}`, lapsed.token);
      expect(r.status, query(f)).toBe(200);
      const got = (r.body as { id: number; locked?: boolean }[])
        .filter((p) => known.some((k) => k.id === p.id))
        .map((p) => ({ id: p.id, locked: p.locked === true }));
      expect(got, query(f)).toEqual(expected(lapsed, [], f));
    }
  });
});

import type { Visibility } from '@app/contracts';
import { VISIBILITIES } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postInput, ROLES, startTestServer, type TestServer } from './helpers';

/**
 * Locked teasers (issue 18 item 4): a published post above the caller's tier is sent as a teaser — title,
 * type, summary, the tier that opens it — and its content never leaves the server, in any list or read.
 */
const OPENS: Record<string, Visibility[]> = {
  guest: ['public'],
  basic: ['public', 'members_only'],
  premium: ['public', 'members_only', 'paid-tier-1'],
  'premium pro': ['public', 'members_only', 'paid-tier-1', 'paid-tier-2'],
  admin: [...VISIBILITIES.values],
};
const REQUIRED_TIER: Record<string, string> = {
  members_only: 'basic',
  'paid-tier-1': 'premium',
  'paid-tier-2': 'premium_pro',
};
const TEASER_KEYS = [
  '_id',
  'author',
  'content_type',
  'created_at',
  'id',
  'locked',
  'published_at',
  'required_tier',
  'slug',
  'status',
  'summary',
  'title',
  'visibility',
].sort();

// The body marker opens the content, so an excerpt cut from it would carry it too.
const body = (vis: string) => `Secretbody${vis.replace(/\W/g, '')} walrus findings. More analysis follows.`;
const bodyMarker = (vis: string) => `Secretbody${vis.replace(/\W/g, '')}`;

let s: TestServer;
const tokens: Record<string, string | null> = {};
const ids = {} as Record<Visibility, number>;
const slugs = {} as Record<Visibility, string>;
let draftId = 0;

beforeAll(async () => {
  s = await startTestServer();
  // An administrator writes them: any author may pick any visibility is not something these tests rely on.
  const author = await s.user(['admin'], 'teaserauthor');
  for (const vis of VISIBILITIES.values) {
    const r = await s.post(
      '/api/posts',
      postInput({
        title: `Teaser ${vis} narwhal`,
        summary: `Summary of ${vis}`,
        content: body(vis),
        visibility: vis,
        content_type: 'market_analysis',
      }),
      author.token,
    );
    ids[vis] = r.body.id;
    slugs[vis] = r.body.slug;
  }
  draftId = (
    await s.post(
      '/api/posts',
      postInput({
        title: 'Teaser draft narwhal',
        content: body('draft'),
        status: 'draft',
        visibility: 'paid-tier-1',
      }),
      author.token,
    )
  ).body.id;
  for (const [name, roles] of Object.entries(ROLES)) {
    tokens[name] = roles === null ? null : (await s.user(roles, name.replace(' ', ''))).token;
  }
});
afterAll(() => s.close());

/** The raw response text, so a test can prove a string is absent from the bytes, not just from a field. */
async function raw(path: string, token: string | null) {
  const res = await fetch(s.url + path, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const text = await res.text();
  return { status: res.status, text, json: JSON.parse(text) };
}

/** A post as the raw JSON lists it: full or teaser. */
interface Listed {
  title: string;
  visibility: string;
  locked?: boolean;
  content?: string;
  excerpt?: string;
}
const ours = (items: Listed[]) => items.filter((p) => p.title.includes('narwhal'));

describe.each(Object.keys(ROLES))('%s', (name) => {
  const token = () => tokens[name] ?? null;
  const opens = () => OPENS[name]!;
  const lockedVis = () => VISIBILITIES.values.filter((vis) => !opens().includes(vis) && vis !== 'private');

  it('a list with teasers=1 has every openable post as a card and every post above the tier as a teaser', async () => {
    const r = await raw('/api/posts?teasers=1&limit=100', token());
    expect(r.status).toBe(200);
    const items = ours(r.json);
    const full = items.filter((p: { locked?: boolean }) => p.locked !== true);
    const teasers = items.filter((p: { locked?: boolean }) => p.locked === true);
    expect(full.map((p: { visibility: string }) => p.visibility).sort()).toEqual([...opens()].sort());
    // A card: the excerpt (here the summary's), never the content (issue 17; the single read has it).
    for (const p of full) {
      expect(p).not.toHaveProperty('content');
      expect(p).toMatchObject({ excerpt: `Summary of ${p.visibility}` });
    }
    expect(teasers.map((p: { visibility: string }) => p.visibility).sort()).toEqual(lockedVis().sort());
    for (const t of teasers) {
      expect(Object.keys(t).sort()).toEqual(TEASER_KEYS);
      expect(t).toMatchObject({
        id: ids[t.visibility as Visibility],
        title: `Teaser ${t.visibility} narwhal`,
        summary: `Summary of ${t.visibility}`,
        content_type: 'market_analysis',
        status: 'published',
        required_tier: REQUIRED_TIER[t.visibility as keyof typeof REQUIRED_TIER],
      });
    }
    // Private posts and drafts are never teased: neither their titles nor their bodies are in the bytes.
    if (name !== 'admin') expect(r.text).not.toContain('Teaser private narwhal');
    expect(r.text).not.toContain('Teaser draft narwhal');
    expect(r.text).not.toContain(bodyMarker('draft'));
    for (const vis of lockedVis()) expect(r.text).not.toContain(bodyMarker(vis));
  });

  it('the SPEC §6 request plus teasers=1: the visibility list picks the open posts, teasers come on top', async () => {
    const r = await raw('/api/posts?status=published&visibility=public&teasers=1&limit=100', token());
    const items = ours(r.json);
    expect(
      items.filter((p: { locked?: boolean }) => !p.locked).map((p: { visibility: string }) => p.visibility),
    ).toEqual(['public']);
    expect(
      items
        .filter((p: { locked?: boolean }) => p.locked)
        .map((p: { visibility: string }) => p.visibility)
        .sort(),
    ).toEqual(lockedVis().sort());
    for (const vis of lockedVis()) expect(r.text).not.toContain(bodyMarker(vis));
  });

  it('a single read by id or slug above the tier is the teaser, with no content; private and drafts are 404', async () => {
    for (const vis of VISIBILITIES.values) {
      for (const path of [`/api/posts/${ids[vis]}`, `/api/posts/${slugs[vis]}`]) {
        const r = await raw(path, token());
        if (opens().includes(vis)) {
          expect(r.status, `${vis} ${path}`).toBe(200);
          expect(r.json.content).toBe(body(vis));
        } else if (vis === 'private') {
          expect(r.status, `${vis} ${path}`).toBe(404);
          expect(r.json).toEqual({ error: 'Post not found' });
        } else {
          expect(r.status, `${vis} ${path}`).toBe(200);
          expect(Object.keys(r.json).sort()).toEqual(TEASER_KEYS);
          expect(r.json).toMatchObject({ locked: true, visibility: vis, required_tier: REQUIRED_TIER[vis] });
          expect(r.text).not.toContain(bodyMarker(vis));
        }
      }
    }
    const draft = await raw(`/api/posts/${draftId}`, token());
    expect(draft.status).toBe(name === 'admin' ? 200 : 404);
    if (name !== 'admin') expect(draft.text).not.toContain(bodyMarker('draft'));
  });

  it('search with teasers=1 finds locked posts by title or summary, never by words of their content', async () => {
    const byTitle = await raw('/api/posts/search?q=narwhal&teasers=1&limit=100', token());
    expect(byTitle.status).toBe(200);
    const teased = ours(byTitle.json).filter((p: { locked?: boolean }) => p.locked);
    expect(teased.map((p: { visibility: string }) => p.visibility).sort()).toEqual(lockedVis().sort());
    for (const vis of lockedVis()) expect(byTitle.text).not.toContain(bodyMarker(vis));

    for (const path of ['/api/posts/search?q=walrus&teasers=1', '/api/posts?q=walrus&teasers=1']) {
      const byBody = await raw(path, token());
      const found = ours(byBody.json).map((p: { visibility: string; locked?: boolean }) => p.visibility);
      expect(found.sort(), path).toEqual([...opens()].sort());
    }
  });
});

it('reading a teaser counts no view', async () => {
  const guestRead = await raw(`/api/posts/${ids['paid-tier-2']}`, null);
  expect(guestRead.json.locked).toBe(true);
  const admin = await raw(`/api/posts/${ids['paid-tier-2']}`, tokens.admin!);
  const before = admin.json.views as number;
  await raw(`/api/posts/${ids['paid-tier-2']}`, null);
  await raw(`/api/posts/${ids['paid-tier-2']}`, tokens.basic!);
  const after = await raw(`/api/posts/${ids['paid-tier-2']}`, tokens.admin!);
  expect(after.json.views).toBe(before + 1); // only the admin's own read
});

it('without teasers a list holds only what the caller may open', async () => {
  const r = await raw('/api/posts?limit=100', null);
  expect(ours(r.json).map((p: { visibility: string }) => p.visibility)).toEqual(['public']);
  expect(r.text).not.toContain('Teaser members_only narwhal');
});

it('teasers takes 1 or 0 and says so otherwise', async () => {
  expect((await raw('/api/posts?teasers=true', null)).status).toBe(200);
  expect((await raw('/api/posts?teasers=0', null)).status).toBe(200);
  const bad = await raw('/api/posts?teasers=maybe', null);
  expect(bad.status).toBe(400);
  expect(bad.json).toEqual({ error: 'teasers must be 1 or 0' });
  expect((await raw('/api/posts/search?q=x&teasers=yes', null)).status).toBe(400);
});

it('an author sees their own post above their tier in full, not as a teaser', async () => {
  // Written while Premium Pro, then the role is taken away: the post is now above the author's tier.
  const author = await s.user(['paid-tier-2'], 'ownpro');
  const own = await s.post(
    '/api/posts',
    postInput({ title: 'Own pro narwhal', content: body('own'), visibility: 'paid-tier-2' }),
    author.token,
  );
  s.ctx.accounts.revoke(author.id, 'paid-tier-2');
  const list = await raw('/api/posts?teasers=1&limit=100', author.token);
  const mine = list.json.find((p: { id: number }) => p.id === own.body.id);
  expect(mine.locked).toBeUndefined();
  expect(mine).toMatchObject({ title: 'Own pro narwhal', excerpt: 'Summary text' });
  expect((await raw(`/api/posts/${own.body.id}`, author.token)).json.content).toBe(body('own'));
  const other = await raw('/api/posts?teasers=1&limit=100', tokens.basic!);
  const teased = other.json.find((p: { id: number }) => p.id === own.body.id);
  expect(teased.locked).toBe(true);
  expect(other.text).not.toContain(bodyMarker('own'));
});

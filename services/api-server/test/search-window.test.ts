import { API_PATHS } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RANK_WINDOW } from '../src/services/search';
import { startTestServer, type TestServer } from './helpers';

/**
 * A word in more posts than RANK_WINDOW (issue 17): only the newest RANK_WINDOW matches are ranked, so a
 * search for a very common word costs what a search among RANK_WINDOW posts costs.
 */
let s: TestServer;
const TOTAL = RANK_WINDOW + 150;
const OLD_TITLE = 'Ubiquitous ubiquitous ubiquitous in the title, the oldest';
const NEW_TITLE = 'Ubiquitous in the title, among the newest';

beforeAll(async () => {
  s = await startTestServer();
  const author = await s.user(['admin'], 'bulk');
  await s.sql.transaction(async (tx) => {
    for (let i = 0; i < TOTAL; i += 1) {
      const title = i === 0 ? OLD_TITLE : i === TOTAL - 10 ? NEW_TITLE : `Bulk post ${i}`;
      const at = new Date(Date.UTC(2020, 0, 1) + i * 60_000).toISOString();
      await tx.run(
        `INSERT INTO posts (slug, title, summary, content, excerpt, status, visibility, content_type, author_id,
          published_at, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, 'published', 'public', 'research_report', ?, ?, ?, ?)`,
        [`bulk-${i}`, title, 'Summary', 'A ubiquitous word in every body.', 'Excerpt', author.id, at, at, at],
      );
    }
  });
});
afterAll(() => s.close());

async function everyResult(q: string) {
  const titles: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const url: string = `${API_PATHS.searchPosts}?q=${encodeURIComponent(q)}&limit=50${cursor ? `&cursor=${cursor}` : ''}`;
    const res: { status: number; body: { title: string }[]; headers: Headers } = await s.get(url);
    expect(res.status).toBe(200);
    titles.push(...res.body.map((p) => p.title));
    cursor = res.headers.get('x-next-cursor');
    pages += 1;
  } while (cursor && pages < 100);
  return titles;
}

describe('search ranks at most the newest RANK_WINDOW matches', () => {
  it('a word in every post: the newest RANK_WINDOW are ranked (title first), older ones are not searched', async () => {
    const titles = await everyResult('ubiquitous');
    expect(titles).toHaveLength(RANK_WINDOW);
    expect(new Set(titles).size).toBe(RANK_WINDOW);
    expect(titles[0]).toBe(NEW_TITLE);
    expect(titles).not.toContain(OLD_TITLE);
    expect(titles).not.toContain('Bulk post 100');
  });

  it('a word in fewer posts than the window is ranked whole, however old', async () => {
    const first = await s.get(`${API_PATHS.searchPosts}?q=oldest&limit=10`);
    expect(first.body.map((p: { title: string }) => p.title)).toEqual([OLD_TITLE]);
  });
});

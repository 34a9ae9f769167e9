import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPLORE_SHAPE } from '../src/services/access-sql';
import { PENDING_FROM_SQL } from '../src/services/pending-registrations';
import { listSql, mineSql } from '../src/services/post-model';
import { searchSql } from '../src/services/search';
import { startTestServer, type TestServer } from './helpers';

/** Issue 17: the list and search queries read SQLite's indexes as they were built to (SQLite only). */
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

describe('query plans', () => {
  const plan = (sql: string, params: object | unknown[]) =>
    (s.ctx.sql.sqlite!.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as { detail: string }[])
      .map((r) => r.detail)
      .join('\n');
  const explore = {
    uid: 7,
    admin: 0,
    open: '["public","members_only"]',
    teasers: 1,
    vis: '["public","members_only"]',
    content_type: null,
    tag: null,
    category: null,
    status: 'published',
    c_at: '2026-01-01T00:00:00.000Z',
    c_id: 100,
    limit: 51,
    offset: 0,
  };

  it('the member list Explore sends, and its later pages, read the index in order: no scan, no sort', () => {
    for (const keyset of ['first', 'published'] as const) {
      const p = plan(listSql(keyset, EXPLORE_SHAPE), explore);
      expect(p).toMatch(/SEARCH p USING INDEX idx_posts_status_published/);
      expect(p).not.toMatch(/SCAN p\b|TEMP B-TREE/);
    }
    expect(plan(mineSql(true), explore)).toMatch(/SEARCH p USING INDEX idx_posts_author/);
  });

  it('search checks access from the covering index, not from the posts (and their bodies)', () => {
    const p = plan(searchSql('search', EXPLORE_SHAPE), {
      ...explore,
      match: '"x"*',
      match_ts: '{title summary} : ("x"*)',
      max: 1,
      min: 0,
    });
    expect(p).toMatch(/SCAN posts_fts VIRTUAL TABLE/);
    expect(p).toMatch(/SEARCH p USING COVERING INDEX idx_posts_access/);
  });

  it("an address's pending registrations are read from the partial index, as it is spelled since migration 28", () => {
    const p = plan(PENDING_FROM_SQL, ['198.51.100.7']);
    expect(p).toMatch(/USING (COVERING )?INDEX idx_users_pending_from/);
  });
});

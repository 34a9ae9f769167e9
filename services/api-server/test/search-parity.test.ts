import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, tempDbPath } from './helpers';

/**
 * Issue 12: search on PostgreSQL (tsvector, search-postgres.ts) finds what search on SQLite (FTS5) finds,
 * for every word, whole or as a prefix, with and without teasers. The order may differ: ts_rank is not
 * bm25. Runs with `pnpm test:postgres` only, where both databases are at hand (vitest.config.ts).
 */
let sqlite: TestServer;
let postgres: TestServer;
beforeAll(async () => {
  postgres = await startTestServer({ seedDemo: true });
  sqlite = await startTestServer({ seedDemo: true, dbPath: tempDbPath(), databaseUrl: null });
});
afterAll(async () => {
  await sqlite.close();
  await postgres.close();
});

const found = async (s: TestServer, q: string, teasers: boolean) => {
  const r = await s.get(`/api/posts/search?q=${encodeURIComponent(q)}${teasers ? '&teasers=1' : ''}`);
  expect(r.status).toBe(200);
  return (r.body as { slug: string }[]).map((p) => p.slug).sort();
};

describe('search on PostgreSQL and on SQLite', () => {
  it('finds the same posts for whole words, prefixes, several words and accented text', async () => {
    expect(sqlite.ctx.sql.dialect).toBe('sqlite');
    expect(postgres.ctx.sql.dialect).toBe('postgres');
    let hits = 0;
    for (const q of [
      'cyber',
      'risk',
      'supply chain',
      'ransomware',
      'premium',
      'sme',
      'data',
      'phish',
      'm',
      'café',
      'zzzz',
    ]) {
      for (const teasers of [false, true]) {
        const expected = await found(sqlite, q, teasers);
        expect(await found(postgres, q, teasers), `${q} teasers=${teasers}`).toEqual(expected);
        hits += expected.length;
      }
    }
    expect(hits).toBeGreaterThan(50);
  });
});

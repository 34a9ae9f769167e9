/**
 * EXPLAIN QUERY PLAN of every exported *_SQL query of the post services (list, search, counts), whatever
 * the current code calls them, with plausible values for a basic member.
 */
import type Database from 'better-sqlite3';

const MODULES = ['../src/services/post-model', '../src/services/search', '../src/services/post-stats'];

const VALUES: Record<string, unknown> = {
  uid: 2,
  admin: 0,
  open: '["public","members_only"]',
  vis: '["public","members_only"]',
  teasers: 1,
  status: 'published',
  kind: 'tag',
  q: 'risk',
  match: 'risk',
  limit: 50,
  offset: 0,
};

/** The term counts query as the code before issue 17 ran it (inline in PostReader, so not exported). */
const GROUP_BY_COUNTS = `SELECT t.name AS name, COUNT(*) AS count FROM post_terms t JOIN posts p ON p.id = t.post_id
  WHERE t.kind = @kind AND p.status = 'published' AND p.visibility IN (SELECT value FROM json_each(@open))
  GROUP BY t.name ORDER BY count DESC, t.name`;

export async function printPlans(db: Database.Database) {
  const queries: [string, string][] = [];
  for (const m of MODULES) {
    try {
      const mod = (await import(m)) as Record<string, unknown>;
      for (const [name, sql] of Object.entries(mod)) {
        if (name.endsWith('_SQL') && typeof sql === 'string') queries.push([name, sql]);
      }
    } catch {
      // that module does not exist in this version of the code
    }
  }
  if (!queries.some(([name]) => /TERM|COUNT/.test(name)))
    queries.push(['term counts (GROUP BY)', GROUP_BY_COUNTS]);
  for (const [name, sql] of queries) {
    const params: Record<string, unknown> = {};
    for (const [, p] of sql.matchAll(/@(\w+)/g)) params[p!] = VALUES[p!] ?? null;
    try {
      const plan = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as {
        id: number;
        parent: number;
        detail: string;
      }[];
      console.log(`EXPLAIN QUERY PLAN ${name}:`);
      const depth = new Map<number, number>([[0, 0]]);
      for (const p of plan) {
        const d = (depth.get(p.parent) ?? 0) + 1;
        depth.set(p.id, d);
        console.log(`${'  '.repeat(d)}${p.detail}`);
      }
    } catch (error) {
      console.log(`EXPLAIN QUERY PLAN ${name}: not explained (${(error as Error).message})`);
    }
  }
  console.log('');
}

import { API_PATHS } from '@app/contracts';
import { MembersPageSchema } from '@app/contracts/admin-members';
import { ADMIN_PATHS } from '@app/contracts/admin-paths';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { membersPageSql, membersWhere } from '../src/services/members';
import { startTestServer, type TestServer, type TestUser } from './helpers';
import { insertMembers, memberName } from './members-fixtures';

/** Issue 34, /admin/members: the list at 10,000 members (paging, order, search, filters) on either database. */
let s: TestServer;
let admin: TestUser;
const MEMBERS = 10_000;

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.user(['admin'], 'admin');
  await insertMembers(s.sql, MEMBERS);
}, 60_000);
afterAll(() => s.close());

const list = async (query: string) => {
  const r = await s.get(`${ADMIN_PATHS.members}${query}`, admin.token);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return v.parse(MembersPageSchema, r.body);
};
const count = async (where: string) => Number(await s.sql.value(`SELECT COUNT(*) FROM users ${where}`));
/** The list's order: pending first, then newest, the id breaking ties. */
const ordered = (a: { is_active: boolean; created_at: string; id: number }[]) =>
  a.every((x, i) => {
    const y = a[i - 1];
    if (!y) return true;
    if (y.is_active !== x.is_active) return !y.is_active;
    return y.created_at > x.created_at || (y.created_at === x.created_at && y.id > x.id);
  });

describe('GET /api/admin/members', () => {
  it('shows pending registrations first, newest first, with the address they came from', async () => {
    const pending = await count('WHERE is_active = FALSE');
    const p = await list('');
    expect(p).toMatchObject({ page: 1, limit: 25, pending, total: await count('') });
    expect(p.items).toHaveLength(25);
    expect(p.items.every((m) => !m.is_active && m.registered_from?.startsWith('198.51.100.'))).toBe(true);
    expect(ordered(p.items)).toBe(true);
    // member10000 and member09990 are the newest pending ones (two a minute: the id breaks the tie).
    expect(p.items[0]!.username).toBe(memberName(10_000));
    expect(p.items[1]!.username).toBe(memberName(9_990));
    expect(p.items[0]).toMatchObject({ first_name: 'First0', last_name: 'Last0', roles: [] });
  });

  it('pages through the boundary between pending and active without a gap or a repeat', async () => {
    const pending = await count('WHERE is_active = FALSE');
    const lastPendingPage = Math.ceil(pending / 100);
    const a = await list(`?limit=100&page=${lastPendingPage}`);
    const b = await list(`?limit=100&page=${lastPendingPage + 1}`);
    const both = [...a.items, ...b.items];
    expect(ordered(both)).toBe(true);
    expect(new Set(both.map((m) => m.id)).size).toBe(200);
    expect(both.filter((m) => !m.is_active)).toHaveLength(pending - (lastPendingPage - 1) * 100);
    const beyond = await list('?page=999&limit=100');
    expect(beyond.items).toEqual([]);
    expect(beyond.total).toBe(await count(''));
  });

  it('filters by status; `pending` counts the whole table whatever the filter', async () => {
    const pending = await count('WHERE is_active = FALSE');
    const p = await list('?status=pending&limit=100&page=3');
    expect(p.total).toBe(pending);
    expect(p.items.every((m) => !m.is_active)).toBe(true);
    const a = await list('?status=active&q=member');
    expect(a.total).toBe(MEMBERS - MEMBERS / 10);
    expect(a.pending).toBe(pending);
    expect(a.items.every((m) => m.is_active)).toBe(true);
    expect(ordered(a.items)).toBe(true);
  });

  it('searches username, email, first and last name as substrings in any case', async () => {
    const byName = await list('?q=MEMBER0424');
    expect(byName.total).toBe(10);
    expect(byName.items.map((m) => m.username).sort()[0]).toBe(memberName(4240));
    expect(ordered(byName.items)).toBe(true);
    expect((await list('?q=%40CORP-3.example&limit=1')).total).toBe(
      await count("WHERE email LIKE '%@corp-3.example'"),
    );
    expect((await list('?q=first17')).total).toBe(MEMBERS / 100);
    expect((await list('?q=last999')).total).toBe(MEMBERS / 1000);
    expect((await list(`?q=${encodeURIComponent('  member00042  ')}`)).items[0]!.username).toBe(
      memberName(42),
    );
    expect((await list('?q=nobody-has-this')).items).toEqual([]);
  });

  it('takes % and _ literally, not as wildcards', async () => {
    const pct = await list(`?q=${encodeURIComponent('%')}`);
    expect(pct.items.map((m) => m.first_name)).toEqual(['100%_Sure']);
    expect((await list(`?q=${encodeURIComponent('0%_s')}`)).total).toBe(1);
    // Only the admin's generated username and that first name hold an underscore.
    const under = await list(`?q=${encodeURIComponent('_')}`);
    expect(under.items.map((m) => m.username).sort()).toEqual([admin.username, memberName(4242)].sort());
    expect((await list(`?q=${encodeURIComponent('\\')}`)).total).toBe(0);
  });

  it('answers bad paging and filters with 400 and an error', async () => {
    for (const query of [
      '?page=0',
      '?page=abc',
      '?page=-1',
      '?page=',
      '?limit=0',
      '?limit=101',
      '?limit=1.5',
      '?status=banned',
      `?q=${'x'.repeat(101)}`,
    ]) {
      const r = await s.get(`${ADMIN_PATHS.members}${query}`, admin.token);
      expect(r.status, query).toBe(400);
      expect(typeof r.body.error, query).toBe('string');
    }
  });

  it('finds first and last name typed together, and takes search syntax as text', async () => {
    expect((await list(`?q=${encodeURIComponent('first17 last17')}`)).total).toBe(MEMBERS / 1000);
    for (const q of ['"quoted"', 'a OR b', 'NEAR(x y)', 'mem*', '-member', "o'brien", '((']) {
      const r = await s.get(`${ADMIN_PATHS.members}?q=${encodeURIComponent(q)}`, admin.token);
      expect(r.status, q).toBe(200);
      expect(r.body.total, q).toBe(0);
    }
  });

  it('keeps the search current: a registration, a new name, a deleted account', async () => {
    const u = await s.user([], 'renamed');
    expect((await list(`?q=${u.username}`)).items.map((m) => m.id)).toEqual([u.id]);
    const address = { street: 'Main Street 1', city: 'Berlin', postal_code: '10115', country: 'Germany' };
    const put = await s.put(
      API_PATHS.profile,
      { name: { first: 'Quirinus', last: 'Zwölfer' }, email: u.email, address },
      u.token,
    );
    expect(put.status).toBe(200);
    expect((await list('?q=quirinus zw')).items.map((m) => m.id)).toEqual([u.id]);
    expect((await s.post(API_PATHS.deleteAccount, undefined, u.token)).status).toBe(200);
    expect((await list('?q=quirinus')).total).toBe(0);
  });

  it('reads pages from the order index and searches from the trigram index: no scan of 10,000 rows', async () => {
    const page = membersPageSql(membersWhere(s.sql.dialect, { q: '', status: 'all' }).where);
    const search = membersWhere(s.sql.dialect, { q: 'member0424', status: 'all' });
    if (s.sql.sqlite) {
      const plan = (text: string, params: unknown[]) =>
        (s.sql.sqlite!.prepare(`EXPLAIN QUERY PLAN ${text}`).all(...params) as { detail: string }[])
          .map((r) => r.detail)
          .join('\n');
      const first = plan(page, [25, 0]);
      // The page's 25 ids come from the index in order; only those 25 rows are sorted again.
      expect(first).toMatch(/SCAN u USING COVERING INDEX idx_users_admin_order/);
      expect(first.match(/TEMP B-TREE/g)).toHaveLength(1);
      const found = plan(`SELECT COUNT(*) FROM users u ${search.where}`, search.params);
      expect(found).toMatch(/users_search VIRTUAL TABLE/);
      expect(found).not.toMatch(/SCAN u\b/);
    } else {
      // PostgreSQL plans by its statistics (a top-N sort may win at 10,000 rows): what counts is the time.
      const ms = async (text: string, params: unknown[]) => {
        const lines = await s.sql.column<string>(`EXPLAIN ANALYZE ${text}`, params);
        return Number(/Execution Time: ([\d.]+) ms/.exec(lines.join('\n'))?.[1]);
      };
      expect(await ms(page.replace('LIMIT ? OFFSET ?', 'LIMIT 25'), [])).toBeLessThan(50);
      expect(await ms(`SELECT COUNT(*) FROM users u ${search.where}`, search.params)).toBeLessThan(50);
    }
  });
});

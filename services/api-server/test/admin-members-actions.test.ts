import {
  AdminAuditPageSchema,
  AdminMemberSchema,
  MemberBulkResultSchema,
} from '@app/contracts/admin-members';
import { ADMIN_PATHS } from '@app/contracts/admin-paths';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SELF_REVOKE_ADMIN } from '../src/services/account-admin';
import { startTestServer, type TestServer, type TestUser } from './helpers';
import { insertMembers } from './members-fixtures';

/** Issue 34, /admin/members: activate, reject, roles, the audit; on SQLite and again on PostgreSQL. */
let s: TestServer;
let admin: TestUser;
let member: TestUser;
/** The context's clock: audit rows carry its time, not the wall clock's. */
let clock = Date.parse('2026-03-01T09:00:00.000Z');

beforeAll(async () => {
  s = await startTestServer({}, () => clock);
  admin = await s.user(['admin'], 'admin');
  member = await s.user([], 'member');
  await insertMembers(s.sql, 200);
});
afterAll(() => s.close());

/** Ids of `n` pending members not yet used by a test. */
const used = new Set<number>();
async function pendingIds(n: number): Promise<number[]> {
  const ids = (await s.sql.column<number>('SELECT id FROM users WHERE is_active = FALSE ORDER BY id'))
    .map(Number)
    .filter((id) => !used.has(id))
    .slice(0, n);
  for (const id of ids) used.add(id);
  return ids;
}
const activeId = async () =>
  Number(
    await s.sql.value('SELECT id FROM users WHERE is_active = TRUE AND id > ? ORDER BY id', [member.id]),
  );
const mails = async (id: number) =>
  Number(
    await s.sql.value(
      "SELECT COUNT(*) FROM outbox o JOIN users u ON u.email = o.to_address WHERE u.id = ? AND o.kind = 'account-activated'",
      [id],
    ),
  );
const auditOf = async (id: number) => {
  const r = await s.get(`${ADMIN_PATHS.audit}?target=user:${id}`, admin.token);
  expect(r.status).toBe(200);
  return v.parse(AdminAuditPageSchema, r.body);
};
const counts = async () => ({
  users: Number(await s.sql.value('SELECT COUNT(*) FROM users')),
  active: Number(await s.sql.value('SELECT COUNT(*) FROM users WHERE is_active = TRUE')),
  outbox: Number(await s.sql.value('SELECT COUNT(*) FROM outbox')),
  audit: Number(await s.sql.value('SELECT COUNT(*) FROM admin_audit')),
});

describe('POST /api/admin/members/activate', () => {
  it('activates the pending ones with exactly one mail and one audit row each, skips the rest', async () => {
    const ids = await pendingIds(3);
    const active = await activeId();
    clock += 1000;
    const r = await s.post(
      ADMIN_PATHS.membersActivate,
      { ids: [...ids, active, ids[0], 99_999_999] },
      admin.token,
    );
    expect(r.status).toBe(200);
    expect(v.parse(MemberBulkResultSchema, r.body)).toEqual({
      done: ids,
      skipped: [
        { id: active, reason: 'already active' },
        { id: 99_999_999, reason: 'not found' },
      ],
    });
    // Again: nothing left to do, and no second mail.
    const again = await s.post(ADMIN_PATHS.membersActivate, { ids }, admin.token);
    expect(again.body.done).toEqual([]);
    for (const id of ids) {
      expect(await mails(id)).toBe(1);
      const audit = await auditOf(id);
      expect(audit.total).toBe(1);
      const row = await s.sql.get<{ email: string; username: string }>(
        'SELECT email, username FROM users WHERE id = ?',
        [id],
      );
      expect(audit.items[0]).toMatchObject({
        at: clock,
        actor: admin.username,
        action: 'member.activate',
        target: `user:${id}`,
        detail: { email: row!.email, username: row!.username },
      });
    }
    const login = await s.sql.value<number>('SELECT is_active FROM users WHERE id = ?', [ids[0]]);
    expect(Number(login)).toBe(1);
  });
});

describe('POST /api/admin/members/reject', () => {
  it('deletes pending registrations only; an active account is never touched', async () => {
    const ids = await pendingIds(2);
    const active = await activeId();
    const r = await s.post(ADMIN_PATHS.membersReject, { ids: [active, ...ids, member.id] }, admin.token);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      done: ids,
      skipped: [
        { id: active, reason: 'active accounts are never rejected' },
        { id: member.id, reason: 'active accounts are never rejected' },
      ],
    });
    expect(Number(await s.sql.value(`SELECT COUNT(*) FROM users WHERE id IN (?, ?)`, ids))).toBe(0);
    expect(
      Number(await s.sql.value('SELECT COUNT(*) FROM users WHERE id IN (?, ?)', [active, member.id])),
    ).toBe(2);
    for (const id of ids) {
      const audit = await auditOf(id);
      expect(audit.items.map((e) => e.action)).toEqual(['member.reject']);
      expect(audit.items[0]!.detail).toMatchObject({
        registered_from: expect.stringMatching(/^198\.51\.100\./),
      });
    }
    expect((await auditOf(active)).total).toBe(0);
  });
});

describe('bad input to the bulk actions', () => {
  it('is a 400 with an error, and nothing is written', async () => {
    const [pending] = await pendingIds(1);
    const before = await counts();
    const bodies: unknown[] = [
      { ids: [] },
      { ids: Array.from({ length: 101 }, (_, i) => i + 1) },
      { ids: [String(pending)] },
      { ids: [pending, -1] },
      { ids: [pending, 1.5] },
      { ids: 'all' },
      {},
      null,
    ];
    for (const path of [ADMIN_PATHS.membersActivate, ADMIN_PATHS.membersReject]) {
      for (const body of bodies) {
        const r = await s.post(path, body, admin.token);
        expect(r.status, JSON.stringify(body)).toBe(400);
        expect(typeof r.body.error).toBe('string');
      }
      const raw = await s.req('POST', path, { rawBody: '{"ids": [', token: admin.token });
      expect(raw.status).toBe(400);
    }
    expect((await s.post(ADMIN_PATHS.membersActivate, { ids: [] }, admin.token)).body.error).toBe(
      'Choose at least one member',
    );
    expect(await counts()).toEqual(before);
  });

  it('rolls the whole batch back when a write in it fails: no activation without its mail and audit', async () => {
    const ids = await pendingIds(2);
    const before = await counts();
    // The audit table gone for a moment: the activations and their mails written before must not stay.
    await s.sql.run('ALTER TABLE admin_audit RENAME TO admin_audit_away');
    try {
      const r = await s.post(ADMIN_PATHS.membersActivate, { ids }, admin.token);
      expect(r.status).toBe(500);
    } finally {
      await s.sql.run('ALTER TABLE admin_audit_away RENAME TO admin_audit');
    }
    expect(await counts()).toEqual(before);
  });
});

describe('roles', () => {
  it('grants and revokes a tier, audited; the member’s open session sees the change at once', async () => {
    const target = await s.user([], 'tier');
    expect((await s.get(ADMIN_PATHS.members, target.token)).status).toBe(403);
    const g = await s.post(ADMIN_PATHS.memberRoles(target.id), { role: 'admin' }, admin.token);
    expect(g.status).toBe(200);
    expect(v.parse(AdminMemberSchema, g.body)).toMatchObject({ id: target.id, roles: ['admin'] });
    // An administrator at once; issue 46: whose admin screens first ask for a second factor.
    const asAdmin = await s.get(ADMIN_PATHS.members, target.token);
    expect([asAdmin.status, asAdmin.body.twoFactorSetupRequired]).toEqual([403, true]);
    const r = await s.del(ADMIN_PATHS.memberRole(target.id, 'admin'), admin.token);
    expect(r.status).toBe(200);
    expect(r.body.roles).toEqual([]);
    expect((await s.get(ADMIN_PATHS.members, target.token)).status).toBe(403);
    const tier = await s.post(ADMIN_PATHS.memberRoles(target.id), { role: 'paid-tier-2' }, admin.token);
    expect(tier.body.roles).toEqual(['paid-tier-2']);
    // Granting what is held already changes nothing and records nothing.
    await s.post(ADMIN_PATHS.memberRoles(target.id), { role: 'paid-tier-2' }, admin.token);
    const audit = await auditOf(target.id);
    expect(audit.items.map((e) => [e.action, e.detail.role])).toEqual([
      ['member.grant', 'paid-tier-2'],
      ['member.revoke', 'admin'],
      ['member.grant', 'admin'],
    ]);
  });

  it('refuses an administrator removing their own admin role, so the last one cannot lock everyone out', async () => {
    const r = await s.del(ADMIN_PATHS.memberRole(admin.id, 'admin'), admin.token);
    expect(r.status).toBe(400);
    expect(r.body.error).toBe(SELF_REVOKE_ADMIN);
    expect((await s.get(ADMIN_PATHS.members, admin.token)).status).toBe(200);
    expect((await auditOf(admin.id)).total).toBe(0);
  });

  it('answers unknown members, bad ids and unknown roles with 4xx and an error', async () => {
    const cases: [string, string, unknown, number][] = [
      ['POST', ADMIN_PATHS.memberRoles(99_999_999), { role: 'paid-tier-1' }, 404],
      ['DELETE', ADMIN_PATHS.memberRole(99_999_999, 'paid-tier-1'), undefined, 404],
      ['POST', ADMIN_PATHS.memberRoles('abc'), { role: 'paid-tier-1' }, 404],
      ['POST', ADMIN_PATHS.memberRoles(member.id), { role: 'owner' }, 400],
      ['POST', ADMIN_PATHS.memberRoles(member.id), {}, 400],
      ['DELETE', ADMIN_PATHS.memberRole(member.id, 'owner'), undefined, 400],
    ];
    for (const [method, path, body, status] of cases) {
      const r = await s.req(method, path, { body, token: admin.token });
      expect(r.status, `${method} ${path}`).toBe(status);
      expect(typeof r.body.error).toBe('string');
    }
  });
});

describe('GET /api/admin/audit', () => {
  it('pages every admin action newest first, and answers bad paging with 400', async () => {
    const all = await s.get(`${ADMIN_PATHS.audit}?limit=2`, admin.token);
    expect(all.status).toBe(200);
    const page = v.parse(AdminAuditPageSchema, all.body);
    expect(page.items).toHaveLength(2);
    expect(page.total).toBeGreaterThanOrEqual(8);
    expect(page.items[0]!.at).toBeGreaterThanOrEqual(page.items[1]!.at);
    const second = v.parse(
      AdminAuditPageSchema,
      (await s.get(`${ADMIN_PATHS.audit}?limit=2&page=2`, admin.token)).body,
    );
    expect(second.items[0]!.id).not.toBe(page.items[0]!.id);
    for (const q of ['?page=0', '?limit=500', `?target=${'u'.repeat(101)}`]) {
      const r = await s.get(`${ADMIN_PATHS.audit}${q}`, admin.token);
      expect(r.status, q).toBe(400);
      expect(typeof r.body.error).toBe('string');
    }
  });
});

import {
  AdminUserSchema,
  CONTENT_TYPES,
  ContactSchema,
  DashboardListSchema,
  ImpressumSchema,
  PostCardListSchema,
  ReportSchema,
} from '@app/contracts';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registration, startTestServer, surveyAnswers, type TestServer, type TestUser } from './helpers';

let s: TestServer;
let admin: TestUser;
beforeAll(async () => {
  s = await startTestServer({ seedDemo: true });
  admin = await s.user(['admin'], 'admin');
});
afterAll(() => s.close());

describe('demo content', () => {
  it('seeds a dozen public articles over all six content types', async () => {
    const r = await s.get('/api/posts?visibility=public&limit=100');
    expect(v.is(PostCardListSchema, r.body)).toBe(true);
    expect(r.body.length).toBeGreaterThanOrEqual(12);
    const types = new Set(r.body.map((p: { content_type: string }) => p.content_type));
    expect([...types].sort()).toEqual([...CONTENT_TYPES.values].sort());
    expect(r.body.every((p: { author: { name: string } }) => p.author.name === 'Research Desk')).toBe(true);
  });

  it('seeds every tier, drafts, dashboards, impressum and contact', async () => {
    const all = await s.get('/api/posts?limit=100', admin.token);
    const vis = new Set(all.body.map((p: { visibility: string }) => p.visibility));
    expect(vis).toEqual(new Set(['public', 'members_only', 'paid-tier-1', 'paid-tier-2', 'private']));
    expect((await s.get('/api/posts?status=draft', admin.token)).body.length).toBeGreaterThanOrEqual(2);
    const dash = await s.get('/api/dashboards');
    expect(v.is(DashboardListSchema, dash.body)).toBe(true);
    expect(dash.body.length).toBeGreaterThanOrEqual(3);
    const imp = await s.get('/api/public-impressum');
    expect(v.is(ImpressumSchema, imp.body)).toBe(true);
    expect(imp.body.vatId).toBe(s.ctx.config.site.impressum.vatId);
    const contact = await s.get('/api/public-contact');
    expect(v.is(ContactSchema, contact.body)).toBe(true);
    expect(contact.body.email).toBe(s.ctx.config.site.contact.email);
  });

  it('the report answers ReportSchema', async () => {
    const r = await s.get('/api/report');
    expect(v.is(ReportSchema, r.body)).toBe(true);
    expect(r.body.top_posts.length).toBeGreaterThan(0);
  });

  it('health answers', async () => {
    expect((await s.get('/api/health')).body).toEqual({ status: 'ok' });
  });
});

describe('market assessment', () => {
  it('stores a valid submission and answers 201 {id, message}', async () => {
    const r = await s.post('/api/market-assessment', surveyAnswers());
    expect(r.status).toBe(201);
    expect(r.body).toEqual({ id: expect.any(Number), message: expect.any(String) });
    const row = (await s.sql.get<{ email: string }>('SELECT email FROM market_assessments WHERE id = ?', [
      r.body.id,
    ]))!;
    expect(row.email).toBe('Lead@Example.com');
  });

  it('validates against the enumerations and step rules', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ companySize: '' }, 'Company size is required'],
      [{ industry: 'mining' }, 'Industry is required'],
      [{ primaryChallenges: [] }, 'Please select at least one challenge'],
      [{ intelligenceTopics: [] }, 'Please select at least one topic of interest'],
      [{ email: 'nope' }, 'Please enter a valid email address'],
      [{ email: '' }, 'Email is required for insights delivery'],
      [{ urgency: 'yesterday' }, ''],
    ];
    for (const [over, message] of cases) {
      const r = await s.post('/api/market-assessment', surveyAnswers(over));
      expect(r.status, JSON.stringify(over)).toBe(400);
      if (message) expect(r.body.error).toBe(message);
    }
  });

  it('an Idempotency-Key repeat returns the first answer and stores one row', async () => {
    const count = () => s.sql.value<number>('SELECT COUNT(*) FROM market_assessments');
    const before = (await count())!;
    const send = () =>
      s.req('POST', '/api/market-assessment', {
        body: surveyAnswers(),
        headers: { 'idempotency-key': 'abc-123' },
      });
    const [a, b] = await Promise.all([send(), send()]);
    const c = await send();
    expect(a.status).toBe(201);
    expect(b.body).toEqual(a.body);
    expect(c.body).toEqual(a.body);
    expect(await count()).toBe(before + 1);
    const other = await s.req('POST', '/api/market-assessment', {
      body: surveyAnswers(),
      headers: { 'idempotency-key': 'abc-124' },
    });
    expect(other.body.id).not.toBe(a.body.id);
  });
});

describe('admin API', () => {
  it('is admin only', async () => {
    const basic = await s.user();
    expect((await s.get('/api/admin/users')).status).toBe(401);
    expect((await s.get('/api/admin/users', basic.token)).status).toBe(403);
    expect((await s.post(`/api/admin/users/${basic.id}/activate`, undefined, basic.token)).status).toBe(403);
    expect((await s.post(`/api/admin/users/${basic.id}/roles`, { role: 'admin' }, basic.token)).status).toBe(
      403,
    );
    expect((await s.del(`/api/admin/users/${basic.id}/roles/admin`, basic.token)).status).toBe(403);
  });

  it('lists pending accounts, activates, grants and revokes roles', async () => {
    const reg = registration();
    await s.post('/api/register', reg);
    const pending = await s.get('/api/admin/users?status=pending', admin.token);
    expect(pending.status).toBe(200);
    const entry = pending.body.find((x: { email: string }) => x.email === reg.email);
    expect(v.is(AdminUserSchema, entry)).toBe(true);
    expect(entry.is_active).toBe(false);
    const all = await s.get('/api/admin/users', admin.token);
    expect(all.body.length).toBeGreaterThan(pending.body.length);
    expect((await s.get('/api/admin/users?status=weird', admin.token)).status).toBe(400);

    const act = await s.post(`/api/admin/users/${entry.id}/activate`, undefined, admin.token);
    expect(act.body.is_active).toBe(true);
    const login = await s.post('/api/login', { username: reg.email, password: reg.password });
    expect(login.status).toBe(200);
    const token = login.body.token;

    const paid = await s.get('/api/posts?limit=100', token);
    expect(paid.body.some((p: { visibility: string }) => p.visibility === 'paid-tier-1')).toBe(false);
    const grant = await s.post(`/api/admin/users/${entry.id}/roles`, { role: 'paid-tier-1' }, admin.token);
    expect(grant.body.roles).toEqual(['paid-tier-1']);
    // The grant applies to existing sessions at once.
    const after = await s.get('/api/posts?limit=100', token);
    expect(after.body.some((p: { visibility: string }) => p.visibility === 'paid-tier-1')).toBe(true);
    expect((await s.post(`/api/admin/users/${entry.id}/roles`, { role: 'god' }, admin.token)).status).toBe(
      400,
    );
    const revoke = await s.del(`/api/admin/users/${entry.id}/roles/paid-tier-1`, admin.token);
    expect(revoke.body.roles).toEqual([]);
    expect((await s.del(`/api/admin/users/${entry.id}/roles/god`, admin.token)).status).toBe(400);
    expect((await s.post('/api/admin/users/999999/activate', undefined, admin.token)).status).toBe(404);
    expect((await s.post('/api/admin/users/abc/activate', undefined, admin.token)).status).toBe(404);
  });
});

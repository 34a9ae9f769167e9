import { ADMIN_PATHS } from '@app/contracts/admin-paths';
import { LeadDetailSchema, LeadsPageSchema } from '@app/contracts/leads';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer, TestUser } from './helpers';
import {
  smallLeadAnswers as answersOf,
  smallLeadContacted as CONTACTED,
  CONTACTED_AT,
  SMALL_COUNT as COUNT,
  type KnownLead,
  startSmallLeads,
} from './leads-fixtures';

// /admin/leads: the list, its filters, one lead and "contacted" (the export: admin-leads-csv.test.ts).
let api: TestServer;
let admin: TestUser;
let member: TestUser;
let known: KnownLead[];
let clock: { now: number };

beforeAll(async () => {
  ({ api, admin, member, known, clock } = await startSmallLeads());
});
afterAll(() => api?.close());

const list = (query: string, token = admin.token) => api.get(`${ADMIN_PATHS.leads}?${query}`, token);

describe('GET /api/admin/leads', () => {
  it('lists every lead newest first, in the contract shape, from the columns submitAssessment filled', async () => {
    const res = await list('limit=100');
    expect(res.status).toBe(200);
    const page = v.parse(LeadsPageSchema, res.body);
    expect(page.total).toBe(COUNT);
    expect(page.items.map((l) => l.id)).toEqual([...known].reverse().map((k) => k.id));
    const first = page.items.at(-1)!;
    expect(first).toEqual({
      id: known[0]!.id,
      created_at: known[0]!.at,
      email: 'lead0@example.com',
      name: 'Ann0 Lee0',
      company: 'Firm 0',
      industry: 'technology',
      company_size: '10-50',
      role: 'ceo',
      urgency: 'immediate',
      consultation: true,
      communication_method: 'email',
      contacted_at: CONTACTED_AT,
    });
    const row = await api.sql.get<Record<string, unknown>>(
      'SELECT industry, company_size, urgency, consultation FROM market_assessments WHERE id = ?',
      [known[6]!.id],
    );
    expect({ ...row, consultation: Number(row?.consultation) }).toEqual({
      industry: 'technology',
      company_size: '10-50',
      urgency: 'immediate',
      consultation: 0,
    });
  });

  it('answers every mix of filters (each alone and combined, days inclusive in UTC) with exactly the matching leads', async () => {
    const day = (i: number) => known[i]!.at.slice(0, 10);
    const dates = [
      { from: '', to: '' },
      { from: '2026-03-02', to: '2026-03-02' },
      { from: '', to: '2026-03-01' },
      { from: '2026-03-03', to: '' },
    ];
    let checked = 0;
    for (const consultation of ['', 'yes', 'no'])
      for (const contacted of ['', 'yes', 'no'])
        for (const urgency of ['', 'immediate', 'short-term'])
          for (const industry of ['', 'retail'])
            for (const companySize of ['', '10-50'])
              for (const { from, to } of dates) {
                const want = known
                  .filter(({ i }) => {
                    const a = answersOf(i);
                    return (
                      (!consultation || a.consultationInterest === (consultation === 'yes')) &&
                      (!contacted || CONTACTED(i) === (contacted === 'yes')) &&
                      (!urgency || a.urgency === urgency) &&
                      (!industry || a.industry === industry) &&
                      (!companySize || a.companySize === companySize) &&
                      (!from || day(i) >= from) &&
                      (!to || day(i) <= to)
                    );
                  })
                  .map((k) => k.id)
                  .reverse();
                const q = new URLSearchParams({
                  consultation,
                  contacted,
                  urgency,
                  industry,
                  companySize,
                  from,
                  to,
                });
                const res = await list(`${q}&limit=100`);
                expect(res.status, q.toString()).toBe(200);
                expect({
                  q: q.toString(),
                  total: res.body.total,
                  ids: res.body.items.map((l: { id: number }) => l.id),
                }).toEqual({
                  q: q.toString(),
                  total: want.length,
                  ids: want,
                });
                checked += 1;
              }
    expect(checked).toBe(3 * 3 * 3 * 2 * 2 * 4);
    // The day boundaries themselves: lead 2 is at 2026-03-02T00:00:00.000Z, lead 14 at 03-03T00:00Z.
    const march2 = await list('from=2026-03-02&to=2026-03-02&limit=100');
    expect(march2.body.items.map((l: { id: number }) => l.id)).toEqual(
      known
        .filter((k) => k.i >= 2 && k.i <= 13)
        .map((k) => k.id)
        .reverse(),
    );
  });

  it('pages with page and limit, and answers a page past the end with no items', async () => {
    const p2 = await list('limit=5&page=2');
    expect(p2.body).toMatchObject({ total: COUNT, page: 2, limit: 5 });
    expect(p2.body.items.map((l: { id: number }) => l.id)).toEqual(
      [...known]
        .reverse()
        .slice(5, 10)
        .map((k) => k.id),
    );
    const past = await list('limit=5&page=9');
    expect(past.body).toEqual({ items: [], total: COUNT, page: 9, limit: 5 });
  });

  it.each([
    ['consultation=maybe', 'consultation must be yes or no'],
    ['contacted=1', 'contacted must be yes or no'],
    ['urgency=soon', 'Unknown urgency'],
    ['industry=mining', 'Unknown industry'],
    ['companySize=5', 'Unknown company size'],
    ['from=2026-3-1', 'from must be a date (YYYY-MM-DD)'],
    ['to=2026-02-31', 'to must be a date (YYYY-MM-DD)'],
    ['page=0', 'page must be a positive number'],
    ['limit=101', 'limit must be 1 to 100'],
  ])('refuses %s with 400 and the schema message', async (query, error) => {
    const res = await list(query);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(error);
    const csv = await api.get(`${ADMIN_PATHS.leadsCsv}?${query}`, admin.token);
    // The export takes the filters only: paging parameters are not its business.
    if (!query.startsWith('page') && !query.startsWith('limit')) expect(csv.body.error).toBe(error);
  });

  it('is for administrators only: 401 for a guest, 403 for a member', async () => {
    for (const path of [ADMIN_PATHS.leads, ADMIN_PATHS.leadsCsv, ADMIN_PATHS.lead(known[0]!.id)]) {
      expect((await api.get(path)).status).toBe(401);
      expect((await api.get(path, member.token)).status).toBe(403);
    }
    expect((await api.post(ADMIN_PATHS.leadContacted(known[1]!.id), {}, member.token)).status).toBe(403);
    expect((await api.del(ADMIN_PATHS.leadContacted(known[1]!.id), member.token)).status).toBe(403);
  });
});

describe('one lead', () => {
  it('shows every answer as submitted, and 404s an unknown or malformed id', async () => {
    const k = known[3]!;
    const res = await api.get(ADMIN_PATHS.lead(k.id), admin.token);
    expect(res.status).toBe(200);
    const lead = v.parse(LeadDetailSchema, res.body);
    expect(lead.answers).toEqual(answersOf(3));
    expect(lead).toMatchObject({
      id: k.id,
      created_at: k.at,
      contacted_at: null,
      contacted_by: null,
      contacted_note: '',
    });
    for (const id of ['999999', 'abc', '-1', '1e3', '12345678901234']) {
      const missing = await api.get(ADMIN_PATHS.lead(id), admin.token);
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ error: 'Lead not found' });
    }
  });

  it('is marked contacted with a note and un-marked, each with its audit row in the same change', async () => {
    const k = known[7]!;
    clock.now = Date.parse('2026-03-06T08:30:00.000Z');
    const marked = await api.post(
      ADMIN_PATHS.leadContacted(k.id),
      { note: '  Called, wants a demo  ' },
      admin.token,
    );
    expect(marked.status).toBe(200);
    expect(v.parse(LeadDetailSchema, marked.body)).toMatchObject({
      id: k.id,
      contacted_at: clock.now,
      contacted_by: admin.username,
      contacted_note: 'Called, wants a demo',
    });
    expect((await api.get(ADMIN_PATHS.lead(k.id), admin.token)).body.contacted_note).toBe(
      'Called, wants a demo',
    );
    const contactedIds = async () =>
      (await list('contacted=yes&limit=100')).body.items.map((l: { id: number }) => l.id);
    expect(await contactedIds()).toContain(k.id);

    const unmarked = await api.del(ADMIN_PATHS.leadContacted(k.id), admin.token);
    expect(unmarked.status).toBe(200);
    expect(unmarked.body).toMatchObject({ contacted_at: null, contacted_by: null, contacted_note: '' });
    expect(await contactedIds()).not.toContain(k.id);
    // Un-marking what is not marked changes nothing and records nothing.
    expect((await api.del(ADMIN_PATHS.leadContacted(k.id), admin.token)).status).toBe(200);

    const audit = await api.ctx.audit.page({ target: `lead:${k.id}`, page: 1, limit: 10 });
    expect(
      audit.items.map(({ actor, action, target, detail }) => ({ actor, action, target, detail })),
    ).toEqual([
      {
        actor: admin.username,
        action: 'lead.uncontacted',
        target: `lead:${k.id}`,
        detail: {
          contacted_at: Date.parse('2026-03-06T08:30:00.000Z'),
          contacted_by: admin.username,
          note: 'Called, wants a demo',
        },
      },
      {
        actor: admin.username,
        action: 'lead.contacted',
        target: `lead:${k.id}`,
        detail: { note: 'Called, wants a demo' },
      },
    ]);
  });

  it('refuses a note over 2,000 characters and an unknown lead', async () => {
    const long = await api.post(
      ADMIN_PATHS.leadContacted(known[8]!.id),
      { note: 'x'.repeat(2001) },
      admin.token,
    );
    expect(long.status).toBe(400);
    expect(long.body.error).toBe('The note must be at most 2,000 characters');
    const bad = await api.post(ADMIN_PATHS.leadContacted(known[8]!.id), { note: 5 }, admin.token);
    expect(bad.status).toBe(400);
    for (const send of [
      () => api.post(ADMIN_PATHS.leadContacted(999999), {}, admin.token),
      () => api.del(ADMIN_PATHS.leadContacted('nope'), admin.token),
    ]) {
      const res = await send();
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Lead not found' });
    }
    expect((await api.ctx.audit.page({ target: 'lead:999999', page: 1, limit: 10 })).total).toBe(0);
  });
});

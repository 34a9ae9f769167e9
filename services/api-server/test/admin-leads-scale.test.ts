import { ADMIN_PATHS } from '@app/contracts/admin-paths';
import type { LeadFilters } from '@app/contracts/leads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from './helpers';
import { seededLead, seedLeads } from './leads-fixtures';

/** /admin/leads at the size issue 34 names: 100,000 leads, written in SQL in one transaction. */
const N = 100_000;
let api: TestServer;
let admin: TestUser;

beforeAll(async () => {
  api = await startTestServer();
  // Seed before the first request: the seeding holds this process's event loop for seconds, and a kept-alive
  // connection from an earlier request would be closed by the server just as the client reused it (ECONNRESET).
  await seedLeads(api.sql, N);
  admin = await api.user(['admin'], 'scaleadmin');
}, 180_000);
afterAll(() => api?.close());

/** The seeded leads (1 = newest) the filters match, in the list's order, by email. */
function expected(f: Partial<LeadFilters>): string[] {
  const out: string[] = [];
  for (let i = 1; i <= N; i++) {
    const lead = seededLead(i);
    const p = lead.payload;
    const day = lead.created_at.slice(0, 10);
    if (f.consultation && p.consultationInterest !== (f.consultation === 'yes')) continue;
    if (f.contacted && (lead.contacted_at !== null) !== (f.contacted === 'yes')) continue;
    if (f.urgency && p.urgency !== f.urgency) continue;
    if (f.industry && p.industry !== f.industry) continue;
    if (f.companySize && p.companySize !== f.companySize) continue;
    if (f.from && day < f.from) continue;
    if (f.to && day > f.to) continue;
    out.push(p.email);
  }
  return out;
}

const emails = (body: { items: { email: string }[] }) => body.items.map((l) => l.email);

describe('leads at 100,000', () => {
  it('pages through all of them newest first, to the last page and past it', async () => {
    const all = expected({});
    const first = await api.get(`${ADMIN_PATHS.leads}?limit=25`, admin.token);
    expect(first.status).toBe(200);
    expect(first.body.total).toBe(N);
    expect(emails(first.body)).toEqual(all.slice(0, 25));
    const last = await api.get(`${ADMIN_PATHS.leads}?limit=25&page=4000`, admin.token);
    expect(emails(last.body)).toEqual(all.slice(N - 25));
    const past = await api.get(`${ADMIN_PATHS.leads}?limit=25&page=4001`, admin.token);
    expect(past.body).toEqual({ items: [], total: N, page: 4001, limit: 25 });
  });

  it.each<Partial<LeadFilters>>([
    { consultation: 'yes' },
    { contacted: 'no' },
    { urgency: 'immediate' },
    { industry: 'technology' },
    { companySize: '201-500' },
    { from: '2026-10-01', to: '2026-10-31' },
    // Days holding most of the leads: counted as the total less the leads outside them.
    { consultation: 'yes', from: '2025-01-01' },
    { urgency: 'long-term', from: '2024-06-01', to: '2026-11-19' },
    { from: '2026-11-20', to: '2026-01-01' },
    { consultation: 'yes', urgency: 'short-term', industry: 'retail' },
    { consultation: 'no', contacted: 'yes', companySize: '10-50', from: '2026-11-01' },
    // Lead i is technology when i % 9 = 1 and 51-200 when i % 4 = 1, so i % 3 = 1: never a consultation.
    { consultation: 'yes', industry: 'technology', companySize: '51-200' },
  ])('counts and pages %o exactly, deep pages included', async (filters) => {
    const want = expected(filters);
    const q = new URLSearchParams(filters as Record<string, string>);
    const first = await api.get(`${ADMIN_PATHS.leads}?${q}&limit=100`, admin.token);
    expect(first.status).toBe(200);
    expect(first.body.total).toBe(want.length);
    expect(emails(first.body)).toEqual(want.slice(0, 100));
    const deep = Math.max(1, Math.ceil(want.length / 100) - 1);
    const later = await api.get(`${ADMIN_PATHS.leads}?${q}&limit=100&page=${deep}`, admin.token);
    expect(emails(later.body)).toEqual(want.slice((deep - 1) * 100, deep * 100));
  });

  it('keeps the counts right through contacted and un-contacted', async () => {
    const before = (await api.get(`${ADMIN_PATHS.leads}?contacted=yes&limit=1`, admin.token)).body.total;
    const id = (await api.get(`${ADMIN_PATHS.leads}?contacted=no&limit=1`, admin.token)).body.items[0].id;
    await api.post(ADMIN_PATHS.leadContacted(id), { note: 'n' }, admin.token);
    const during = (await api.get(`${ADMIN_PATHS.leads}?contacted=yes&limit=1`, admin.token)).body.total;
    await api.del(ADMIN_PATHS.leadContacted(id), admin.token);
    const after = (await api.get(`${ADMIN_PATHS.leads}?contacted=yes&limit=1`, admin.token)).body.total;
    expect([during - before, after - before]).toEqual([1, 0]);
    expect(before).toBe(expected({ contacted: 'yes' }).length);
  });

  it('exports every one of them, streamed, in the list order', async () => {
    const res = await fetch(`${api.url}${ADMIN_PATHS.leadsCsv}`, {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(res.status).toBe(200);
    // Streamed: no length known up front.
    expect(res.headers.get('content-length')).toBeNull();
    const text = await res.text();
    // The seeded values hold no comma, quote or line break, so a split reads them exactly.
    const lines = text.split('\r\n');
    expect(lines.pop()).toBe('');
    expect(lines.length).toBe(N + 1);
    expect(lines.slice(1).map((line) => line.split(',')[2])).toEqual(expected({}));
  });
});

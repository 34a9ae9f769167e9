import { API_PATHS } from '@app/contracts';
import { ADMIN_PATHS } from '@app/contracts/admin-paths';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEAD_CSV_HEADER } from '../src/services/leads-csv';
import { parseCsv } from './csv-parse';
import { surveyAnswers, type TestServer, type TestUser } from './helpers';
import { type KnownLead, startSmallLeads } from './leads-fixtures';

// GET /api/admin/leads.csv over the small set of leads-fixtures.ts.
let api: TestServer;
let admin: TestUser;
let known: KnownLead[];
let clock: { now: number };

beforeAll(async () => {
  ({ api, admin, known, clock } = await startSmallLeads());
});
afterAll(() => api?.close());

const list = (query: string) => api.get(`${ADMIN_PATHS.leads}?${query}`, admin.token);

/** Fetches the export and reads it back with the strict parser (the BOM first). */
async function csvOf(query: string) {
  const res = await fetch(`${api.url}${ADMIN_PATHS.leadsCsv}?${query}`, {
    headers: { authorization: `Bearer ${admin.token}` },
  });
  // Decoded by hand: fetch's text() drops a leading BOM, and whether there is one is under test.
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await res.arrayBuffer());
  expect(text.startsWith('\uFEFF')).toBe(true);
  return { res, rows: parseCsv(text.slice(1)) };
}

describe('GET /api/admin/leads.csv', () => {
  it('exports exactly what the filters match, in the list order, as an attachment', async () => {
    clock.now = Date.parse('2026-03-07T23:59:00.000Z');
    await api.stepUp(admin); // the export needs a code verified in the last 15 minutes (issue 46)
    for (const query of [
      '',
      'consultation=yes',
      'industry=retail&contacted=no',
      'from=2026-03-02&to=2026-03-02',
    ]) {
      const { res, rows } = await csvOf(query);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(res.headers.get('content-disposition')).toBe('attachment; filename="leads-2026-03-07.csv"');
      expect(rows[0]).toEqual([...LEAD_CSV_HEADER]);
      const listed = (await list(`${query}&limit=100`)).body.items.map((l: { id: number }) => String(l.id));
      expect(rows.slice(1).map((r) => r[0])).toEqual(listed);
    }
    const { rows } = await csvOf('');
    const lead0 = rows.find((r) => r[0] === String(known[0]!.id))!;
    expect(Object.fromEntries(LEAD_CSV_HEADER.map((h, n) => [h, lead0[n]]))).toEqual({
      id: String(known[0]!.id),
      received: known[0]!.at,
      email: 'lead0@example.com',
      'first name': 'Ann0',
      'last name': 'Lee0',
      company: 'Firm 0',
      phone: '',
      role: 'CEO',
      industry: 'Technology',
      'company size': '10-50 employees',
      'years in role': '4-7 years',
      challenges: expect.any(String),
      'risk concerns': expect.any(String),
      'growth goals': '',
      topics: expect.any(String),
      'report frequency': 'Monthly',
      urgency: 'Immediate (within a month)',
      'communication method': 'Email only',
      consultation: 'yes',
      'contacted at': '2026-03-05T10:00:00.000Z',
      'contacted by': admin.username,
      note: 'called 0',
    });
  });

  it('neutralises formulas and keeps quotes, commas, newlines, tabs and emoji intact', async () => {
    const hostile = {
      firstName: "=cmd|' /C calc'!A0",
      lastName: '+1',
      company: 'Quote "Co", Ltd\nSecond line',
      phone: '-2',
    };
    const res = await api.post(
      API_PATHS.marketAssessment,
      surveyAnswers({ ...hostile, email: 'evil@example.com' }),
    );
    clock.now = Date.parse('2026-03-08T00:00:00.000Z');
    await api.stepUp(admin); // the export needs a code verified in the last 15 minutes (issue 46)
    const note = '@x, says "hi"\r\nnext 🚀 Zoë';
    await api.post(ADMIN_PATHS.leadContacted(res.body.id), { note }, admin.token);
    // What the API trims (a leading tab or CR) can still come from an older row: written here directly.
    const raw = {
      ...surveyAnswers({ email: 'raw@example.com' }),
      firstName: '\tTab',
      lastName: '\r=1+1',
      company: '😀 Ünïcödé, GmbH',
    };
    await api.sql.transaction((tx) =>
      tx.run(
        `INSERT INTO market_assessments (email, payload, created_at, industry, company_size, urgency, consultation)
         VALUES (?, ?, ?, 'technology', '51-200', 'immediate', TRUE)`,
        [raw.email, JSON.stringify(raw), '2026-03-01T00:00:00.000Z'],
      ),
    );
    const { rows } = await csvOf('');
    const cell = (email: string, column: (typeof LEAD_CSV_HEADER)[number]) =>
      rows.find((r) => r[2] === email)![LEAD_CSV_HEADER.indexOf(column)];
    expect(cell('evil@example.com', 'first name')).toBe("'=cmd|' /C calc'!A0");
    expect(cell('evil@example.com', 'last name')).toBe("'+1");
    expect(cell('evil@example.com', 'phone')).toBe("'-2");
    expect(cell('evil@example.com', 'company')).toBe('Quote "Co", Ltd\nSecond line');
    expect(cell('evil@example.com', 'note')).toBe(`'${note}`);
    expect(cell('raw@example.com', 'first name')).toBe("'\tTab");
    expect(cell('raw@example.com', 'last name')).toBe("'\r=1+1");
    expect(cell('raw@example.com', 'company')).toBe('😀 Ünïcödé, GmbH');
    expect(rows.every((r) => r.length === LEAD_CSV_HEADER.length)).toBe(true);
  });

  it('neutralises every cell of every column, leading spaces or not, and quotes every semicolon (issue 46)', async () => {
    // An older or hand-made row whose every answer is hostile: a value no list knows is written as stored.
    const email = ' =hostile@example.com';
    const raw = {
      ...surveyAnswers({ email }),
      firstName: ' =1+1',
      lastName: 'Doe; =2+2',
      company: '\u00a0@SUM(A1)',
      phone: '  +49 30 1234',
      role: '=role()',
      yearsInRole: ' -1',
      primaryChallenges: ['=a()', 'b;c'],
      riskConcerns: ['@x'],
      growthGoals: [' +y'],
      intelligenceTopics: ['-z'],
      reportFrequency: '\t=f',
      communicationMethod: '@m',
    };
    await api.sql.transaction((tx) =>
      tx.run(
        `INSERT INTO market_assessments (email, payload, created_at, industry, company_size, urgency, consultation)
         VALUES (?, ?, ?, '=industry()', ' +size', '-urgent', FALSE)`,
        [email, JSON.stringify(raw), '2026-03-02T00:00:00.000Z'],
      ),
    );
    const res = await fetch(`${api.url}${ADMIN_PATHS.leadsCsv}`, {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    const text = (await res.text()).replace(/^\uFEFF/, '');
    const row = parseCsv(text).find((r) => r[2]?.includes('hostile@example.com'))!;
    expect(row).toHaveLength(LEAD_CSV_HEADER.length);
    const formula = /^[\p{Zs}]*[=+\-@\t\r]/u;
    for (const [i, cell] of row.entries()) {
      expect(formula.test(cell), `${LEAD_CSV_HEADER[i]}: ${JSON.stringify(cell)}`).toBe(false);
    }
    expect(row[LEAD_CSV_HEADER.indexOf('email')]).toBe(`'${email}`);
    expect(row[LEAD_CSV_HEADER.indexOf('industry')]).toBe("'=industry()");
    expect(row[LEAD_CSV_HEADER.indexOf('challenges')]).toBe("'=a(); b;c");
    // Read by a spreadsheet that splits on semicolons: no semicolon outside quotes in the record.
    const line = text.split('\r\n').find((l) => l.includes('hostile@example.com'))!;
    expect(line.replace(/"(?:[^"]|"")*"/g, '')).not.toContain(';');
  });
});

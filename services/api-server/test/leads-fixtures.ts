import { API_PATHS, COMMUNICATION_METHODS, COMPANY_SIZES, INDUSTRIES, URGENCIES } from '@app/contracts';
import { ADMIN_PATHS } from '@app/contracts/admin-paths';
import type { Sql } from '../src/db/sql';
import { startTestServer, surveyAnswers } from './helpers';

/**
 * The newest seeded lead's time; lead i (from 1) is i x 10 minutes older, so 100,000 span about two years
 * (144 a day, a busy survey): a month filter matches ~4,400 of them.
 */
export const SEED_NEWEST = Date.parse('2026-11-20T12:00:00.000Z');
const STEP_MS = 600_000;
/** Rows per INSERT: well under SQLite's and PostgreSQL's parameter limits. */
const BATCH = 500;

/** What lead i answered: every filterable answer cycles at its own period, so any filter mix matches some. */
export function seededLead(i: number) {
  const industry = INDUSTRIES.values[i % INDUSTRIES.values.length]!;
  const companySize = COMPANY_SIZES.values[i % COMPANY_SIZES.values.length]!;
  const urgency = i % 5 === 0 ? '' : URGENCIES.values[i % URGENCIES.values.length]!;
  const consultation = i % 3 === 0;
  const payload = {
    companySize,
    industry,
    role: 'ceo',
    yearsInRole: '4-7',
    primaryChallenges: ['rising-costs'],
    riskConcerns: ['cyber-attack'],
    growthGoals: ['new-markets'],
    intelligenceTopics: ['market-trends'],
    reportFrequency: 'monthly',
    urgency,
    email: `lead${i}@example.test`,
    firstName: `First${i}`,
    lastName: `Last${i}`,
    company: `Company ${i}`,
    phone: '+49 30 123456',
    communicationMethod: COMMUNICATION_METHODS.values[i % COMMUNICATION_METHODS.values.length]!,
    consultationInterest: consultation,
  };
  return {
    payload,
    created_at: new Date(SEED_NEWEST - i * STEP_MS).toISOString(),
    contacted_at: i % 7 === 0 ? SEED_NEWEST : null,
  };
}

/**
 * `count` leads written straight in SQL, in one transaction, with the columns migration 13 copies out of
 * the payload filled as submitAssessment fills them. For paging and timing at 100,000 leads.
 */
export async function seedLeads(sql: Sql, count: number): Promise<void> {
  await sql.transaction(async (tx) => {
    for (let start = 1; start <= count; start += BATCH) {
      const rows: string[] = [];
      const params: unknown[] = [];
      for (let i = start; i < start + BATCH && i <= count; i++) {
        const lead = seededLead(i);
        const p = lead.payload;
        rows.push('(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
        params.push(
          p.email,
          JSON.stringify(p),
          lead.created_at,
          p.industry,
          p.companySize,
          p.urgency,
          p.consultationInterest ? 1 : 0,
          lead.contacted_at,
          lead.contacted_at === null ? null : 'seed',
          '',
        );
      }
      await tx.run(
        `INSERT INTO market_assessments (email, payload, created_at, industry, company_size, urgency,
           consultation, contacted_at, contacted_by, contacted_note) VALUES ${rows.join(', ')}`,
        params,
      );
    }
  });
}

/** The small set of admin-leads*.test.ts: 16 leads, two hours apart, some marked contacted. */
const BASE = Date.parse('2026-03-01T20:00:00.000Z');
const HOUR = 3_600_000;
const INDUSTRY_CYCLE = ['technology', 'retail', 'healthcare'] as const;
const SIZE_CYCLE = ['10-50', '51-200'] as const;
const URGENCY_CYCLE = ['immediate', 'short-term', ''] as const;
export const SMALL_COUNT = 16;
/** Lead i, submitted at BASE + 2i hours: lead 2 at exactly 2026-03-02T00:00Z, lead 14 at 03-03T00:00Z. */
export const smallLeadAnswers = (i: number) =>
  surveyAnswers({
    industry: INDUSTRY_CYCLE[i % 3],
    companySize: SIZE_CYCLE[i % 2],
    urgency: URGENCY_CYCLE[(i >> 1) % 3],
    consultationInterest: i % 4 < 2,
    email: `lead${i}@example.com`,
    firstName: `Ann${i}`,
    lastName: `Lee${i}`,
    company: `Firm ${i}`,
    communicationMethod: i % 2 ? 'email-phone' : 'email',
  });
/** Marked contacted (at CONTACTED_AT, note `called <i>`) before the tests run. */
export const smallLeadContacted = (i: number) => i % 5 === 0;
export const CONTACTED_AT = Date.parse('2026-03-05T10:00:00.000Z');

export interface KnownLead {
  id: number;
  i: number;
  at: string;
}

/**
 * A server with the small set submitted through the API (each at its own time on the server's clock),
 * an admin and a member. `clock.now` is the server's clock: "contacted" is stamped with it.
 */
export async function startSmallLeads() {
  const clock = { now: BASE };
  // The clock jumps hours at a time between uses of the admin's session: no idle expiry here.
  const api = await startTestServer({ sessionIdleMs: 365 * 24 * HOUR }, () => clock.now);
  const admin = await api.user(['admin'], 'leadadmin');
  const member = await api.user([], 'leadmember');
  const known: KnownLead[] = [];
  for (let i = 0; i < SMALL_COUNT; i++) {
    clock.now = BASE + i * 2 * HOUR;
    const res = await api.post(API_PATHS.marketAssessment, smallLeadAnswers(i));
    if (res.status !== 201) throw new Error(`assessment ${i}: ${res.status}`);
    known.push({ id: res.body.id, i, at: new Date(clock.now).toISOString() });
  }
  clock.now = CONTACTED_AT;
  // Days after the admin's step-up (issue 46): the export, a sensitive action, needs a fresh code.
  await api.stepUp(admin);
  for (const k of known.filter((k) => smallLeadContacted(k.i))) {
    const res = await api.post(ADMIN_PATHS.leadContacted(k.id), { note: `called ${k.i}` }, admin.token);
    if (res.status !== 200) throw new Error(`contacted ${k.id}: ${res.status}`);
  }
  return { api, admin, member, known, clock };
}

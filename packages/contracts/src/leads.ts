import * as v from 'valibot';
import { COMPANY_SIZES, INDUSTRIES, URGENCIES } from './enums';
import { limitParam, pageOf, pageParam } from './paging';
import { MarketAssessmentSchema } from './surveys';

/**
 * /admin/leads (mf-survey, issue 34): every market assessment as a lead. Its own entry
 * (`@app/contracts/leads`) so only the admin chunk carries it.
 */
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const day = (name: string) =>
  v.optional(
    v.union([v.literal(''), v.pipe(v.string(), v.regex(DAY, `${name} must be a date (YYYY-MM-DD)`))]),
    '',
  );
// The message sits on the union: when no option matches, valibot reports the union's issue, not its options'.
const pick = <T extends readonly [string, ...string[]]>(values: T, name: string) =>
  v.optional(v.union([v.literal(''), v.picklist(values)], `Unknown ${name}`), '');
const yesNo = (name: string) =>
  v.optional(v.union([v.literal(''), v.picklist(['yes', 'no'])], `${name} must be yes or no`), '');

/**
 * GET /api/admin/leads and GET /api/admin/leads.csv take the same filters, so the export is exactly what
 * the table shows. `from`/`to` are days, inclusive, in UTC. Empty means no filter.
 */
export const LeadFiltersSchema = v.object({
  consultation: yesNo('consultation'),
  contacted: yesNo('contacted'),
  urgency: pick(URGENCIES.values, 'urgency'),
  industry: pick(INDUSTRIES.values, 'industry'),
  companySize: pick(COMPANY_SIZES.values, 'company size'),
  from: day('from'),
  to: day('to'),
});
export type LeadFilters = v.InferOutput<typeof LeadFiltersSchema>;
export const LEAD_FILTER_KEYS = Object.keys(LeadFiltersSchema.entries) as (keyof LeadFilters)[];

export const LeadsQuerySchema = v.object({
  ...LeadFiltersSchema.entries,
  page: pageParam(),
  limit: limitParam(25),
});
export type LeadsQuery = v.InferOutput<typeof LeadsQuerySchema>;

/** One row of the table. Empty strings for answers the visitor skipped. */
export const LeadSummarySchema = v.object({
  id: v.number(),
  created_at: v.string(),
  email: v.string(),
  name: v.string(),
  company: v.string(),
  industry: v.string(),
  company_size: v.string(),
  role: v.string(),
  urgency: v.string(),
  consultation: v.boolean(),
  communication_method: v.string(),
  /** Epoch milliseconds when an admin marked the lead contacted, or null. */
  contacted_at: v.nullable(v.number()),
});
export type LeadSummary = v.InferOutput<typeof LeadSummarySchema>;
export const LeadsPageSchema = pageOf(LeadSummarySchema);
export type LeadsPage = v.InferOutput<typeof LeadsPageSchema>;

/** GET /api/admin/leads/:id: the row plus every answer as submitted and the contact note. */
export const LeadDetailSchema = v.object({
  ...LeadSummarySchema.entries,
  answers: v.object({
    ...MarketAssessmentSchema.entries,
    // Stored answers are shown as they were given, even if a list of values changed since.
    companySize: v.string(),
    industry: v.string(),
    role: v.string(),
  }),
  contacted_by: v.nullable(v.string()),
  contacted_note: v.string(),
});
export type LeadDetail = v.InferOutput<typeof LeadDetailSchema>;

/** POST /api/admin/leads/:id/contacted marks it (the note may be empty); DELETE un-marks it. */
export const LeadContactedSchema = v.object({
  note: v.optional(
    v.pipe(v.string(), v.trim(), v.maxLength(2000, 'The note must be at most 2,000 characters')),
    '',
  ),
});

import {
  BUSINESS_ROLES,
  CHALLENGES,
  COMMUNICATION_METHODS,
  COMPANY_SIZES,
  GROWTH_GOALS,
  INDUSTRIES,
  INTELLIGENCE_TOPICS,
  REPORT_FREQUENCIES,
  RISK_CONCERNS,
  URGENCIES,
  YEARS_IN_ROLE,
} from '@app/contracts';
import type { LeadDetail } from '@app/contracts/leads';
import { type CsvValue, csvRow } from '../csv';

/** The export's columns, in order (issue 34). */
export const LEAD_CSV_HEADER = [
  'id',
  'received',
  'email',
  'first name',
  'last name',
  'company',
  'phone',
  'role',
  'industry',
  'company size',
  'years in role',
  'challenges',
  'risk concerns',
  'growth goals',
  'topics',
  'report frequency',
  'urgency',
  'communication method',
  'consultation',
  'contacted at',
  'contacted by',
  'note',
] as const;

/**
 * An answer as the survey showed it (its label), so the sheet reads like the screen; a value no list
 * knows any more is written as stored, an empty one stays empty.
 */
const label = (labels: Record<string, string>, value: unknown) =>
  typeof value === 'string' ? (labels[value] ?? value) : '';
const labelList = (labels: Record<string, string>, values: unknown) =>
  Array.isArray(values) ? values.map((value) => label(labels, value)).join('; ') : '';
const text = (value: unknown) => (typeof value === 'string' ? value : '');

export function leadCsvRow(lead: LeadDetail): string {
  const a = lead.answers;
  const values: CsvValue[] = [
    lead.id,
    lead.created_at,
    lead.email,
    text(a.firstName),
    text(a.lastName),
    text(a.company),
    text(a.phone),
    label(BUSINESS_ROLES.labels, a.role),
    label(INDUSTRIES.labels, lead.industry),
    label(COMPANY_SIZES.labels, lead.company_size),
    label(YEARS_IN_ROLE.labels, a.yearsInRole),
    labelList(CHALLENGES.labels, a.primaryChallenges),
    labelList(RISK_CONCERNS.labels, a.riskConcerns),
    labelList(GROWTH_GOALS.labels, a.growthGoals),
    labelList(INTELLIGENCE_TOPICS.labels, a.intelligenceTopics),
    label(REPORT_FREQUENCIES.labels, a.reportFrequency),
    label(URGENCIES.labels, lead.urgency),
    label(COMMUNICATION_METHODS.labels, a.communicationMethod),
    lead.consultation ? 'yes' : 'no',
    lead.contacted_at === null ? '' : new Date(lead.contacted_at).toISOString(),
    lead.contacted_by ?? '',
    lead.contacted_note,
  ];
  return csvRow(values);
}

export const leadCsvHeader = () => csvRow(LEAD_CSV_HEADER);

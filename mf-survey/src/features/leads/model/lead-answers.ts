import {
  BUSINESS_ROLES,
  CHALLENGES,
  COMMUNICATION_METHODS,
  COMPANY_SIZES,
  formatDate,
  GROWTH_GOALS,
  INDUSTRIES,
  INTELLIGENCE_TOPICS,
  REPORT_FREQUENCIES,
  RISK_CONCERNS,
  URGENCIES,
  YEARS_IN_ROLE,
} from '@app/contracts';
import type { LeadDetail } from '@app/contracts/leads';
import { LEAD_FIELDS, LEADS_TEXTS } from './texts';

type Labels = { labels: Record<string, string> };

/**
 * A stored value as the survey offered it. A value no longer in the list (the list changed after the
 * visitor answered) is shown as stored rather than hidden; a skipped answer shows a dash.
 */
export function labelOf(list: Labels, value: string): string {
  if (value === '') return LEADS_TEXTS.none;
  return Object.hasOwn(list.labels, value) ? (list.labels[value] as string) : value;
}

export const yesNo = (value: boolean): string => (value ? LEADS_TEXTS.yes : LEADS_TEXTS.no);

/** When a lead came in: the §9 date and the time of day, so two leads of one day can be told apart. */
export function formatReceived(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return formatDate(value);
  const hh = String(date.getHours()).padStart(2, '0');
  const mm = String(date.getMinutes()).padStart(2, '0');
  return `${formatDate(value)}, ${hh}:${mm}`;
}

export interface AnswerRow {
  label: string;
  /** One entry per chosen option for the multiple-choice questions. */
  value: string | string[];
}

const many = (list: Labels, values: readonly string[]) => values.map((value) => labelOf(list, value));
const text = (value: string) => (value.trim() === '' ? LEADS_TEXTS.none : value);

/** Every answer of the assessment, in the survey's order, labelled as the visitor read it. */
export function answerRows({ answers: a }: LeadDetail): AnswerRow[] {
  const F = LEAD_FIELDS;
  return [
    { label: F.companySize, value: labelOf(COMPANY_SIZES, a.companySize) },
    { label: F.industry, value: labelOf(INDUSTRIES, a.industry) },
    { label: F.role, value: labelOf(BUSINESS_ROLES, a.role) },
    { label: F.yearsInRole, value: labelOf(YEARS_IN_ROLE, a.yearsInRole) },
    { label: F.primaryChallenges, value: many(CHALLENGES, a.primaryChallenges) },
    { label: F.riskConcerns, value: many(RISK_CONCERNS, a.riskConcerns) },
    { label: F.growthGoals, value: many(GROWTH_GOALS, a.growthGoals) },
    { label: F.intelligenceTopics, value: many(INTELLIGENCE_TOPICS, a.intelligenceTopics) },
    { label: F.reportFrequency, value: labelOf(REPORT_FREQUENCIES, a.reportFrequency) },
    { label: F.urgency, value: labelOf(URGENCIES, a.urgency) },
    { label: F.email, value: text(a.email) },
    { label: F.firstName, value: text(a.firstName) },
    { label: F.lastName, value: text(a.lastName) },
    { label: F.company, value: text(a.company) },
    { label: F.phone, value: text(a.phone) },
    { label: F.communicationMethod, value: labelOf(COMMUNICATION_METHODS, a.communicationMethod) },
    { label: F.consultation, value: yesNo(a.consultationInterest) },
  ];
}

import * as v from 'valibot';
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
} from './enums';
import { MESSAGES } from './messages';
import { SIMPLE_EMAIL } from './rules';

// The market assessment survey (SPEC §3), validated per step with §5's messages.

const S = MESSAGES.survey;
const optionalPick = <T extends readonly [string, ...string[]]>(values: T) =>
  v.optional(v.union([v.picklist(values), v.literal('')]), '');
const list = <T extends readonly [string, ...string[]]>(values: T) =>
  v.pipe(v.array(v.picklist(values)), v.maxLength(values.length));
const optionalText = (max: number) => v.optional(v.pipe(v.string(), v.trim(), v.maxLength(max)), '');

export const SurveyStep1Schema = v.object({
  companySize: v.pipe(
    v.string(),
    v.nonEmpty(S.companySizeRequired),
    v.picklist(COMPANY_SIZES.values, S.companySizeRequired),
  ),
  industry: v.pipe(
    v.string(),
    v.nonEmpty(S.industryRequired),
    v.picklist(INDUSTRIES.values, S.industryRequired),
  ),
  role: v.pipe(v.string(), v.nonEmpty(S.roleRequired), v.picklist(BUSINESS_ROLES.values, S.roleRequired)),
  yearsInRole: optionalPick(YEARS_IN_ROLE.values),
});
export const SurveyStep2Schema = v.object({
  primaryChallenges: v.pipe(list(CHALLENGES.values), v.minLength(1, S.challengeRequired)),
  riskConcerns: list(RISK_CONCERNS.values),
  growthGoals: list(GROWTH_GOALS.values),
});
export const SurveyStep3Schema = v.object({
  intelligenceTopics: v.pipe(list(INTELLIGENCE_TOPICS.values), v.minLength(1, S.topicRequired)),
  reportFrequency: optionalPick(REPORT_FREQUENCIES.values),
  urgency: optionalPick(URGENCIES.values),
});
export const SurveyStep4Schema = v.object({
  email: v.pipe(
    v.string(),
    v.trim(),
    v.nonEmpty(S.emailRequired),
    v.regex(SIMPLE_EMAIL, S.emailInvalid),
    v.maxLength(254, S.emailInvalid),
  ),
  firstName: optionalText(100),
  lastName: optionalText(100),
  company: optionalText(200),
  phone: optionalText(50),
  communicationMethod: optionalPick(COMMUNICATION_METHODS.values),
  consultationInterest: v.optional(v.boolean(), false),
});
export const SURVEY_STEP_SCHEMAS = [
  SurveyStep1Schema,
  SurveyStep2Schema,
  SurveyStep3Schema,
  SurveyStep4Schema,
] as const;

export const MarketAssessmentSchema = v.object({
  ...SurveyStep1Schema.entries,
  ...SurveyStep2Schema.entries,
  ...SurveyStep3Schema.entries,
  ...SurveyStep4Schema.entries,
});
export type MarketAssessment = v.InferInput<typeof MarketAssessmentSchema>;
export const MarketAssessmentResponseSchema = v.object({ id: v.number(), message: v.string() });

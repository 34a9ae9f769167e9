import {
  type MarketAssessment,
  MarketAssessmentSchema,
  SURVEY_STEP_SCHEMAS,
  type SurveyStep1Schema,
  type SurveyStep2Schema,
  type SurveyStep3Schema,
  type SurveyStep4Schema,
} from '@app/contracts';
import * as v from 'valibot';

/** What the form holds: every §3 field, in the shape the inputs edit (strings, string lists, a boolean). */
export interface SurveyValues {
  companySize: string;
  industry: string;
  role: string;
  yearsInRole: string;
  primaryChallenges: string[];
  riskConcerns: string[];
  growthGoals: string[];
  intelligenceTopics: string[];
  reportFrequency: string;
  urgency: string;
  email: string;
  firstName: string;
  lastName: string;
  company: string;
  phone: string;
  communicationMethod: string;
  consultationInterest: boolean;
}
export type SurveyField = keyof SurveyValues;
export type FieldErrors = Partial<Record<SurveyField, string>>;

// If contracts gain a field, these fail to compile until the form learns it too.
type StepKeys =
  | keyof typeof SurveyStep1Schema.entries
  | keyof typeof SurveyStep2Schema.entries
  | keyof typeof SurveyStep3Schema.entries
  | keyof typeof SurveyStep4Schema.entries;
const _sameFields: [StepKeys, SurveyField] extends [SurveyField, StepKeys] ? true : never = true;
void _sameFields;

export const EMPTY_VALUES: SurveyValues = {
  companySize: '',
  industry: '',
  role: '',
  yearsInRole: '',
  primaryChallenges: [],
  riskConcerns: [],
  growthGoals: [],
  intelligenceTopics: [],
  reportFrequency: '',
  urgency: '',
  email: '',
  firstName: '',
  lastName: '',
  company: '',
  phone: '',
  communicationMethod: '',
  consultationInterest: false,
};

/** SPEC §9: 4 steps. */
export const STEP_COUNT = SURVEY_STEP_SCHEMAS.length;
export const STEP_TITLES = [
  'Your business',
  'Challenges and goals',
  'Intelligence needs',
  'Insights delivery',
];

/** The fields of each step, in the order they appear on screen (used to find the first error). */
export const STEP_FIELDS: readonly (readonly SurveyField[])[] = SURVEY_STEP_SCHEMAS.map(
  (schema) => Object.keys(schema.entries) as SurveyField[],
);

function toFieldErrors(issues: readonly v.BaseIssue<unknown>[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const key = issue.path?.[0]?.key;
    if (typeof key === 'string' && !(key in errors)) errors[key as SurveyField] = issue.message;
  }
  return errors;
}

/** SPEC §5: a step's rules, with its exact messages, from the contracts schema the API also applies. */
export function validateStep(step: number, values: SurveyValues): FieldErrors {
  const schema = SURVEY_STEP_SCHEMAS[step];
  if (!schema) return {};
  const result = v.safeParse(schema, values);
  return result.success ? {} : toFieldErrors(result.issues);
}

/** The first step (0-based) whose rules fail, or -1 when the whole survey is valid. */
export function firstInvalidStep(values: SurveyValues): number {
  return SURVEY_STEP_SCHEMAS.findIndex((_, step) => Object.keys(validateStep(step, values)).length > 0);
}

/** SPEC §3's payload: the whole survey, trimmed, as the API expects it. Throws when a rule fails. */
export function toPayload(values: SurveyValues): MarketAssessment {
  return v.parse(MarketAssessmentSchema, values);
}

import { EMPTY_VALUES, type SurveyValues } from '../features/survey/model/survey-values';

/** The least a user must answer to complete the survey. */
export const COMPLETE_VALUES: SurveyValues = {
  ...EMPTY_VALUES,
  companySize: '51-200',
  industry: 'logistics',
  role: 'coo',
  primaryChallenges: ['supply-chain'],
  intelligenceTopics: ['market-trends'],
  email: 'coo@example.com',
};

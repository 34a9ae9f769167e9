import type { FieldErrors, SurveyField, SurveyValues } from '../model/survey-values';

export interface StepProps {
  values: SurveyValues;
  errors: FieldErrors;
  setField: <K extends SurveyField>(field: K, value: SurveyValues[K]) => void;
}

import { errorMessage, isStatus } from '@app/api-client';
import { MESSAGES } from '@app/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { submitAssessment } from '../api/submit-assessment';
import { markSurveyCompleted } from '../model/completion';
import { clearDraft, loadDraft, type SurveyDraft, saveDraft } from '../model/draft-store';
import {
  type FieldErrors,
  firstInvalidStep,
  STEP_COUNT,
  type SurveyField,
  type SurveyValues,
  toPayload,
  validateStep,
} from '../model/survey-values';

export type SubmitStatus = 'idle' | 'submitting' | 'done';

/**
 * The wizard of SPEC §4: forward only when the current step validates, back freely, submit on the last
 * step. Every change is written to the draft at once, so closing or reloading loses nothing. On success
 * the draft is cleared, the completion remembered, and `onComplete` runs (the modal closes: SPEC §4).
 */
export function useSurvey(onComplete: () => void) {
  const [draft, setDraft] = useState<SurveyDraft>(loadDraft);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [status, setStatus] = useState<SubmitStatus>('idle');
  const [submitError, setSubmitError] = useState<string | null>(null);
  /** Bumped after a failed validation so the form moves focus to the first field in error. */
  const [errorFocusRequest, setErrorFocusRequest] = useState(0);
  const submitting = useRef(false);
  const { step, values } = draft;

  useEffect(() => {
    if (status !== 'done') saveDraft(draft);
  }, [draft, status]);

  const setField = useCallback(<K extends SurveyField>(field: K, value: SurveyValues[K]) => {
    setDraft((d) => ({ ...d, values: { ...d.values, [field]: value } }));
    // SPEC §5: a field's error clears when the field is changed.
    setErrors((e) => {
      if (!(field in e)) return e;
      const { [field]: _cleared, ...rest } = e;
      return rest;
    });
  }, []);

  const fail = (nextErrors: FieldErrors) => {
    setErrors(nextErrors);
    setErrorFocusRequest((n) => n + 1);
  };

  const next = () => {
    const stepErrors = validateStep(step, values);
    if (Object.keys(stepErrors).length > 0) return fail(stepErrors);
    setErrors({});
    setDraft((d) => ({ ...d, step: Math.min(d.step + 1, STEP_COUNT - 1) }));
  };

  const previous = () => {
    setErrors({});
    setSubmitError(null);
    setDraft((d) => ({ ...d, step: Math.max(d.step - 1, 0) }));
  };

  const submit = async () => {
    if (submitting.current) return;
    const stepErrors = validateStep(step, values);
    if (Object.keys(stepErrors).length > 0) return fail(stepErrors);
    // A restored draft may have skipped a step's rules: send the user to the first step that fails.
    const invalid = firstInvalidStep(values);
    if (invalid !== -1) {
      setDraft((d) => ({ ...d, step: invalid }));
      return fail(validateStep(invalid, values));
    }
    submitting.current = true;
    setStatus('submitting');
    setSubmitError(null);
    try {
      await submitAssessment(toPayload(values), draft.idempotencyKey);
    } catch (error) {
      // SPEC §8: one fixed message; the draft (and its key, for a safe retry) stays as it is. Over a rate
      // limit (429, issue 19) the server's words say when a retry can work, so they are shown instead.
      setSubmitError(
        isStatus(error, 429) ? errorMessage(error, MESSAGES.survey.failed) : MESSAGES.survey.failed,
      );
      setStatus('idle');
      return;
    } finally {
      submitting.current = false;
    }
    // 'done' stops the draft effect from writing the answers back after they are cleared.
    setStatus('done');
    clearDraft();
    markSurveyCompleted();
    onComplete();
  };

  return { step, values, errors, status, submitError, errorFocusRequest, setField, next, previous, submit };
}

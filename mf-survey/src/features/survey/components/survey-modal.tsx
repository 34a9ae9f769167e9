import type { SurveyAppProps } from '@app/federation';
import { Alert, Button, Modal } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { type FormEvent, useEffect, useRef } from 'react';
import { STEP_COUNT, STEP_TITLES } from '../model/survey-values';
import { ProgressBar } from './progress-bar';
import { StepBusiness } from './step-business';
import { StepChallenges } from './step-challenges';
import { StepDelivery } from './step-delivery';
import { StepInterests } from './step-interests';
import type { StepProps } from './step-props';
import { SurveyComplete } from './survey-complete';
import { useSurvey } from './use-survey';

export const SURVEY_TITLE = 'Market Assessment';
export const COMPLETE_LABEL = 'Complete Assessment';

const STEPS = [StepBusiness, StepChallenges, StepInterests, StepDelivery] as const;

/** The 4-step market assessment (SPEC §2) in an accessible dialog; what the shell opens on request. */
export function SurveyModal({ onClose }: Pick<SurveyAppProps, 'onClose'>) {
  const survey = useSurvey();
  const { step, status, submitError, errorFocusRequest } = survey;
  const formRef = useRef<HTMLFormElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const firstRender = useRef(true);

  // A new step is announced by moving focus to its heading (not on open: the dialog places focus then).
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    headingRef.current?.focus();
  }, [step]);

  // After a failed Next or submit, focus goes to the first field in error (SPEC quality bar).
  useEffect(() => {
    if (errorFocusRequest > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [errorFocusRequest]);

  // The submit button was disabled while sending, which drops focus: give it back so a retry is one key away.
  useEffect(() => {
    if (submitError) formRef.current?.querySelector<HTMLElement>('button[type="submit"]')?.focus();
  }, [submitError]);

  if (status === 'done') {
    return (
      <Modal title={SURVEY_TITLE} onClose={onClose}>
        <SurveyComplete
          email={survey.values.email.trim()}
          consultation={survey.values.consultationInterest}
          onClose={onClose}
        />
      </Modal>
    );
  }

  const Step = STEPS[step] ?? StepBusiness;
  const stepProps: StepProps = { values: survey.values, errors: survey.errors, setField: survey.setField };
  const last = step === STEP_COUNT - 1;
  const submitting = status === 'submitting';
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (last) void survey.submit();
    else survey.next();
  };

  return (
    <Modal title={SURVEY_TITLE} onClose={onClose}>
      <p css={(t: Theme) => css`margin: 0 0 ${t.space(4)}; color: ${t.color.textMuted};`}>
        Tell us about your business to unlock premium risk assessments and a free consultation. It takes about
        five minutes; your answers are kept if you close this window.
      </p>
      <ProgressBar step={step + 1} total={STEP_COUNT} title={STEP_TITLES[step] ?? ''} />
      <form ref={formRef} onSubmit={onSubmit} noValidate aria-labelledby="survey-step-heading">
        <h3
          id="survey-step-heading"
          ref={headingRef}
          tabIndex={-1}
          css={(t: Theme) => css`margin: 0 0 ${t.space(4)}; font-size: ${t.font.h3};`}
        >
          {STEP_TITLES[step]}
        </h3>
        <Step {...stepProps} />
        {submitError && <Alert tone="error">{submitError}</Alert>}
        <div
          css={(t: Theme) => css`
            display: flex;
            justify-content: space-between;
            gap: ${t.space(3)};
            margin-top: ${t.space(4)};
            padding-top: ${t.space(4)};
            border-top: 1px solid ${t.color.border};
          `}
        >
          <Button variant="secondary" onClick={survey.previous} disabled={step === 0 || submitting}>
            Previous
          </Button>
          {last ? (
            <Button type="submit" disabled={submitting} aria-busy={submitting || undefined}>
              {COMPLETE_LABEL}
            </Button>
          ) : (
            <Button type="submit">Next</Button>
          )}
        </div>
        {submitting && (
          <p
            role="status"
            css={(t: Theme) => css`margin: ${t.space(2)} 0 0; text-align: right; font-size: ${t.font.small};`}
          >
            Submitting your assessment...
          </p>
        )}
      </form>
    </Modal>
  );
}

import type { SurveyAppProps } from '@app/federation';
import { Modal } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { type FormEvent, useEffect, useRef } from 'react';
import { useSurvey } from '../hooks/use-survey';
import { STEP_COUNT, STEP_TITLES } from '../model/survey-values';
import { ProgressBar } from './progress-bar';
import { SHEET_BELOW } from './sheet';
import { StepBusiness } from './step-business';
import { StepChallenges } from './step-challenges';
import { StepDelivery } from './step-delivery';
import { StepInterests } from './step-interests';
import type { StepProps } from './step-props';
import { SurveyFooter } from './survey-footer';

export { COMPLETE_LABEL } from './survey-footer';
export const SURVEY_TITLE = 'Market Assessment';

const STEPS = [StepBusiness, StepChallenges, StepInterests, StepDelivery] as const;

/**
 * Brings a field and its error message into view. A select's message sits under it in the field's frame;
 * a checkbox group's under its legend. Focus alone would scroll only the control, and could leave the
 * message under the sticky footer.
 */
function revealField(field: HTMLElement) {
  field.focus({ preventScroll: true });
  const frame = field.closest('fieldset') ?? field.parentElement ?? field;
  frame.scrollIntoView({ block: 'nearest' });
}

/**
 * The 4-step market assessment (SPEC §2) in an accessible dialog; what the shell opens on request. On
 * success it closes (SPEC §4); the thanks are the shell's to show, outside the dialog.
 */
export function SurveyModal({ onClose }: Pick<SurveyAppProps, 'onClose'>) {
  const survey = useSurvey(onClose);
  const { step, status, submitError, errorFocusRequest } = survey;
  const formRef = useRef<HTMLFormElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const shownStep = useRef(step);

  // A new step is announced by moving focus to its heading (not on open: the dialog places focus then).
  useEffect(() => {
    if (shownStep.current === step) return;
    shownStep.current = step;
    headingRef.current?.focus();
  }, [step]);

  // After a failed Next or submit, focus goes to the first field in error, which is scrolled into view.
  useEffect(() => {
    const field = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    if (errorFocusRequest > 0 && field) revealField(field);
  }, [errorFocusRequest]);

  // The submit button was disabled while sending, which drops focus: give it back so a retry is one key away.
  useEffect(() => {
    if (submitError) formRef.current?.querySelector<HTMLElement>('button[type="submit"]')?.focus();
  }, [submitError]);

  const Step = STEPS[step] ?? StepBusiness;
  const stepProps: StepProps = { values: survey.values, errors: survey.errors, setField: survey.setField };
  const last = step === STEP_COUNT - 1;
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (last) void survey.submit();
    else survey.next();
  };

  return (
    <Modal title={SURVEY_TITLE} onClose={onClose} fullScreenBelow={SHEET_BELOW}>
      <p css={(t: Theme) => css`margin: 0 0 ${t.space(4)}; color: ${t.color.textMuted};`}>
        Tell us about your business to unlock premium risk assessments and a free consultation. It takes about
        five minutes; your answers are kept if you close this window.
      </p>
      <ProgressBar step={step + 1} total={STEP_COUNT} title={STEP_TITLES[step] ?? ''} />
      <form
        ref={formRef}
        onSubmit={onSubmit}
        noValidate
        aria-labelledby="survey-step-heading"
        css={(t: Theme) => css`
          /* Scrolled to, a field keeps clear of the sticky footer (and the sheet's sticky title bar). */
          & > * { scroll-margin: ${t.space(4)} 0 120px; }
          @media (max-width: ${SHEET_BELOW - 0.02}px) {
            & > * { scroll-margin-top: 72px; }
          }
        `}
      >
        <h3
          id="survey-step-heading"
          ref={headingRef}
          tabIndex={-1}
          css={(t: Theme) => css`margin: 0 0 ${t.space(4)}; font-size: ${t.font.h3};`}
        >
          {STEP_TITLES[step]}
        </h3>
        <Step {...stepProps} />
        <SurveyFooter
          first={step === 0}
          last={last}
          submitting={status === 'submitting'}
          submitError={submitError}
          onPrevious={survey.previous}
        />
      </form>
    </Modal>
  );
}

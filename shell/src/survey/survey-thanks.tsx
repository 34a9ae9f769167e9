import { SURVEY_COMPLETED_KEY } from '@app/contracts';
import { CheckIcon, CloseIcon } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { useCallback, useEffect, useRef, useState } from 'react';

export const THANKS_TITLE = 'Thank you! Your assessment is complete.';
export const THANKS_TEXT = 'Your premium risk assessments are on their way to your inbox.';

/**
 * Whether the survey that just closed was completed. mf-survey announces a completion as a 'storage' event
 * on SURVEY_COMPLETED_KEY right before it closes itself (SPEC §4: on success the modal closes), so the
 * shell needs no new prop in the remote contract. Only events heard while this survey was open count.
 */
export function useSurveyThanks(open: boolean, onClose: () => void) {
  const [thanks, setThanks] = useState(false);
  const completed = useRef(false);

  useEffect(() => {
    if (!open) return;
    completed.current = false;
    setThanks(false);
    const onStorage = (event: StorageEvent) => {
      if (event.key === SURVEY_COMPLETED_KEY && event.newValue) completed.current = true;
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [open]);

  const close = useCallback(() => {
    if (completed.current) setThanks(true);
    onClose();
  }, [onClose]);

  return { close, thanks, dismiss: useCallback(() => setThanks(false), []) };
}

/**
 * The thanks after a completed survey, outside the closed dialog: a notice at the foot of the screen that
 * stays until dismissed. The status region is always rendered, so screen readers announce (politely) the
 * text that appears in it.
 */
export function SurveyThanks({ shown, onDismiss }: { shown: boolean; onDismiss: () => void }) {
  const noticeRef = useRef<HTMLElement>(null);

  // If the button that opened the survey is gone (Home's unlock buttons are, once completed), focus would
  // be left on <body>: the notice takes it instead, so a keyboard user continues from here.
  useEffect(() => {
    if (shown && (document.activeElement === document.body || !document.activeElement)) {
      noticeRef.current?.focus();
    }
  }, [shown]);

  return (
    <div
      role="status"
      css={(t: Theme) => css`
        position: fixed;
        right: ${t.space(4)};
        bottom: ${t.space(4)};
        z-index: 900;
        width: min(420px, calc(100vw - ${t.space(8)}));
      `}
    >
      {shown && (
        <section
          ref={noticeRef}
          tabIndex={-1}
          aria-labelledby="survey-thanks-title"
          css={(t: Theme) => css`
            display: flex;
            align-items: flex-start;
            gap: ${t.space(3)};
            padding: ${t.space(4)};
            background: ${t.color.surface};
            color: ${t.color.text};
            border: 1px solid ${t.color.border};
            border-left: 4px solid ${t.color.success};
            border-radius: ${t.radius.md};
            box-shadow: 0 12px 32px rgba(0, 0, 0, 0.25);
            &:focus-visible { outline: 2px solid ${t.color.primary}; outline-offset: 2px; }
          `}
        >
          <span
            css={(t: Theme) => css`
              display: inline-flex;
              flex: 0 0 auto;
              padding: ${t.space(1)};
              border-radius: ${t.radius.pill};
              background: ${t.color.successBg};
              color: ${t.color.success};
            `}
          >
            <CheckIcon size={18} />
          </span>
          <div css={css`flex: 1; min-width: 0;`}>
            <p id="survey-thanks-title" css={css`margin: 0 0 4px; font-weight: 700;`}>
              {THANKS_TITLE}
            </p>
            <p css={(t: Theme) => css`margin: 0; color: ${t.color.textMuted};`}>{THANKS_TEXT}</p>
          </div>
          <button
            type="button"
            aria-label="Dismiss"
            onClick={onDismiss}
            css={(t: Theme) => css`
              display: inline-flex;
              flex: 0 0 auto;
              padding: ${t.space(1)};
              border: none;
              border-radius: ${t.radius.sm};
              background: none;
              color: ${t.color.textMuted};
              cursor: pointer;
              &:hover { color: ${t.color.text}; background: ${t.color.surfaceAlt}; }
            `}
          >
            <CloseIcon size={20} />
          </button>
        </section>
      )}
    </div>
  );
}

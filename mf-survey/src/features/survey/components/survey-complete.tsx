import { Button } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { useEffect, useRef } from 'react';

export const COMPLETE_TITLE = 'Thank you! Your assessment is complete.';
export const DONE_LABEL = 'Done';

/**
 * SPEC §4: success ends the survey and the user learns what happens next. The shell unmounts this remote
 * when it closes, so the confirmation is the survey's last view, with one button that closes the dialog.
 */
export function SurveyComplete({
  email,
  consultation,
  onClose,
}: {
  email: string;
  consultation: boolean;
  onClose: () => void;
}) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    headingRef.current?.focus();
  }, []);
  return (
    <div role="status">
      <h3
        ref={headingRef}
        tabIndex={-1}
        css={(t: Theme) => css`margin: 0 0 ${t.space(3)}; font-size: ${t.font.h3};`}
      >
        {COMPLETE_TITLE}
      </h3>
      <p css={css`margin: 0 0 8px; font-weight: 600;`}>What happens next</p>
      <ol
        css={(t: Theme) =>
          css`margin: 0 0 ${t.space(6)}; padding-left: 1.3em; display: grid; gap: ${t.space(2)};`
        }
      >
        <li>
          Within two business days our analysts send your premium risk assessments, matched to your answers,
          to <strong>{email}</strong>.
        </li>
        <li>
          {consultation
            ? 'An analyst will contact you to arrange your free consultation at a time that suits you.'
            : 'If you would like to talk the results through, reply to that email to book a free consultation.'}
        </li>
        <li>Until then, the Research Center has our latest public research.</li>
      </ol>
      <Button onClick={onClose}>{DONE_LABEL}</Button>
    </div>
  );
}

import { Alert } from '@app/ui';
import { css } from '@emotion/react';

export type Feedback = { tone: 'success' | 'error'; text: string };

/**
 * The result of one profile action, rendered right under the control that caused it (and named in that
 * control's aria-describedby), so sighted and screen reader users find it where they acted.
 */
export function ActionFeedback({ id, feedback }: { id: string; feedback: Feedback | null }) {
  if (!feedback) return null;
  return (
    <Alert id={id} tone={feedback.tone} css={css`margin: 0;`}>
      {feedback.text}
    </Alert>
  );
}

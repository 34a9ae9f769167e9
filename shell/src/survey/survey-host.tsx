import { MESSAGES } from '@app/contracts';
import type { SurveyAppProps } from '@app/federation';
import { Alert, Button, Modal, Skeleton } from '@app/ui';
import { css } from '@emotion/react';
import { RemoteRegion } from '../federation/remote-region';

/**
 * The shell's side of "open the survey" (docs/decisions/0004-shell-actions.md): when asked, it loads
 * mf-survey and renders its modal. mf-public-pages only calls openSurvey() and never sees mf-survey.
 */
export function SurveyHost({ open, onClose }: { open: boolean; onClose: () => void }) {
  if (!open) return null;
  return (
    <RemoteRegion<SurveyAppProps>
      name="mf_survey"
      props={{ embedded: true, onClose }}
      fallback={
        <Modal title="Market Assessment" onClose={onClose}>
          <div aria-busy="true" css={css`display: grid; gap: 12px; min-height: 320px;`}>
            <Skeleton height="8px" />
            <Skeleton height="40px" />
            <Skeleton height="40px" />
            <Skeleton height="40px" />
          </div>
        </Modal>
      }
      renderError={(retry) => (
        <Modal title="Market Assessment" onClose={onClose}>
          <Alert tone="error">
            <strong>{MESSAGES.app.remoteFailedTitle}</strong>
            <p>{MESSAGES.app.remoteFailedText}</p>
          </Alert>
          <div css={css`display: flex; gap: 12px;`}>
            <Button onClick={retry}>{MESSAGES.app.retry}</Button>
            <Button variant="secondary" onClick={onClose}>
              Close
            </Button>
          </div>
        </Modal>
      )}
    />
  );
}

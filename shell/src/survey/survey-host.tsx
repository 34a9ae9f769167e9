import { MESSAGES } from '@app/contracts';
import { Alert, Button, Modal, Skeleton } from '@app/ui';
import { css } from '@emotion/react';
import { RemoteRegion } from '../federation/remote-region';
import { SurveyThanks, useSurveyThanks } from './survey-thanks';

/** mf-survey's dialog becomes a full-screen sheet below this width; the placeholders match it. */
const SHEET_BELOW = 640;

/**
 * The shell's side of "open the survey" (docs/decisions/0004-shell-actions.md): when asked, it loads
 * mf-survey and renders its modal. mf-public-pages only calls openSurvey() and never sees mf-survey.
 * A completed survey closes itself; the thanks follow here, outside it.
 */
export function SurveyHost({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { close, thanks, dismiss } = useSurveyThanks(open, onClose);
  return (
    <>
      {open && (
        <RemoteRegion
          name="mf_survey"
          props={{ onClose: close }}
          fallback={
            <Modal title="Market Assessment" onClose={close} fullScreenBelow={SHEET_BELOW}>
              <div aria-busy="true" css={css`display: grid; gap: 12px; min-height: 320px;`}>
                <Skeleton height="8px" />
                <Skeleton height="40px" />
                <Skeleton height="40px" />
                <Skeleton height="40px" />
              </div>
            </Modal>
          }
          renderError={(retry) => (
            <Modal title="Market Assessment" onClose={close} fullScreenBelow={SHEET_BELOW}>
              <Alert tone="error">
                <strong>{MESSAGES.app.remoteFailedTitle}</strong>
                <p>{MESSAGES.app.remoteFailedText}</p>
              </Alert>
              <div css={css`display: flex; gap: 12px;`}>
                <Button onClick={retry}>{MESSAGES.app.retry}</Button>
                <Button variant="secondary" onClick={close}>
                  Close
                </Button>
              </div>
            </Modal>
          )}
        />
      )}
      <SurveyThanks shown={thanks} onDismiss={dismiss} />
    </>
  );
}

import { Alert, ArrowLeftIcon, ArrowRightIcon, Button } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { SHEET_BELOW } from './sheet';

export const COMPLETE_LABEL = 'Complete Assessment';

/**
 * Previous / Next (Complete Assessment on the last step), pinned to the bottom of the dialog's scroll area,
 * so on a phone they are never below the fold. A failed submit shows its error here, next to the button
 * that retries it, so it is in view wherever the page was scrolled.
 */
export function SurveyFooter({
  first,
  last,
  submitting,
  submitError,
  onPrevious,
}: {
  first: boolean;
  last: boolean;
  submitting: boolean;
  submitError: string | null;
  onPrevious: () => void;
}) {
  return (
    <div
      css={(t: Theme) => css`
        position: sticky;
        /* A sticky offset counts from inside the scroller's padding: the modal's backdrop pads 5vh, and the
           footer belongs at the screen's edge. */
        bottom: -5vh;
        z-index: 1;
        margin-top: ${t.space(4)};
        padding: ${t.space(3)} 0;
        background: ${t.color.surface};
        border-top: 1px solid ${t.color.border};
        & > [role='alert'] { margin-top: 0; }
        @media (max-width: ${SHEET_BELOW - 0.02}px) {
          /* Edge to edge on the sheet, down to the screen's bottom (past a phone's home indicator). */
          bottom: 0;
          margin: ${t.space(4)} -${t.space(4)} -${t.space(4)};
          padding: ${t.space(3)} ${t.space(4)} max(${t.space(3)}, env(safe-area-inset-bottom));
        }
      `}
    >
      {submitError && <Alert tone="error">{submitError}</Alert>}
      <div
        css={(t: Theme) => css`
          display: flex;
          justify-content: space-between;
          gap: ${t.space(3)};
          @media (max-width: ${SHEET_BELOW - 0.02}px) {
            /* The forward button takes the rest of the row and the arrows go, so "Complete Assessment"
               fits on one line at 390 px. */
            & > button[type='submit'] { flex: 1 1 auto; }
            & > button svg { display: none; }
          }
        `}
      >
        <Button variant="secondary" onClick={onPrevious} disabled={first || submitting}>
          <ArrowLeftIcon size={18} />
          Previous
        </Button>
        {last ? (
          <Button type="submit" disabled={submitting} aria-busy={submitting || undefined}>
            {COMPLETE_LABEL}
          </Button>
        ) : (
          <Button type="submit">
            Next
            <ArrowRightIcon size={18} />
          </Button>
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
    </div>
  );
}

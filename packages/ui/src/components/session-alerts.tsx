import { errorMessage, isStatus } from '@app/api-client';
import { MESSAGES } from '@app/contracts';
import { Link } from '@app/router';
import { Button } from './button';
import { inlineLinkStyles } from './link';
import { Alert } from './surface';

/**
 * SPEC §8 Research: 'Session expired. Please log in again.' with the way back in. Shown by a screen that keeps
 * the visitor in place after a 401 ended the session (it reads `useSession().sessionExpired`). `newTab` opens
 * Log In beside the page, for a form whose typed text must not be lost.
 */
export function SessionExpiredNotice({ newTab = false }: { newTab?: boolean }) {
  return (
    <Alert tone="warning">
      <span>{MESSAGES.research.sessionExpired}</span>{' '}
      <Link to="/login" css={inlineLinkStyles} {...(newTab && { target: '_blank', rel: 'noopener' })}>
        {newTab ? 'Log In (opens a new tab)' : 'Log In'}
      </Link>
    </Alert>
  );
}

export interface LoadErrorAlertProps {
  /** What the load threw; nothing is shown without one. */
  error: unknown;
  /** The screen's text when the server gives none (SPEC §8: e.g. 'Error loading research content'). */
  fallback: string;
  /** Offers Retry when given. */
  onRetry?: () => void;
}

/**
 * A failed load, said the SPEC §8 way: the server's error, else the screen's fallback, with Retry. A 401 shows
 * nothing here: it ended the session, and the session's own flow says so (a notice, or the Login page).
 */
export function LoadErrorAlert({ error, fallback, onRetry }: LoadErrorAlertProps) {
  if (!error || isStatus(error, 401)) return null;
  return (
    <Alert tone="error">
      {errorMessage(error, fallback)}{' '}
      {onRetry && (
        <Button size="sm" variant="secondary" onClick={onRetry}>
          {MESSAGES.app.retry}
        </Button>
      )}
    </Alert>
  );
}

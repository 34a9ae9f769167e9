import { Link } from '@app/router';
import { useSession } from '@app/session';
import { useShellActions } from '@app/shell-actions';
import { Button, buttonStyles, Container } from '@app/ui';
import { LOCKED_GENERIC } from '../../../lib/lock-text';
import { actionsCss, emptyCss } from '../../research-center/components/guest-empty-state';

/** A post the caller may not open (the API's 403): no content, and the way up — Login or Upgrade. */
export function LockedPostPage() {
  const { isLoggedIn } = useSession();
  const { openSurvey } = useShellActions();
  return (
    <Container>
      <div css={emptyCss}>
        <h1>
          <span aria-hidden="true">🔒 </span>Locked research
        </h1>
        <p>{LOCKED_GENERIC}</p>
        <div css={actionsCss}>
          {isLoggedIn ? (
            <Button onClick={openSurvey}>Upgrade</Button>
          ) : (
            <Link to="/login" css={buttonStyles('primary')}>
              Login
            </Link>
          )}
          <Link to="/research-center" css={buttonStyles('secondary')}>
            Back to Research Center
          </Link>
        </div>
      </div>
    </Container>
  );
}

/** A missing post, or a draft or admin-only post the API will not disclose (404). */
export function MissingPostPage() {
  return (
    <Container>
      <div css={emptyCss}>
        <h1>Research not found</h1>
        <p>This research does not exist, was deleted, or is not available to you.</p>
        <div css={actionsCss}>
          <Link to="/research-center" css={buttonStyles('primary')}>
            Back to Research Center
          </Link>
        </div>
      </div>
    </Container>
  );
}

import type { Visibility } from '@app/contracts';
import { Link } from '@app/router';
import { useSession } from '@app/session';
import { buttonStyles, LockIcon, VisuallyHidden } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { LOCK_ACTIONS, lockMessage } from '../../../lib/lock-text';

const rowCss = (t: Theme) => css`
  display: flex;
  flex-wrap: wrap;
  gap: ${t.space(2)};
  align-items: center;
`;

/** The lock message with its icon, in the warning colour (readable in both themes). */
export function LockNotice({ visibility }: { visibility: Visibility }) {
  return (
    <p
      css={(t: Theme) => css`
        display: flex;
        gap: ${t.space(2)};
        align-items: flex-start;
        margin: 0;
        color: ${t.color.warning};
        font-weight: 600;
      `}
    >
      <LockIcon size={18} css={css`flex: none; margin-top: 2px;`} />
      <span>{lockMessage(visibility)}</span>
    </p>
  );
}

/**
 * SPEC §2's Login or Upgrade, as the issue words it: guests get Log In and Sign Up, members Upgrade (the
 * Plans page). `about` names the post for screen readers, where several cards each have these links.
 */
export function LockedActions({ about, size = 'sm' }: { about?: string; size?: 'sm' | 'md' }) {
  const { isLoggedIn } = useSession();
  const what = about ? <VisuallyHidden>to read {about}</VisuallyHidden> : null;
  if (isLoggedIn)
    return (
      <div css={rowCss}>
        <Link to={LOCK_ACTIONS.plansPath} css={buttonStyles('primary', size)}>
          {LOCK_ACTIONS.upgrade} {what}
        </Link>
      </div>
    );
  return (
    <div css={rowCss}>
      <Link to="/login" css={buttonStyles('primary', size)}>
        {LOCK_ACTIONS.login} {what}
      </Link>
      <Link to="/register" css={buttonStyles('secondary', size)}>
        {LOCK_ACTIONS.signUp} {what}
      </Link>
    </div>
  );
}

import { isAdmin } from '@app/contracts';
import { useSession } from '@app/session';
import { Container, Skeleton, usePageTitle } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { MEMBERS_TEXTS as T } from '../texts';
import { AdminOnly } from './admin-only';
import { MembersScreen } from './members-screen';

/**
 * /admin/members (issue 34): who waits for activation and from which address, letting them in or turning
 * them away, tiers, search and paging. The shell sends a visitor without a token to /login (route table);
 * a logged-in member sees "Administrators only", and the API refuses them (403) whatever this shows.
 */
export function MembersPage() {
  usePageTitle(T.title);
  const { roles, profileStatus, isLoggedIn } = useSession();
  // Until the profile says who this is, nothing is asked; a profile that could not load leaves it to the API.
  const waiting = profileStatus === 'loading' || (isLoggedIn && profileStatus === 'none');
  const allowed = isAdmin(roles) || profileStatus === 'error';
  return (
    <Container>
      <h1 css={css`margin: 0;`}>{T.title}</h1>
      <p css={(t: Theme) => css`color: ${t.color.textMuted}; margin: ${t.space(1)} 0 ${t.space(2)};`}>
        {T.intro}
      </p>
      {waiting ? <Skeleton height="240px" /> : allowed ? <MembersScreen /> : <AdminOnly />}
    </Container>
  );
}

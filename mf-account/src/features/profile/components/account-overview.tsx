import { formatDate, type Profile } from '@app/contracts';
import { Badge, Card } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { TEXTS } from '../../../lib/texts';

const T = TEXTS.profile;

export const definitionList = (t: Theme) => css`
  display: grid;
  grid-template-columns: minmax(110px, max-content) 1fr;
  gap: ${t.space(2)} ${t.space(4)};
  margin: 0;
  dt { font-weight: 600; color: ${t.color.textMuted}; }
  dd { margin: 0; overflow-wrap: anywhere; }
`;

/** SPEC §2: status, member since and roles. */
export function AccountOverview({ profile }: { profile: Profile }) {
  return (
    <Card aria-labelledby="account-overview-title">
      <h2 id="account-overview-title" css={css`margin: 0 0 8px; font-size: 1.25rem;`}>
        {T.overview}
      </h2>
      <dl css={definitionList}>
        <dt>{T.status}</dt>
        <dd>
          <Badge tone={profile.is_active ? 'success' : 'warning'}>
            {profile.is_active ? T.active : T.inactive}
          </Badge>
        </dd>
        <dt>{T.memberSince}</dt>
        <dd>{formatDate(profile.created_at)}</dd>
        <dt>{T.roles}</dt>
        <dd>
          {profile.roles.length === 0 ? (
            T.noRoles
          ) : (
            <span css={css`display: inline-flex; flex-wrap: wrap; gap: 6px;`}>
              {profile.roles.map((role) => (
                <Badge key={role} tone="info">
                  {role}
                </Badge>
              ))}
            </span>
          )}
        </dd>
      </dl>
    </Card>
  );
}

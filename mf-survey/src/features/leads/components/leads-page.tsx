import { isStatus } from '@app/api-client';
import { isAdmin } from '@app/contracts';
import { useSession } from '@app/session';
import { Alert, Container, Skeleton, usePageTitle } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { useLeadQuery } from '../hooks/use-lead-query';
import { useLeadsPage } from '../hooks/use-leads-page';
import { LEADS_TEXTS as T } from '../model/texts';
import { LeadDetailDialog } from './lead-detail-dialog';
import { LeadsFilters } from './leads-filters';
import { LeadsResults } from './leads-results';

function AdminOnly() {
  return (
    <Alert tone="error">
      <strong>{T.adminOnlyTitle}</strong>. {T.adminOnlyText}
    </Alert>
  );
}

/**
 * /admin/leads (issue 34): every market assessment as a lead. The menu and this check only decide what is
 * shown; the API refuses anyone but an administrator (a 403 shows the same notice).
 */
export default function LeadsPage() {
  usePageTitle(T.title);
  const { roles, profileStatus } = useSession();
  const admin = isAdmin(roles);
  const query = useLeadQuery();
  const list = useLeadsPage(query.filters, query.page, admin);
  const profileKnown = profileStatus === 'loaded' || profileStatus === 'error';
  const refused = (!admin && profileKnown) || isStatus(list.error, 403);
  return (
    <Container>
      <h1 css={css`margin-top: 0;`}>{T.title}</h1>
      {refused ? (
        <AdminOnly />
      ) : !admin ? (
        <div aria-busy="true" css={css`display: grid; gap: 16px;`}>
          <Skeleton height="120px" />
          <Skeleton height="320px" />
        </div>
      ) : (
        <>
          <p css={(t: Theme) => css`color: ${t.color.textMuted}; margin-top: 0;`}>{T.intro}</p>
          <LeadsFilters filters={query.filters} onChange={query.setFilter} onClear={query.clearFilters} />
          <LeadsResults
            list={list}
            filters={query.filters}
            onPage={query.setPage}
            leadSearch={query.leadSearch}
          />
          {query.lead !== null && (
            <LeadDetailDialog
              key={query.lead}
              id={query.lead}
              onClose={query.closeLead}
              onChanged={list.reload}
            />
          )}
        </>
      )}
    </Container>
  );
}

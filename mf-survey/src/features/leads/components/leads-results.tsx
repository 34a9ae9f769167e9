import { formatCount } from '@app/contracts';
import type { LeadFilters, LeadsPage } from '@app/contracts/leads';
import type { ServerState } from '@app/server-state';
import { Alert, Button, LoadErrorAlert, Skeleton } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { pageCount } from '../model/lead-query';
import { LEADS_TEXTS as T } from '../model/texts';
import { ExportCsvButton } from './export-csv-button';
import { LeadsPager } from './leads-pager';
import { LeadsTable } from './leads-table';

interface LeadsResultsProps {
  list: ServerState<LeadsPage> & { reload: () => void };
  filters: LeadFilters;
  onPage: (page: number) => void;
  leadSearch: (id: number) => string;
}

/**
 * The list's states: loading (placeholders), the API's error with Retry, no match, a page past the end,
 * or the table. While new filters load, the previous rows stay (marked busy) instead of jumping away.
 */
export function LeadsResults({ list, filters, onPage, leadSearch }: LeadsResultsProps) {
  const data = list.data;
  const loading = list.status === 'loading';
  const pages = data ? pageCount(data.total, data.limit) : 1;
  return (
    <div aria-busy={loading}>
      <div
        css={(t: Theme) => css`
          display: flex;
          flex-wrap: wrap;
          justify-content: space-between;
          align-items: center;
          gap: ${t.space(3)};
          margin-bottom: ${t.space(3)};
        `}
      >
        <p css={css`margin: 0; font-weight: 600;`} aria-live="polite">
          {data && !loading ? T.total(formatCount(data.total)) : '\u00a0'}
        </p>
        <ExportCsvButton filters={filters} total={data?.total ?? null} stale={loading} />
      </div>
      <LoadErrorAlert error={list.error} fallback={T.loadFailed} onRetry={list.reload} />
      {!data && loading && (
        <div css={css`display: grid; gap: 8px;`}>
          {[0, 1, 2, 3, 4, 5].map((row) => (
            <Skeleton key={row} height="36px" />
          ))}
        </div>
      )}
      {data && data.total === 0 && !loading && <Alert tone="info">{T.empty}</Alert>}
      {data && data.total > 0 && data.items.length === 0 && !loading && (
        <Alert tone="info">
          {T.pastLastPage}{' '}
          <Button size="sm" variant="secondary" onClick={() => onPage(1)}>
            {T.firstPage}
          </Button>
        </Alert>
      )}
      {data && data.items.length > 0 && (
        <>
          <LeadsTable
            leads={data.items}
            caption={`${T.tableLabel}, ${T.pageOf(formatCount(data.page), formatCount(pages))}`}
            leadSearch={leadSearch}
          />
          <LeadsPager page={data.page} pages={pages} total={data.total} busy={loading} onPage={onPage} />
        </>
      )}
    </div>
  );
}

import { formatCount } from '@app/contracts';
import { Button } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { MEMBERS_TEXTS as T } from '../texts';

/** Number of pages for a total; an empty list is still "Page 1 of 1". */
export const pageCount = (total: number, limit: number) => Math.max(1, Math.ceil(total / limit));

/** Previous / Next with "Page X of Y" and the total: the server pages, the browser never holds them all. */
export function Pager({
  page,
  total,
  limit,
  onPage,
}: {
  page: number;
  total: number;
  limit: number;
  onPage: (page: number) => void;
}) {
  const pages = pageCount(total, limit);
  return (
    <nav
      aria-label={T.paging}
      css={(t: Theme) => css`
        display: flex;
        flex-wrap: wrap;
        align-items: center;
        justify-content: space-between;
        gap: ${t.space(3)};
        margin-top: ${t.space(4)};
      `}
    >
      <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {T.previous}
      </Button>
      <p aria-live="polite" css={css`margin: 0;`}>
        {T.pageOf(Math.min(page, pages), pages)} · {T.total(total, formatCount(total))}
      </p>
      <Button variant="secondary" size="sm" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {T.next}
      </Button>
    </nav>
  );
}

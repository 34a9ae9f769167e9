import { formatCount } from '@app/contracts';
import { Button } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { LEADS_TEXTS as T } from '../model/texts';

interface LeadsPagerProps {
  page: number;
  pages: number;
  total: number;
  busy: boolean;
  onPage: (page: number) => void;
}

/** Previous / Next with where we are: the server pages, so 100,000 leads cost one page of rows at a time. */
export function LeadsPager({ page, pages, total, busy, onPage }: LeadsPagerProps) {
  return (
    <nav
      aria-label="Pages"
      css={(t: Theme) => css`
        display: flex;
        flex-wrap: wrap;
        align-items: center;
        gap: ${t.space(3)};
        margin-top: ${t.space(4)};
      `}
    >
      <Button variant="secondary" disabled={busy || page <= 1} onClick={() => onPage(page - 1)}>
        {T.previous}
      </Button>
      <span aria-live="polite">
        {T.pageOf(formatCount(page), formatCount(pages))} · {T.total(formatCount(total))}
      </span>
      <Button variant="secondary" disabled={busy || page >= pages} onClick={() => onPage(page + 1)}>
        {T.next}
      </Button>
    </nav>
  );
}

import { api, errorMessage } from '@app/api-client';
import { isAdmin as hasAdminRole } from '@app/contracts';
import { ADMIN_PATHS } from '@app/contracts/admin-paths';
import {
  OUTBOX_STATUSES,
  type OutboxPage,
  OutboxPageSchema,
  type OutboxStatus,
  type OutboxSummary,
  OutboxSummarySchema,
} from '@app/contracts/outbox';
import { useSession } from '@app/session';
import { Alert, Badge, Button, Container, Skeleton, usePageTitle, visuallyHiddenStyles } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { type ReactNode, useCallback, useEffect, useState } from 'react';
import { deliveryFailing, publishOutboxSummary } from './outbox-alert';
import { nextAttempt, OutboxMailDetail, STATUS_TONES } from './outbox-mail';
import { formatTime, STATUS_LABELS, OUTBOX_TEXTS as T } from './outbox-texts';

const LIMIT = 20;

type Load =
  | { status: 'loading' }
  | { status: 'ready'; summary: OutboxSummary; page: OutboxPage }
  | { status: 'error'; message: string };

/** What the banner says: delivery failing, no SMTP server (the embedded default), or working. */
export function SummaryBanner({ summary }: { summary: OutboxSummary }) {
  const { counts, lastError } = summary;
  if (lastError && deliveryFailing(summary)) {
    return (
      <Alert tone="error">
        {T.failing(lastError.error, formatTime(lastError.at), counts.pending + counts.sending, counts.failed)}
      </Alert>
    );
  }
  if (!summary.smtpConfigured) return <Alert tone="info">{T.noSmtp}</Alert>;
  return (
    <Alert tone={counts.failed > 0 ? 'warning' : 'success'}>
      {T.working(summary.lastSentAt === null ? null : formatTime(summary.lastSentAt))}
      {counts.failed > 0 && ` ${T.failedKept(counts.failed)}`}
    </Alert>
  );
}

const tableCss = (t: Theme) => css`
  width: 100%;
  border-collapse: collapse;
  font-size: ${t.font.small};
  th, td { text-align: left; padding: ${t.space(2)}; border-bottom: 1px solid ${t.color.border}; vertical-align: top; }
  td:first-of-type, td:nth-of-type(2) { overflow-wrap: anywhere; }
`;

/**
 * /admin/outbox (issue 34): every mail the product sent or would send, for administrators, owned by the
 * shell like Rollouts. The banner says whether mail is going out; the list and a mail's attempts say why not.
 */
export default function OutboxScreen() {
  usePageTitle(T.title);
  const { roles, profileStatus } = useSession();
  const isAdmin = hasAdminRole(roles);
  const [filter, setFilter] = useState<OutboxStatus | 'all'>('all');
  const [pageNo, setPageNo] = useState(1);
  const [openId, setOpenId] = useState<number | null>(null);
  const [load, setLoad] = useState<Load>({ status: 'loading' });

  const fetchOutbox = useCallback(
    async (signal?: AbortSignal) => {
      setLoad({ status: 'loading' });
      const searchParams = { page: pageNo, limit: LIMIT, status: filter === 'all' ? undefined : filter };
      try {
        const [summary, page] = await Promise.all([
          api.get(ADMIN_PATHS.outboxSummary, OutboxSummarySchema, { signal }),
          api.get(ADMIN_PATHS.outbox, OutboxPageSchema, { signal, searchParams }),
        ]);
        setLoad({ status: 'ready', summary, page });
        publishOutboxSummary(summary);
      } catch (error) {
        if (!signal?.aborted) setLoad({ status: 'error', message: errorMessage(error, T.loadError) });
      }
    },
    [filter, pageNo],
  );
  useEffect(() => {
    if (!isAdmin) return;
    const controller = new AbortController();
    void fetchOutbox(controller.signal);
    return () => controller.abort();
  }, [isAdmin, fetchOutbox]);

  const choose = (next: OutboxStatus | 'all') => {
    setFilter(next);
    setPageNo(1);
    setOpenId(null);
  };

  let body: ReactNode;
  if (!isAdmin && profileStatus !== 'loading' && profileStatus !== 'none') {
    body = <Alert tone="error">{T.adminOnly}</Alert>;
  } else if (!isAdmin || load.status === 'loading') {
    body = (
      <div aria-busy="true" css={css`display: grid; gap: 16px;`}>
        <Skeleton height="56px" />
        <Skeleton height="320px" />
      </div>
    );
  } else if (load.status === 'error') {
    body = (
      <Alert tone="error">
        <p>{load.message}</p>
        <Button onClick={() => void fetchOutbox()}>Retry</Button>
      </Alert>
    );
  } else {
    const { summary, page } = load;
    const open = page.items.find((m) => m.id === openId);
    const pages = Math.max(1, Math.ceil(page.total / page.limit));
    body = (
      <div css={(t: Theme) => css`display: grid; gap: ${t.space(4)};`}>
        <SummaryBanner summary={summary} />
        {/* Nothing polls: the administrator asks again, e.g. after fixing SMTP_URL or the relay. */}
        <div>
          <Button size="sm" variant="secondary" onClick={() => void fetchOutbox()}>
            Refresh
          </Button>
        </div>
        <fieldset css={css`display: flex; flex-wrap: wrap; gap: 8px; border: 0; margin: 0; padding: 0;`}>
          <legend css={visuallyHiddenStyles}>Status</legend>
          {(['all', ...OUTBOX_STATUSES] as const).map((s) => (
            <Button
              key={s}
              size="sm"
              variant={filter === s ? 'primary' : 'secondary'}
              aria-pressed={filter === s}
              onClick={() => choose(s)}
            >
              {s === 'all' ? 'All' : `${STATUS_LABELS[s]} (${summary.counts[s]})`}
            </Button>
          ))}
        </fieldset>
        {open ? (
          <OutboxMailDetail mail={open} onBack={() => setOpenId(null)} />
        ) : page.items.length === 0 ? (
          <p>{T.empty}</p>
        ) : (
          <div css={css`overflow-x: auto;`}>
            <table css={tableCss}>
              <thead>
                <tr>
                  {['To', 'Subject', 'Kind', 'Status', 'Attempts', 'Created', 'Next attempt'].map((h) => (
                    <th key={h} scope="col">
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {page.items.map((m) => (
                  <tr key={m.id}>
                    <td>{m.to}</td>
                    <td>
                      <Button
                        variant="ghost"
                        size="sm"
                        onClick={() => setOpenId(m.id)}
                        css={css`text-align: left;`}
                      >
                        {m.subject}
                      </Button>
                    </td>
                    <td>{m.kind}</td>
                    <td>
                      <Badge tone={STATUS_TONES[m.status]}>{STATUS_LABELS[m.status]}</Badge>
                    </td>
                    <td>{m.attempts}</td>
                    <td>{formatTime(m.created_at)}</td>
                    <td>{nextAttempt(m)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {!open && pages > 1 && (
          <nav aria-label="Pages" css={css`display: flex; gap: 8px; align-items: center;`}>
            <Button
              size="sm"
              variant="secondary"
              disabled={page.page <= 1}
              onClick={() => setPageNo(page.page - 1)}
            >
              Previous
            </Button>
            <span>
              Page {page.page} of {pages}
            </span>
            <Button
              size="sm"
              variant="secondary"
              disabled={page.page >= pages}
              onClick={() => setPageNo(page.page + 1)}
            >
              Next
            </Button>
          </nav>
        )}
      </div>
    );
  }

  return (
    <Container>
      <h1>{T.title}</h1>
      {body}
    </Container>
  );
}

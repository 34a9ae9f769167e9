import { ADMIN_PATHS } from '@app/contracts/admin-paths';
import type { OutboxMail } from '@app/contracts/outbox';
import { MemoryRouter } from '@app/router';
import { SessionProvider } from '@app/session';
import { AppThemeProvider } from '@app/ui';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { API, SUMMARY, server, serveSummary, signIn, useAdminApi } from '../test/admin-kit';
import OutboxScreen from './outbox-page';
import { formatTime, OUTBOX_TEXTS as T } from './outbox-texts';

useAdminApi();

const T0 = Date.UTC(2026, 10, 21, 9, 0);
const mail = (id: number, over: Partial<OutboxMail> = {}): OutboxMail => ({
  id,
  kind: 'assessment',
  to: `visitor${id}@example.com`,
  subject: 'Your market assessment',
  text: `Hello visitor ${id}`,
  html: '<body style="color:#1f2937"><p style="font-size:12px">Hello &lt;b&gt;</p></body>',
  status: 'pending',
  attempts: 2,
  created_at: T0,
  next_attempt_at: T0 + 60_000,
  sent_at: null,
  last_error: 'connect ECONNREFUSED 127.0.0.1:2525',
  attempt_log: [
    { at: T0 + 1000, ok: false, error: 'connect ECONNREFUSED 127.0.0.1:2525' },
    { at: T0 + 31_000, ok: false, error: '550 Mailbox unavailable' },
  ],
  ...over,
});

/** Answers the list with `items` (of `total`); records each request's query. */
function serveList(items: OutboxMail[], total = items.length) {
  const queries: URLSearchParams[] = [];
  server.use(
    http.get(`${API}${ADMIN_PATHS.outbox}`, ({ request }) => {
      const q = new URL(request.url).searchParams;
      queries.push(q);
      return HttpResponse.json({ items, total, page: Number(q.get('page') ?? 1), limit: 20 });
    }),
  );
  return queries;
}

const renderPage = () =>
  render(
    <AppThemeProvider>
      <MemoryRouter initialEntries={['/admin/outbox']}>
        <SessionProvider>
          <OutboxScreen />
        </SessionProvider>
      </MemoryRouter>
    </AppThemeProvider>,
  );

const FAILING = {
  ...SUMMARY,
  counts: { pending: 2, sending: 1, sent: 12, failed: 1 },
  // The last delivery was an hour before the error: delivery is failing now.
  lastSentAt: T0 - 3_600_000,
  lastError: { at: T0 + 31_000, error: '550 Mailbox unavailable' },
};

describe('/admin/outbox', () => {
  it('says that mail is not delivered, why and since when, and lists the waiting mail', async () => {
    signIn(['admin']);
    serveSummary(FAILING);
    serveList([mail(1), mail(2, { status: 'failed', attempts: 8 })]);
    renderPage();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      `Mail is not being delivered: 550 Mailbox unavailable (at ${formatTime(T0 + 31_000)}). 3 mails waiting, 1 failed. They will be retried.`,
    );
    const rows = screen.getAllByRole('row');
    expect(
      within(rows[0]!)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['To', 'Subject', 'Kind', 'Status', 'Attempts', 'Created', 'Next attempt']);
    expect(
      within(rows[1]!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual([
      'visitor1@example.com',
      'Your market assessment',
      'assessment',
      'Pending',
      '2',
      formatTime(T0),
      formatTime(T0 + 60_000),
    ]);
    expect(within(rows[2]!).getAllByRole('cell')[6]).toHaveTextContent('none (gave up)');
  });

  it('shows one mail: its text, its HTML in a sandbox without scripts, and every attempt with its error', async () => {
    signIn(['admin']);
    serveSummary(FAILING);
    serveList([mail(1)]);
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Your market assessment' }));
    expect(screen.getByRole('heading', { level: 2, name: 'Your market assessment' })).toBeVisible();
    expect(screen.getByText('Hello visitor 1')).toBeVisible();
    const attempts = within(screen.getByRole('list', { name: 'Attempts' })).getAllByRole('listitem');
    expect(attempts.map((li) => li.textContent)).toEqual([
      `${formatTime(T0 + 1000)}: failed: connect ECONNREFUSED 127.0.0.1:2525`,
      `${formatTime(T0 + 31_000)}: failed: 550 Mailbox unavailable`,
    ]);
    const frame = screen.getByTitle('HTML body of “Your market assessment”');
    expect(frame).toHaveAttribute('sandbox', 'allow-same-origin');
    // No style attribute reaches the frame's markup (the page's CSP would refuse it); the styles travel apart.
    const srcdoc = frame.getAttribute('srcdoc') ?? '';
    expect(srcdoc).not.toMatch(/\sstyle=/);
    expect(srcdoc).toContain('<p data-mail-style="font-size:12px">Hello &lt;b&gt;</p>');
    await userEvent.click(screen.getByRole('button', { name: T.back }));
    expect(screen.getByRole('table')).toBeVisible();
  });

  it('shows a reset mail with its link hidden, and says why', async () => {
    signIn(['admin']);
    serveSummary(FAILING);
    const hidden = 'http://site.test/reset-password#token=[link hidden]';
    serveList([
      mail(2, {
        kind: 'password-reset',
        subject: 'Reset your password',
        text: `Hello,\n\n${hidden}\n`,
        html: `<p><a href="${hidden}">Choose a new password</a></p>`,
      }),
    ]);
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Reset your password' }));
    expect(screen.getByText(T.hiddenLink)).toBeVisible();
    expect(screen.getByText(/reset-password#token=\[link hidden\]/)).toBeVisible();
  });

  it('says nothing of hidden links for a mail without one', async () => {
    signIn(['admin']);
    serveSummary(FAILING);
    serveList([mail(1)]);
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Your market assessment' }));
    expect(screen.queryByText(T.hiddenLink)).toBeNull();
  });

  it('filters by status and pages through the list', async () => {
    signIn(['admin']);
    serveSummary(FAILING);
    const queries = serveList([mail(1)], 45);
    renderPage();
    expect(await screen.findByText('Page 1 of 3')).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Page 2 of 3')).toBeVisible();
    expect(queries.at(-1)?.get('page')).toBe('2');
    const status = screen.getByRole('group', { name: 'Status' });
    await userEvent.click(within(status).getByRole('button', { name: 'Failed (1)' }));
    expect(await screen.findByRole('button', { name: 'Failed (1)', pressed: true })).toBeVisible();
    expect(queries.at(-1)?.get('status')).toBe('failed');
    expect(queries.at(-1)?.get('page')).toBe('1');
    await userEvent.click(screen.getByRole('button', { name: 'All' }));
    expect(await screen.findByRole('button', { name: 'All', pressed: true })).toBeVisible();
    expect(queries.at(-1)?.has('status')).toBe(false);
  });

  it('says mail stays here when no SMTP server is configured', async () => {
    signIn(['admin']);
    serveSummary({
      ...SUMMARY,
      smtpConfigured: false,
      lastSentAt: null,
      counts: { ...SUMMARY.counts, sent: 0 },
    });
    serveList([mail(1, { attempts: 0, attempt_log: [], last_error: null })]);
    renderPage();
    expect(await screen.findByText(T.noSmtp)).toBeVisible();
  });

  it('says delivery works, and when the last mail went', async () => {
    signIn(['admin']);
    serveSummary();
    serveList([]);
    renderPage();
    expect(
      await screen.findByText(`Delivery is working; last mail sent ${formatTime(SUMMARY.lastSentAt)}.`),
    ).toBeVisible();
    expect(screen.getByText(T.empty)).toBeVisible();
  });

  it("shows the API's error in words, and Retry loads again", async () => {
    signIn(['admin']);
    serveSummary();
    server.use(
      http.get(
        `${API}${ADMIN_PATHS.outbox}`,
        () => HttpResponse.json({ error: 'Database unavailable' }, { status: 503 }),
        {
          once: true,
        },
      ),
    );
    renderPage();
    expect(await screen.findByText('Database unavailable')).toBeVisible();
    serveList([mail(1)]);
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('table')).toBeVisible();
  });

  it('tells a member it is for administrators only, and asks the API nothing about mail', async () => {
    signIn(['paid-tier-1']);
    const summary = serveSummary();
    renderPage();
    expect(await screen.findByText(T.adminOnly)).toBeVisible();
    expect(summary.calls).toBe(0);
  });
});

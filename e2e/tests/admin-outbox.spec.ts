import { API_PATHS } from '@app/contracts';
import { ADMIN_PATHS } from '@app/contracts/admin-paths';
import type { ParsedMail } from 'mailparser';
import { seriousViolations, shot } from '../support/a11y';
import { API_URL, createMember, type TestUser, useToken } from '../support/api';
import { mailbox, mailsTo } from '../support/mailbox';
import { expect, type Page, test } from '../support/test';

/**
 * Issue 34: the Admin menu is for administrators only (and the API refuses the rest whatever the menu
 * shows), and the SMTP server down or refusing loses nothing: the outbox retries and /admin/outbox shows
 * the failure, then the delivery. The API sends to E2E_SMTP_PORT (playwright.config.ts), where nothing
 * listens between specs: this spec's mail fails until its own server takes it.
 */
const ADMIN_ITEMS = ['Members', 'Leads', 'Rollouts', 'Outbox', 'Company details'];
const ADMIN_APIS = [
  ADMIN_PATHS.outbox,
  ADMIN_PATHS.outboxSummary,
  ADMIN_PATHS.members,
  ADMIN_PATHS.leads,
  ADMIN_PATHS.site,
  ADMIN_PATHS.rollouts,
  ADMIN_PATHS.users,
];

test.describe.configure({ mode: 'serial' });

const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' }).first();
const adminButton = (page: Page) => mainNav(page).getByRole('button', { name: /^Admin/ });

test('a member gets no Admin menu, and the admin API answers 403 to a member and 401 to a guest', async ({
  page,
  request,
}) => {
  const member = await createMember(request, [], 'notadmin');
  await useToken(page, member.token);
  await page.goto('/research-center');
  await expect(mainNav(page).getByRole('link', { name: 'Profile' })).toBeVisible();
  await expect(adminButton(page)).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Rollouts' })).toHaveCount(0);
  await page.goto('/admin/outbox');
  await expect(page.getByText('Administrators only')).toBeVisible();
  for (const path of ADMIN_APIS) {
    const asMember = await request.get(`${API_URL}${path}`, {
      headers: { authorization: `Bearer ${member.token}` },
    });
    expect(asMember.status(), `${path} as a member`).toBe(403);
    expect((await request.get(`${API_URL}${path}`)).status(), `${path} as a guest`).toBe(401);
  }
});

test('an administrator gets the Admin menu with its five screens', async ({ page, request }) => {
  const admin = await createMember(request, ['admin'], 'menuadmin');
  await useToken(page, admin.token);
  await page.goto('/about');
  const button = adminButton(page);
  await expect(button).toHaveAttribute('aria-expanded', 'false');
  await button.click();
  await expect(button).toHaveAttribute('aria-expanded', 'true');
  const list = page.locator(`[id="${await button.getAttribute('aria-controls')}"]`);
  // Outbox may carry a count: mail to the suite's SMTP port fails while no spec listens there.
  await expect(list.getByRole('link')).toHaveText(ADMIN_ITEMS.map((label) => new RegExp(`^${label}`)));
  expect(await seriousViolations(page)).toEqual([]);
  await shot(page, 'admin-menu-open');
  await page.keyboard.press('Escape');
  await expect(list).toBeHidden();
  await expect(button).toBeFocused();
});

/** Refresh until the banner says `text` (the page does not poll; the administrator asks again). */
async function bannerSays(page: Page, text: RegExp) {
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(page.locator('main').getByText(text)).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 20_000 });
}

/** The row of the reset mail to `who` in the outbox list (their activation mail has a row too). */
const rowOf = (page: Page, who: TestUser) =>
  page
    .getByRole('row')
    .filter({ hasText: who.email })
    .filter({ hasText: /Reset your/ });
/** The reset mails to `who` that the test's server received. */
const resetMails = (inbox: ParsedMail[], who: TestUser) => mailsTo(inbox, who.email, /Reset your/);

test('SMTP down, then refusing, then back: the admin sees the failures, then the mail sent, once', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const smtp = mailbox({ accept: false });
  try {
    const admin = await createMember(request, ['admin'], 'outboxadmin');
    const member = await createMember(request, [], 'outboxreader');
    // Nothing listens on the API's SMTP port yet: the reset mail waits and is retried.
    const asked = await request.post(`${API_URL}${API_PATHS.forgotPassword}`, {
      data: { email: member.email },
    });
    expect(asked.status()).toBe(202);

    await useToken(page, admin.token);
    await page.goto('/admin/outbox');
    await expect(page.getByRole('heading', { level: 1, name: 'Outbox' })).toBeVisible();
    await bannerSays(page, /^Mail is not being delivered: .*ECONNREFUSED.*They will be retried\.$/);
    await expect(rowOf(page, member).getByRole('cell').nth(3)).toHaveText(/Pending|Sending/);
    await expect(async () => {
      await page.getByRole('button', { name: 'Refresh' }).click();
      const attempts = Number(
        await rowOf(page, member).getByRole('cell').nth(4).textContent({ timeout: 2000 }),
      );
      expect(attempts).toBeGreaterThanOrEqual(2);
    }).toPass({ timeout: 20_000 });

    // Up, but refusing every recipient: the server's own answer is what the admin reads.
    await smtp.listen();
    await bannerSays(page, /^Mail is not being delivered: 550 .*Mailbox unavailable/);
    // The banner names the newest failure of any mail; this mail's own 550 comes at its next retry, so the
    // list is asked again until its detail shows it.
    const attempts = page.getByRole('list', { name: 'Attempts' }).getByRole('listitem');
    await expect(async () => {
      await page.getByRole('button', { name: 'Refresh' }).click();
      await rowOf(page, member).getByRole('button').click();
      try {
        await expect(attempts.filter({ hasText: /failed: 550 / }).first()).toBeVisible({ timeout: 2000 });
      } catch (error) {
        await page.getByRole('button', { name: 'Back to the list' }).click();
        throw error;
      }
    }).toPass({ timeout: 30_000 });
    await expect(attempts.filter({ hasText: 'ECONNREFUSED' }).first()).toBeVisible();
    await expect(page.getByTitle(/^HTML body of/)).toBeVisible();
    // The reset link is not the administrator's to read (issue 46): hidden, and said so.
    await expect(page.locator('main pre')).toContainText('/reset-password#token=[link hidden]');
    await expect(page.locator('main')).toContainText('shown here as [link hidden]');
    await shot(page, 'admin-outbox-mail', true);
    await page.getByRole('button', { name: 'Back to the list' }).click();
    // On the list (axe would wait on the mail's sandboxed frame, where no script may run).
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'admin-outbox-failing', true);
    expect(resetMails(smtp.inbox, member)).toHaveLength(0);

    // Back: the mail arrives, once, and the outbox shows it sent.
    smtp.state.accept = true;
    await expect
      .poll(() => resetMails(smtp.inbox, member).length, {
        timeout: 20_000,
        message: `the reset mail to ${member.email}`,
      })
      .toBe(1);
    await bannerSays(page, /^Delivery is working; last mail sent /);
    await expect(rowOf(page, member).getByRole('cell').nth(3)).toHaveText('Sent');
    await shot(page, 'admin-outbox-working', true);
    expect(resetMails(smtp.inbox, member)).toHaveLength(1);
    const ids = smtp.inbox.map((m) => m.headers.get('x-outbox-id'));
    expect(new Set(ids).size).toBe(ids.length);
  } finally {
    await smtp.close();
  }
});

import { API_PATHS, MESSAGES } from '@app/contracts';
import { ADMIN_PATHS } from '@app/contracts/admin-paths';
import { API_URL, createMember, uniqueName } from '../support/api';
import { mailbox, mailsTo, recipients } from '../support/mailbox';
import { SHELL_URL } from '../support/ports';
import { expect, type Page, test } from '../support/test';

/**
 * Issue 34: Forgot password end to end. A real SMTP server listens where playwright.config.ts points the
 * API (SMTP_URL, E2E_SMTP_PORT); the member asks for a link from Login, reads the mail (the link is taken
 * from the mailbox: the outbox shows it hidden, issue 46), sets a new password and logs in with it; the link
 * then no longer works.
 */
const P = MESSAGES.passwordReset;
const smtp = mailbox();
const inbox = smtp.inbox;

test.describe.configure({ mode: 'serial' });
test.beforeAll(() => smtp.listen());
test.afterAll(() => smtp.close());

async function resetLinkFor(email: string): Promise<string> {
  let link = '';
  await expect
    .poll(
      () => {
        const mail = mailsTo(inbox, email, /Reset your/).at(-1);
        link = /(http:\/\/\S+\/reset-password#token=[A-Za-z0-9_%-]+)/.exec(mail?.text ?? '')?.[1] ?? '';
        return link;
      },
      { timeout: 15_000, message: `a reset mail to ${email}` },
    )
    .not.toBe('');
  return link;
}

const field = (page: Page, label: string) => page.getByLabel(new RegExp(`^${label}(\\s*\\*)?$`));

test('a member resets a forgotten password from Login, through a real mail, once', async ({
  page,
  request,
}) => {
  const member = await createMember(request, [], uniqueName('forgot'));

  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await field(page, 'Email').fill(member.email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.locator('main').getByText(P.sent)).toBeVisible();

  const link = await resetLinkFor(member.email);
  expect(link.startsWith(`${SHELL_URL}/reset-password#token=`)).toBe(true);

  await page.goto(link);
  // The token is in the page's memory only: out of the address bar as soon as the page is there.
  await expect(page).toHaveURL(/\/reset-password$/);
  await field(page, 'New password').fill('Fresh-Passw0rd');
  await field(page, 'Confirm new password').fill('Fresh-Passw0rd');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.locator('main').getByText(P.done)).toBeVisible();

  // The old session ended with the reset; the new password logs in.
  expect(
    (
      await request.get(`${API_URL}${API_PATHS.profile}`, {
        headers: { authorization: `Bearer ${member.token}` },
      })
    ).status(),
  ).toBe(401);
  await field(page, 'Email').fill(member.email);
  await field(page, 'Password').fill('Fresh-Passw0rd');
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page).toHaveURL(/\/research-center$/);

  // The link a second time is refused, and says how to get a new one.
  await page.goto(link);
  await field(page, 'New password').fill('Other-Passw0rd1');
  await field(page, 'Confirm new password').fill('Other-Passw0rd1');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.locator('main').getByRole('alert')).toContainText(P.invalidToken);
  await expect(page).toHaveURL(/\/reset-password$/);
});

test('an address without an account gets the same answer and no mail', async ({ page, request }) => {
  const email = `${uniqueName('nobody')}@example.com`;
  await page.goto('/forgot-password');
  await field(page, 'Email').fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.locator('main').getByText(P.sent)).toBeVisible();
  // The mail would be written to the outbox in the request's own transaction: none is there, so none is sent.
  const admin = await createMember(request, ['admin'], uniqueName('resetadmin'));
  const outbox = await request.get(`${API_URL}${ADMIN_PATHS.outbox}?limit=100`, {
    headers: { authorization: `Bearer ${admin.token}` },
  });
  expect(outbox.ok()).toBe(true);
  const { items } = (await outbox.json()) as { items: { to: string }[] };
  expect(items.filter((m) => m.to.toLowerCase() === email.toLowerCase())).toEqual([]);
  expect(inbox.filter((m) => recipients(m).includes(email))).toHaveLength(0);
});

import { API_PATHS, MESSAGES } from '@app/contracts';
import { ADMIN_PATHS } from '@app/contracts/admin-paths';
import { OUTBOX_HIDDEN_SECRET, type OutboxMail } from '@app/contracts/outbox';
import type { APIRequestContext } from '@playwright/test';
import { API_URL, createMember, type TestUser, useToken } from '../support/api';
import { mailbox, mailsTo } from '../support/mailbox';
import { SHELL_URL } from '../support/ports';
import { expect, type Page, test } from '../support/test';

/**
 * Issue 46, as an attacker would try it against the real stack and a real mailbox (the SMTP server the API
 * delivers to, E2E_SMTP_PORT): one script asks for 20 reset links for one member, and the member's inbox
 * gets 3; the link that arrives works, and once the page has loaded the address bar holds no token; an
 * administrator reading the outbox screen finds the reset mail with its link hidden.
 */
const P = MESSAGES.passwordReset;
const smtp = mailbox();
const inbox = smtp.inbox;

test.describe.configure({ mode: 'serial' });
test.beforeAll(() => smtp.listen());
test.afterAll(() => smtp.close());

const field = (page: Page, label: string) => page.getByLabel(new RegExp(`^${label}(\\s*\\*)?$`));
const resetMails = (who: TestUser) => mailsTo(inbox, who.email, /Reset your/);
const linkIn = (text: string | undefined) =>
  /(http:\/\/\S+\/reset-password#token=([A-Za-z0-9_%-]+))/.exec(text ?? '');

/** The reset mails to `who` in the outbox, as the admin API lists them (their links hidden). */
async function outboxResets(request: APIRequestContext, admin: TestUser, who: TestUser) {
  const r = await request.get(`${API_URL}${ADMIN_PATHS.outbox}?limit=100`, {
    headers: { authorization: `Bearer ${admin.token}` },
  });
  expect(r.ok()).toBe(true);
  const { items } = (await r.json()) as { items: OutboxMail[] };
  return items.filter((m) => m.to === who.email && m.kind === 'password-reset');
}

let member: TestUser;
let admin: TestUser;
let link = '';
let token = '';

test('20 reset requests for one account deliver 3 mails, no more', async ({ request }) => {
  // Mail other specs left waiting (nothing listens between specs) goes out first, now that this one does.
  test.setTimeout(90_000);
  admin = await createMember(request, ['admin'], 'takeoveradmin');
  member = await createMember(request, [], 'takeovervictim');
  const answers = await Promise.all(
    Array.from({ length: 20 }, () =>
      request.post(`${API_URL}${API_PATHS.forgotPassword}`, { data: { email: member.email } }),
    ),
  );
  // Every request is answered alike: nothing tells the script it was held back.
  expect(answers.map((a) => a.status())).toEqual(Array(20).fill(202));
  for (const a of answers) expect(await a.json()).toEqual({ message: P.sent });

  // Every mail that will ever go is in the outbox already (written with its request): 3, all delivered.
  await expect
    .poll(async () => (await outboxResets(request, admin, member)).map((m) => m.status).join(','), {
      timeout: 60_000,
      message: 'the reset mails sent',
    })
    .toBe('sent,sent,sent');
  await expect
    .poll(() => resetMails(member).length, { timeout: 10_000, message: `3 reset mails to ${member.email}` })
    .toBe(3);
  expect(resetMails(member)).toHaveLength(3);

  // The newest mail's link is the one that works; the token travels in the fragment, never in a query.
  const found = linkIn(resetMails(member).at(-1)?.text);
  expect(found).not.toBeNull();
  link = found![1]!;
  token = decodeURIComponent(found![2]!);
  expect(link.startsWith(`${SHELL_URL}/reset-password#token=`)).toBe(true);
});

test('the administrator sees the reset mail on the outbox screen with its link hidden', async ({ page }) => {
  await useToken(page, admin.token);
  await page.goto('/admin/outbox');
  await expect(page.getByRole('heading', { level: 1, name: 'Outbox' })).toBeVisible();
  const row = page
    .getByRole('row')
    .filter({ hasText: member.email })
    .filter({ hasText: /Reset your/ })
    .first();
  await row.getByRole('button').click();
  const main = page.locator('main');
  await expect(main.locator('pre')).toContainText(`/reset-password#token=${OUTBOX_HIDDEN_SECRET}`);
  await expect(main).toContainText(`shown here as ${OUTBOX_HIDDEN_SECRET}`);
  await expect(main).not.toContainText(token);
  // Nor in the HTML part the screen shows in its frame.
  const html = await page.getByTitle(/^HTML body of/).getAttribute('srcdoc');
  expect(html).toContain(OUTBOX_HIDDEN_SECRET);
  expect(html).not.toContain(token);
});

test('the delivered link works, and the address bar holds no token once the page has loaded', async ({
  page,
  request,
}) => {
  await page.goto(link);
  await expect(field(page, 'New password')).toBeVisible();
  await expect(page).toHaveURL(`${SHELL_URL}/reset-password`);
  expect(await page.evaluate(() => window.location.href)).not.toContain(token);
  await field(page, 'New password').fill('Taken-Back-Passw0rd');
  await field(page, 'Confirm new password').fill('Taken-Back-Passw0rd');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.locator('main').getByText(P.done)).toBeVisible();
  const login = await request.post(`${API_URL}${API_PATHS.login}`, {
    data: { username: member.email, password: 'Taken-Back-Passw0rd' },
  });
  expect(login.status()).toBe(200);
  // Still three: nothing more was sent while the member took their account back.
  expect(resetMails(member)).toHaveLength(3);
});

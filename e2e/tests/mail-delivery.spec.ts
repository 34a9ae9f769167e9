import { CHALLENGES } from '@app/contracts';
import { createMember, DEFAULT_PASSWORD, login, uniqueName, useToken } from '../support/api';
import { mailbox, mailsTo } from '../support/mailbox';
import { SHELL_URL } from '../support/ports';
import { completeAssessment } from '../support/survey';
import { expect, type Page, test } from '../support/test';

/**
 * Issue 34: every mail the product promises arrives in a real mailbox (an SMTP server this spec runs where
 * the API delivers): the assessment mail to the visitor and the consultation notice to administrators, the
 * "registration waiting" notice, and the activation mail after an administrator lets the member in from
 * /admin/members. (The reset link is password-reset.spec.ts's.)
 */
const smtp = mailbox();
test.describe.configure({ mode: 'serial' });
test.beforeAll(() => smtp.listen());
test.afterAll(() => smtp.close());

const field = (page: Page, label: string) => page.getByLabel(new RegExp(`^${label}(\\s*\\*)?$`));

/** The one mail to `address` with a subject matching `subject`, once it has arrived. */
async function arrived(address: string, subject: RegExp) {
  await expect
    .poll(() => mailsTo(smtp.inbox, address, subject).length, {
      timeout: 20_000,
      message: `a mail "${subject.source}" to ${address}`,
    })
    .toBe(1);
  const [mail] = mailsTo(smtp.inbox, address, subject);
  if (!mail) throw new Error(`no mail "${subject.source}" to ${address}`);
  return mail;
}

test('the assessment mail tells the visitor what they asked for; administrators hear of the consultation', async ({
  page,
  request,
}) => {
  const boss = await createMember(request, ['admin'], 'mailboss');
  const last = uniqueName('Asker');
  const email = `${last.toLowerCase()}@example.com`;

  await completeAssessment(page, { email, first: 'Ada', last, company: '<b>Bold & Co</b>' });
  await expect(page.getByText('Your premium risk assessments are on their way to your inbox.')).toBeVisible();

  const mail = await arrived(email, /^Your market assessment with /);
  expect(mail.text).toContain('Hello Ada');
  expect(mail.text).toContain(CHALLENGES.labels['cash-flow']);
  expect(mail.text).toContain('Free consultation: yes, please');
  expect(mail.text).toContain('within two business days');

  const notice = await arrived(boss.email, /^A free consultation was requested$/);
  expect(notice.text).toContain(`Name: Ada ${last}`);
  expect(notice.text).toContain('Urgency: Immediate (within a month)');
  expect(notice.text).toMatch(/\/admin\/leads\?lead=\d+/);
  // What the visitor typed is text in the HTML part, never markup.
  expect(notice.html || '').toContain('&lt;b&gt;Bold &amp; Co&lt;/b&gt;');
  expect(notice.html || '').not.toContain('<b>Bold');
});

test('a registration notifies administrators; activating it in the browser mails the member', async ({
  page,
  request,
}) => {
  const boss = await createMember(request, ['admin'], 'mailboss');
  const username = uniqueName('waiting');
  const email = `${username}@example.com`;

  await page.goto('/register');
  await field(page, 'Username').fill(username);
  await field(page, 'Email').fill(email);
  await field(page, 'Password').fill(DEFAULT_PASSWORD);
  await field(page, 'Confirm Password').fill(DEFAULT_PASSWORD);
  await field(page, 'First Name').fill('Grace');
  await field(page, 'Last Name').fill('Waiting');
  await field(page, 'Street Address').fill('1 Mail Street');
  await page.getByRole('button', { name: 'Create Account' }).click();

  const waiting = await arrived(boss.email, /^A new registration is waiting for activation$/);
  expect(waiting.text).toContain(`Username: ${username}`);
  expect(waiting.text).toContain('/admin/members');

  await useToken(page, boss.token);
  await page.goto(`/admin/members?status=pending&q=${encodeURIComponent(email)}`);
  await page
    .locator('main')
    .getByRole('button', { name: `Activate ${username}` })
    .click();
  await expect(page.locator('main').getByText('Activated 1 member')).toBeVisible();

  const active = await arrived(email, /account is active$/);
  expect(active.text).toContain('Hello Grace');
  expect(active.text).toContain(`${SHELL_URL}/login`);
  expect(await login(request, email, DEFAULT_PASSWORD)).toBeTruthy();
});

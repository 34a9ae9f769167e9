import { API_PATHS, MESSAGES } from '@app/contracts';
import { API_URL, createMember, login, uniqueName, useToken } from '../support/api';
import { mailbox, mailsTo } from '../support/mailbox';
import { SHELL_URL } from '../support/ports';
import { expect, type Page, test } from '../support/test';

/**
 * Issue 46, end to end with a real SMTP server: changing the email in the profile needs the current
 * password and waits for the link mailed to the new address; the old address is told, with an undo link.
 * The profile lists where the member is signed in, and signing a session out there logs that browser out.
 */
const E = MESSAGES.emailChange;
const S = MESSAGES.sessions;
const smtp = mailbox();
test.describe.configure({ mode: 'serial' });
test.beforeAll(() => smtp.listen());
test.afterAll(() => smtp.close());

const field = (page: Page, label: string) => page.getByLabel(new RegExp(`^${label}(\\s*\\*)?$`));

async function linkIn(address: string, subject: RegExp, page: string): Promise<string> {
  let link = '';
  await expect
    .poll(
      () => {
        const mail = mailsTo(smtp.inbox, address, subject).at(-1);
        link = new RegExp(`(http://\\S+/${page}#token=[A-Za-z0-9_%-]+)`).exec(mail?.text ?? '')?.[1] ?? '';
        return link;
      },
      { timeout: 20_000, message: `a "${subject.source}" mail to ${address}` },
    )
    .not.toBe('');
  return link;
}

test('the email changes only with the password and once the new address confirms; the old one is told', async ({
  page,
  request,
}) => {
  const member = await createMember(request, [], uniqueName('mover'));
  const target = `${uniqueName('moved').toLowerCase()}@example.com`;
  await useToken(page, member.token);
  await page.goto('/profile');
  await page.getByRole('button', { name: 'Edit Profile' }).click();
  await field(page, 'Email').fill(target);
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(field(page, 'Current password')).toBeFocused();
  await expect(field(page, 'Current password')).toHaveAccessibleDescription(E.passwordRequired);
  await field(page, 'Current password').fill('Not-my-passw0rd');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(field(page, 'Current password')).toHaveAccessibleDescription(E.passwordWrong);
  await expect(field(page, 'Email')).toHaveValue(target);
  await field(page, 'Current password').fill(member.password);
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText(E.pending(target))).toBeVisible();
  const details = page.getByRole('article', { name: 'Profile Details' });
  await expect(details.getByText(member.email)).toBeVisible();

  await expect.poll(() => mailsTo(smtp.inbox, member.email, /is changing/).length).toBe(1);
  expect(mailsTo(smtp.inbox, member.email, /is changing/)[0]?.text).toContain(target);
  const link = await linkIn(target, /^Confirm your new/, 'confirm-email');
  expect(link.startsWith(`${SHELL_URL}/confirm-email#token=`)).toBe(true);

  await page.goto(link);
  await expect(page).toHaveURL(/\/confirm-email$/);
  await page.getByRole('button', { name: E.confirmButton }).click();
  await expect(page.getByText(E.confirmed(target))).toBeVisible();
  await page.goto('/profile');
  await expect(page.getByRole('article', { name: 'Profile Details' }).getByText(target)).toBeVisible();
});

test('the undo link from the old address brings it back and ends every session', async ({
  page,
  request,
}) => {
  const member = await createMember(request, [], uniqueName('undoer'));
  const attacker = `${uniqueName('taker').toLowerCase()}@example.com`;
  await useToken(page, member.token);
  await page.goto('/profile');
  await page.getByRole('button', { name: 'Edit Profile' }).click();
  await field(page, 'Email').fill(attacker);
  await field(page, 'Current password').fill(member.password);
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText(E.pending(attacker))).toBeVisible();

  const undo = await linkIn(member.email, /is changing/, 'undo-email-change');
  await page.goto(undo);
  await expect(page).toHaveURL(/\/undo-email-change$/);
  await page.getByRole('button', { name: E.undoButton }).click();
  await expect(page.getByText(E.undone(member.email))).toBeVisible();
  // The session this change was asked from has ended; the old address logs in again.
  const answer = await request.get(`${API_URL}${API_PATHS.profile}`, {
    headers: { authorization: `Bearer ${member.token}` },
  });
  expect(answer.status()).toBe(401);
  await login(request, member.email, member.password);
});

test('the profile lists where the member is signed in; signing one out logs that browser out', async ({
  browser,
  request,
}) => {
  const member = await createMember(request, [], uniqueName('twodevices'));
  const laptop = await browser.newContext();
  const phone = await browser.newContext();
  const onLaptop = await laptop.newPage();
  const onPhone = await phone.newPage();
  await useToken(onLaptop, member.token);
  await useToken(onPhone, await login(request, member.email, member.password));

  await onPhone.goto('/profile');
  await expect(onPhone.getByRole('article', { name: 'Profile Details' })).toBeVisible();
  await onLaptop.goto('/profile');
  const sessions = onLaptop.getByRole('article', { name: S.title });
  await expect(sessions.getByRole('listitem')).toHaveCount(2);
  await expect(sessions.getByRole('listitem').first()).toContainText(S.current);
  await sessions.getByRole('button', { name: new RegExp(`^${S.signOut}:`) }).click();
  await expect(sessions.getByText(S.ended)).toBeVisible();
  await expect(sessions.getByRole('listitem')).toHaveCount(1);

  // The phone's session is gone: its next page needing the session sends it to log in.
  await onPhone.reload();
  await expect(onPhone).toHaveURL(/\/login/);
  await laptop.close();
  await phone.close();
});

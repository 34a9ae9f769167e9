import { MESSAGES } from '@app/contracts';
import { createMember, freshCode, registerUser, uniqueName } from '../support/api';
import { expect, type Page, test } from '../support/test';

/**
 * Issue 46 end to end: an administrator without a second factor is sent from administration to the
 * profile, sets TOTP up there (the code computed with otplib from the key the page shows, as a phone's
 * app would from the QR code), logs out, logs in again needing the code, opens an admin screen and
 * activates a member after the step-up dialog asked for a fresh code.
 */
const TF = MESSAGES.twoFactor;
const field = (page: Page, label: string) => page.getByLabel(new RegExp(`^${label}(\\s*\\*)?$`));
const main = (page: Page) => page.locator('main');

async function logIn(page: Page, email: string, password: string) {
  await page.goto('/login');
  await field(page, 'Email').fill(email);
  await field(page, 'Password').fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
}

test('an administrator sets up two-factor authentication, logs in with a code and confirms a sensitive action', async ({
  page,
  request,
}) => {
  // Up to two waits for the authenticator's next 30-second code (each code is accepted once).
  test.setTimeout(150_000);
  const admin = await createMember(request, ['admin'], 'totpadmin', { twoFactor: false });
  const pending = await registerUser(request, uniqueName('waiting'));

  // The password alone logs in, but administration first asks for a second factor.
  await logIn(page, admin.email, admin.password);
  await expect(page).toHaveURL(/\/research-center$/);
  await page.goto('/admin/members');
  await expect(main(page).getByRole('alert')).toContainText(TF.setupRequired);
  await main(page).getByRole('link', { name: 'Set up two-factor authentication in your profile' }).click();
  await expect(page).toHaveURL(/\/profile$/);

  // Set up in the profile: password, then the QR code and its key, then a code from the "app".
  const section = main(page).getByRole('region', { name: 'Two-factor authentication' });
  await expect(section).toContainText(TF.setupRequired);
  await section.getByRole('button', { name: 'Set up two-factor authentication' }).click();
  await field(page, 'Current password').fill(admin.password);
  await section.getByRole('button', { name: 'Continue' }).click();
  await expect(section.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const secret = ((await section.locator('code').textContent()) ?? '').trim();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await field(page, 'Code from your authenticator app').fill(await freshCode(secret));
  await section.getByRole('button', { name: 'Turn on' }).click();
  await expect(section.getByText(TF.enabled)).toBeVisible();
  await expect(section.getByRole('list', { name: 'Your recovery codes' }).getByRole('listitem')).toHaveCount(
    10,
  );
  await section.getByRole('button', { name: 'I have saved my recovery codes' }).click();
  await expect(section).toContainText('10 of 10 recovery codes left');
  await expect(section.getByRole('button', { name: 'Turn off' })).toHaveCount(0);

  // Log out, then in again: the password, then the code, with email and password kept as typed.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/$/);
  await logIn(page, admin.email, admin.password);
  await expect(main(page).getByText(TF.codeRequired)).toBeVisible();
  await expect(field(page, 'Email')).toHaveValue(admin.email);
  await field(page, 'Authentication code').fill(await freshCode(secret));
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page).toHaveURL(/\/research-center$/);

  // Administration opens; activating a member asks for a fresh code first, then goes through.
  await page.goto(`/admin/members?q=${pending.username}`);
  await expect(main(page).getByRole('heading', { level: 1, name: 'Members' })).toBeVisible();
  await main(page)
    .getByRole('button', { name: `Activate ${pending.username}` })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
  await expect(dialog).toContainText(TF.stepUpRequired);
  await dialog.getByLabel(/^Authentication code/).fill('000000');
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(TF.codeWrong);
  await dialog.getByLabel(/^Authentication code/).fill(await freshCode(secret));
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(main(page).getByText('Activated 1 member')).toBeVisible();
});

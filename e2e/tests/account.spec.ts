import { MESSAGES } from '@app/contracts';
import {
  API_URL,
  admin,
  createMember,
  DEFAULT_PASSWORD,
  registerUser,
  uniqueName,
  useToken,
} from '../support/api';
import { expect, type Page, test } from '../support/test';

const L = MESSAGES.login;
const P = MESSAGES.profile;
const R = MESSAGES.register;

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
// Labels of required fields carry a '*' mark: match the label text from its start.
const field = (page: Page, label: string) => page.getByLabel(new RegExp(`^${label}(\\s*\\*)?$`));
const main = (page: Page) => page.locator('main');

async function logIn(page: Page, email: string, password: string) {
  await page.goto('/login');
  await field(page, 'Email').fill(email);
  await field(page, 'Password').fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
}

const storedToken = (page: Page) => page.evaluate(() => localStorage.getItem('token'));

test.describe('account journey', () => {
  test('register → activate → login → edit profile → opt-in → change password → logout → login → delete', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    const username = uniqueName('journey');
    const email = `${username}@example.com`;
    const firstPassword = 'FirstPassw0rd';
    const newPassword = 'S3condPassword';

    // Register through the UI (the e2e API requires activation).
    await page.goto('/register');
    await expect(page.getByRole('heading', { level: 1, name: 'Create Account' })).toBeVisible();
    await expect(page.getByText(R.activationNote)).toBeVisible();
    await field(page, 'Username').fill(username);
    await field(page, 'Email').fill(`  ${email.toUpperCase()} `);
    await field(page, 'Password').fill(firstPassword);
    await field(page, 'Confirm Password').fill(firstPassword);
    await field(page, 'First Name').fill('Journey');
    await field(page, 'Last Name').fill('Tester');
    await field(page, 'Street Address').fill('1 Journey Road');
    await field(page, 'City').fill('Hamburg');
    await field(page, 'Postal Code').fill('20095');
    await field(page, 'Country').fill('Germany');
    await page.getByRole('button', { name: R.create }).click();
    // The form gives way to a confirmation panel that says what happens next.
    const panel = main(page).getByRole('region', { name: 'Account created' });
    await expect(panel).toContainText('Registration successful');
    await expect(panel).toContainText('contact an administrator');
    await expect(page.getByText(R.activationNote)).toHaveCount(0);
    await expect(page.getByRole('form', { name: 'Create Account' })).toHaveCount(0);

    // Not active yet: the login says so.
    await logIn(page, email, firstPassword);
    await expect(main(page).getByRole('alert')).toHaveText(L.inactive);

    // An administrator activates the account; the email was stored lower-cased.
    admin('activate', email);
    await logIn(page, email, firstPassword);
    await expect(page).toHaveURL(/\/research-center$/);
    await expect(nav(page).getByRole('link', { name: 'Profile' })).toBeVisible();
    await expect(nav(page).getByRole('link', { name: 'Login' })).toHaveCount(0);

    // Profile: view mode with what was registered.
    await nav(page).getByRole('link', { name: 'Profile' }).click();
    await expect(page).toHaveURL(/\/profile$/);
    const details = page.getByRole('article', { name: 'Profile Details' });
    await expect(details.getByText(username, { exact: true })).toBeVisible();
    await expect(details.getByText('Hamburg')).toBeVisible();
    const overview = page.getByRole('article', { name: 'Account Overview' });
    await expect(overview.getByText('Active', { exact: true })).toBeVisible();
    await expect(overview.getByText('Basic Member')).toBeVisible();

    // Edit and save.
    await page.getByRole('button', { name: 'Edit Profile' }).click();
    await expect(field(page, 'Username')).toHaveAttribute('readonly', '');
    await field(page, 'First Name').fill('Renamed');
    await field(page, 'City').fill('Munich');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText(P.updated)).toBeVisible();
    await expect(details.getByText('Renamed')).toBeVisible();
    await expect(details.getByText('Munich')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save Changes' })).toHaveCount(0);
    await expect(page.getByText(P.updated)).toBeHidden({ timeout: 5_000 });

    // Email opt-in, stored on the server.
    const optIn = page.getByRole('switch', { name: 'Email Opt-In' });
    await expect(optIn).toHaveAttribute('aria-checked', 'false');
    await optIn.click();
    await expect(page.getByText(P.preferencesSaved)).toBeVisible();
    await expect(optIn).toHaveAttribute('aria-checked', 'true');
    await page.reload();
    await expect(page.getByRole('switch', { name: 'Email Opt-In' })).toHaveAttribute('aria-checked', 'true');
    await expect(details.getByText('Renamed')).toBeVisible();

    // Change password: the new password first, then the current one (decision 0005).
    const prompts: string[] = [];
    const answerPrompts = async (dialog: import('@playwright/test').Dialog) => {
      prompts.push(dialog.message());
      if (dialog.message() === P.passwordPrompt) await dialog.accept(newPassword);
      else if (dialog.message() === 'Enter your current password:') await dialog.accept(firstPassword);
      else await dialog.dismiss();
    };
    page.on('dialog', answerPrompts);
    await page.getByRole('button', { name: 'Change Password' }).click();
    await expect(page.getByText(P.passwordUpdated)).toBeVisible();
    page.off('dialog', answerPrompts);
    expect(prompts).toEqual([P.passwordPrompt, 'Enter your current password:']);

    // Logout from the profile page goes home; then the old password fails and the new one works.
    await nav(page).getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(new URL('/', page.url()).href);
    expect(await storedToken(page)).toBeNull();
    await logIn(page, email, firstPassword);
    await expect(main(page).getByRole('alert')).toHaveText(L.invalid);
    await logIn(page, email, newPassword);
    await expect(page).toHaveURL(/\/research-center$/);

    // Delete the account after confirming the exact question.
    await page.goto('/profile');
    const confirms: string[] = [];
    page.once('dialog', async (dialog) => {
      confirms.push(`${dialog.type()}: ${dialog.message()}`);
      await dialog.accept();
    });
    await page.getByRole('button', { name: 'Delete Account' }).click();
    await expect(page).toHaveURL(/\/register$/);
    expect(confirms).toEqual([`confirm: ${P.deleteConfirm}`]);
    expect(await storedToken(page)).toBeNull();
    await expect(nav(page).getByRole('link', { name: 'Login' })).toBeVisible();

    // The account is gone.
    await logIn(page, email, newPassword);
    await expect(main(page).getByRole('alert')).toHaveText(L.invalid);
  });
});

test.describe('login', () => {
  test('an inactive account is told to contact an administrator', async ({ page, request }) => {
    const user = await registerUser(request, uniqueName('inactive'));
    await logIn(page, user.email, user.password);
    await expect(main(page).getByRole('alert')).toHaveText(L.inactive);
    expect(await storedToken(page)).toBeNull();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('five wrong passwords lock the account; the sixth attempt shows the lockout', async ({
    page,
    request,
  }) => {
    const user = await registerUser(request, uniqueName('lockout'));
    admin('activate', user.email);
    await page.goto('/login');
    await field(page, 'Email').fill(user.email);
    const alert = main(page).getByRole('alert');
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      await field(page, 'Password').fill(`Wrong-${attempt}`);
      await page.getByRole('button', { name: 'Log In' }).click();
      await expect(page.getByRole('button', { name: 'Log In' })).toBeEnabled();
      // Each attempt answers anew: the message is the same, so check the call came back first.
      await expect(alert).toBeVisible();
      if (attempt < 5) await expect(alert).toHaveText(L.invalid);
    }
    await field(page, 'Password').fill('Wrong-6');
    await page.getByRole('button', { name: 'Log In' }).click();
    await expect(alert).toHaveText(L.locked);
    // While locked, even the right password is refused with the same message.
    await field(page, 'Password').fill(user.password);
    await page.getByRole('button', { name: 'Log In' }).click();
    await expect(alert).toHaveText(L.locked);
    expect(await storedToken(page)).toBeNull();
  });

  test('both fields are required', async ({ page }) => {
    await page.goto('/login');
    await page.getByRole('button', { name: 'Log In' }).click();
    await expect(main(page).getByRole('alert')).toHaveText(L.required);
    await expect(field(page, 'Email')).toBeFocused();
  });

  test('/profile without a token lands on /login with the notice', async ({ page }) => {
    await page.goto('/profile');
    await expect(page).toHaveURL(/\/login$/);
    await expect(main(page).getByRole('status')).toHaveText(P.loginRequired);
  });

  test('a logged-in user visiting /login is sent on to /research-center', async ({ page, request }) => {
    const member = await createMember(request, [], 'already');
    await useToken(page, member.token);
    await page.goto('/login');
    await expect(page).toHaveURL(/\/research-center$/);
  });

  test('the keyboard alone logs in', async ({ page, request }) => {
    const member = await createMember(request, [], 'keys');
    await page.goto('/login');
    await field(page, 'Email').focus();
    await page.keyboard.type(member.email);
    await page.keyboard.press('Tab');
    await expect(field(page, 'Password')).toBeFocused();
    await page.keyboard.type(DEFAULT_PASSWORD);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/research-center$/);
  });
});

test.describe('register', () => {
  test('rules are checked on submit, the first error is focused and errors clear as fields change', async ({
    page,
  }) => {
    await page.goto('/register');
    await page.getByRole('button', { name: R.create }).click();
    await expect(page.getByText(R.usernameRequired)).toBeVisible();
    await expect(page.getByText(R.streetRequired)).toBeVisible();
    await expect(field(page, 'Username')).toBeFocused();
    await field(page, 'Username').fill('ab');
    await expect(page.getByText(R.usernameRequired)).toHaveCount(0);
    await field(page, 'Password').fill('lowercase1');
    await field(page, 'Confirm Password').fill('lowercase1');
    await page.getByRole('button', { name: R.create }).click();
    await expect(page.getByText(R.usernameMin)).toBeVisible();
    await expect(page.getByText(R.passwordUpper)).toBeVisible();
    await expect(field(page, 'Password')).toHaveAttribute('aria-invalid', 'true');
  });

  test('a taken username comes back from the API under its field', async ({ page, request }) => {
    const existing = await registerUser(request, uniqueName('taken'));
    await page.goto('/register');
    await field(page, 'Username').fill(existing.username);
    await field(page, 'Email').fill(`${uniqueName('other')}@example.com`);
    await field(page, 'Password').fill(DEFAULT_PASSWORD);
    await field(page, 'Confirm Password').fill(DEFAULT_PASSWORD);
    await field(page, 'First Name').fill('Other');
    await field(page, 'Street Address').fill('2 Other Street');
    await page.getByRole('button', { name: R.create }).click();
    await expect(page.getByText('Username is already taken')).toBeVisible();
    await expect(field(page, 'Username')).toBeFocused();
    await expect(field(page, 'Username')).toHaveAttribute('aria-invalid', 'true');
  });

  test('the form is at most 600 px wide', async ({ page }) => {
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.goto('/register');
    const box = await page.getByRole('form', { name: 'Create Account' }).boundingBox();
    expect(box?.width ?? 0).toBeLessThanOrEqual(600);
    expect(box?.width ?? 0).toBeGreaterThan(400);
  });
});

test.describe('profile', () => {
  // SPEC §2: Logout goes to /, also from /profile, whose token guard must not win the race.
  test('Logout while on /profile goes home', async ({ page, request }) => {
    const member = await createMember(request, [], 'logoutprofile');
    await useToken(page, member.token);
    await page.goto('/profile');
    await expect(page.getByRole('article', { name: 'Profile Details' })).toBeVisible();
    await nav(page).getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(new URL('/', page.url()).href, { timeout: 5_000 });
  });

  test('a session revoked on the server: the next call says so and goes to /login', async ({
    page,
    request,
  }) => {
    const member = await createMember(request, [], 'revoked');
    await useToken(page, member.token);
    await page.goto('/profile');
    await expect(page.getByRole('article', { name: 'Profile Details' })).toBeVisible();
    // Every call the profile makes by itself has answered (its two-factor section loads after the page), so
    // the next call is the save below.
    await expect(page.getByRole('button', { name: 'Set up two-factor authentication' })).toBeVisible();
    await expect(main(page).getByText('This device')).toBeVisible();
    const revoked = await request.post(`${API_URL}/api/logout`, {
      headers: { Authorization: `Bearer ${member.token}` },
    });
    expect(revoked.ok()).toBe(true);
    await page.getByRole('button', { name: 'Edit Profile' }).click();
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(main(page).getByRole('status')).toHaveText(P.sessionExpired);
    expect(await storedToken(page)).toBeNull();
  });

  test('a new password shorter than 8 characters is refused without a call; cancel does nothing', async ({
    page,
    request,
  }) => {
    const member = await createMember(request, [], 'shortpw');
    await useToken(page, member.token);
    await page.goto('/profile');
    page.once('dialog', (dialog) => dialog.accept('short'));
    await page.getByRole('button', { name: 'Change Password' }).click();
    await expect(main(page).getByRole('alert')).toContainText('at least 8 characters');
    page.once('dialog', (dialog) => dialog.dismiss());
    await page.getByRole('button', { name: 'Change Password' }).click();
    await expect(main(page).getByRole('alert')).toHaveCount(1);
    // The password is unchanged: the default one still logs in.
    const check = await request.post(`${API_URL}/api/login`, {
      data: { username: member.email, password: DEFAULT_PASSWORD },
    });
    expect(check.status()).toBe(200);
  });

  test('is readable in the dark theme', async ({ page, request }) => {
    const member = await createMember(request, [], 'dark');
    await page.emulateMedia({ colorScheme: 'dark' });
    await useToken(page, member.token);
    await page.goto('/profile');
    const card = page.getByRole('article', { name: 'Profile Details' });
    await expect(card).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    const [fg, bg] = await card.evaluate((el) => {
      const style = getComputedStyle(el);
      return [style.color, style.backgroundColor];
    });
    expect(fg).not.toBe(bg);
    // A dark card: its background is darker than its text.
    const lum = (rgb: string) =>
      (rgb.match(/\d+/g) ?? ['0', '0', '0']).slice(0, 3).reduce((sum, n) => sum + Number(n), 0);
    expect(lum(bg)).toBeLessThan(lum(fg));
  });
});

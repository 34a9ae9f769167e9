import { API_PATHS } from '@app/contracts';
import { ADMIN_PATHS } from '@app/contracts/admin-paths';
import {
  API_URL,
  createMember,
  DEFAULT_PASSWORD,
  login,
  registerUser,
  uniqueName,
  useToken,
} from '../support/api';
import { expect, type Page, test } from '../support/test';

/**
 * Issue 34: /admin/members end to end, on the real API and a fresh database. Two visitors register (one
 * through the form, one through the API); an administrator finds them pending with the address they came
 * from, lets one in (who can then log in), turns the other away (gone), grants a tier, and finds by email.
 */
const field = (page: Page, label: string) => page.getByLabel(new RegExp(`^${label}(\\s*\\*)?$`));
const main = (page: Page) => page.locator('main');
const rowOf = (page: Page, username: string) =>
  main(page)
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: username, exact: true }) });

async function registerThroughForm(page: Page, username: string) {
  await page.goto('/register');
  await field(page, 'Username').fill(username);
  await field(page, 'Email').fill(`${username}@example.com`);
  await field(page, 'Password').fill(DEFAULT_PASSWORD);
  await field(page, 'Confirm Password').fill(DEFAULT_PASSWORD);
  await field(page, 'First Name').fill('Form');
  await field(page, 'Last Name').fill('Visitor');
  await field(page, 'Street Address').fill('1 Form Street');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(main(page).getByRole('region', { name: 'Account created' })).toBeVisible();
}

async function search(page: Page, text: string) {
  const box = main(page).getByRole('searchbox', { name: 'Search members' });
  await box.fill(text);
  await box.press('Enter');
  await expect(page).toHaveURL(new RegExp(`[?&]q=${encodeURIComponent(text).replace(/[.]/g, '\\.')}`));
}

test('an administrator lets one registration in, turns one away, grants Premium and searches', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const base = uniqueName('pend');
  const first = `${base}a`;
  const second = `${base}b`;
  await registerThroughForm(page, first);
  await registerUser(request, second);
  const boss = await createMember(request, ['admin'], 'boss');

  // The address each registration came from, as the API recorded it (the same the admin CLI shows).
  const listed = await request.get(`${API_URL}${ADMIN_PATHS.members}`, {
    params: { q: base, status: 'pending' },
    headers: { Authorization: `Bearer ${boss.token}` },
  });
  const { items } = (await listed.json()) as {
    items: { username: string; registered_from: string | null }[];
  };
  const from = Object.fromEntries(items.map((m) => [m.username, m.registered_from]));
  expect(from[first]).toBeTruthy();
  expect(from[second]).toBeTruthy();

  await useToken(page, boss.token);
  await page.goto('/admin/members');
  await expect(main(page).getByRole('heading', { level: 1, name: 'Members' })).toBeVisible();
  // Pending registrations come first, whatever else the database holds.
  await expect(main(page).getByRole('row').nth(1)).toContainText('Pending');
  await expect(main(page).getByText(/\d+ registrations? waiting/)).toBeVisible();

  await search(page, base);
  for (const username of [first, second]) {
    const row = rowOf(page, username);
    await expect(row).toContainText('Pending');
    await expect(row).toContainText(from[username] ?? '');
  }
  await page.screenshot({ path: test.info().outputPath('admin-members.png'), fullPage: true });

  // Activate the first: it can log in now.
  await rowOf(page, first)
    .getByRole('button', { name: `Activate ${first}` })
    .click();
  await expect(main(page).getByText('Activated 1 member')).toBeVisible();
  await expect(rowOf(page, first)).toContainText('Active');
  expect(await login(request, `${first}@example.com`, DEFAULT_PASSWORD)).toBeTruthy();

  // Reject the second, after saying it deletes the registration: it is gone.
  await rowOf(page, second)
    .getByRole('button', { name: `Reject ${second}` })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Reject 1 registration?' });
  await expect(dialog).toContainText('deletes these registrations');
  await dialog.getByRole('button', { name: 'Reject and delete' }).click();
  await expect(main(page).getByText('Rejected 1 registration')).toBeVisible();
  await expect(rowOf(page, second)).toHaveCount(0);
  const refused = await request.post(`${API_URL}${API_PATHS.login}`, {
    data: { username: `${second}@example.com`, password: DEFAULT_PASSWORD },
  });
  expect(refused.ok()).toBe(false);

  // Grant Premium to the first; the row and the member's audit say so.
  await rowOf(page, first)
    .getByRole('button', { name: `Details ${first}` })
    .click();
  await main(page)
    .getByRole('button', { name: `Grant Premium: ${first}` })
    .click();
  await expect(main(page).getByText(`Granted Premium to ${first}`)).toBeVisible();
  await expect(rowOf(page, first)).toContainText('Premium');
  const audit = main(page).getByRole('region', { name: `Recent activity: ${first}` });
  await expect(audit).toContainText('Granted Premium');
  await expect(audit).toContainText('Activated the account');
  await expect(audit).toContainText(boss.username);
  await page.screenshot({ path: test.info().outputPath('admin-members-details.png'), fullPage: true });

  // Search by email finds the member; a reload keeps the search.
  await search(page, `${first}@example.com`);
  await expect(main(page).getByRole('row')).toHaveCount(2);
  await expect(rowOf(page, first)).toBeVisible();
  await page.reload();
  await expect(main(page).getByRole('searchbox', { name: 'Search members' })).toHaveValue(
    `${first}@example.com`,
  );
  await expect(rowOf(page, first)).toBeVisible();
});

test('a member who opens /admin/members reads "Administrators only"', async ({ page, request }) => {
  const member = await createMember(request, ['paid-tier-2']);
  await useToken(page, member.token);
  await page.goto('/admin/members');
  await expect(main(page).getByRole('alert')).toContainText('Administrators only');
  await expect(main(page).getByRole('table')).toHaveCount(0);
});

test('a guest who opens /admin/members is sent to Log In', async ({ page }) => {
  await page.goto('/admin/members');
  await expect(page).toHaveURL(/\/login$/);
});

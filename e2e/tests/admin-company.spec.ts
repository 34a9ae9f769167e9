import { ADMIN_PATHS } from '@app/contracts/admin-paths';
import { type SiteDetails, SITE_ADMIN_MESSAGES as T } from '@app/contracts/site-admin';
import { API_URL, createMember, uniqueName, useToken } from '../support/api';
import { type APIRequestContext, expect, type Page, test } from '../support/test';

/** Issue 34: administrators edit the company's details in the browser; the public pages show them at once. */

const definition = (page: Page, label: string) =>
  page.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd[1]');

async function siteDetails(request: APIRequestContext, token: string): Promise<SiteDetails> {
  const response = await request.get(`${API_URL}${ADMIN_PATHS.site}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(response.status()).toBe(200);
  return (await response.json()) as SiteDetails;
}

/** Puts the records back as they were, so the specs after this one read the run's usual details. */
async function restore(request: APIRequestContext, token: string, original: SiteDetails) {
  const headers = { Authorization: `Bearer ${token}` };
  for (const [path, data] of [
    [ADMIN_PATHS.siteImpressum, original.impressum],
    [ADMIN_PATHS.siteContact, original.contact],
  ] as const) {
    expect((await request.put(`${API_URL}${path}`, { data, headers })).status()).toBe(200);
  }
}

test('an administrator corrects a bad email, saves, and /impressum and /contact show the new details', async ({
  page,
  request,
}) => {
  const admin = await createMember(request, ['admin'], 'siteadmin');
  const original = await siteDetails(request, admin.token);
  const name = `${uniqueName('Firma')} GmbH`;
  const email = `${uniqueName('office')}@example.com`;
  try {
    await useToken(page, admin.token);
    await page.goto('/admin/company');
    await expect(page.getByRole('heading', { level: 1, name: T.title })).toBeVisible();
    const contact = page.getByRole('form', { name: T.contactHeading });
    const emailField = contact.getByRole('textbox', { name: /^Email/ });
    await expect(emailField).toHaveValue(original.contact.email ?? '');

    await emailField.fill('not an email');
    await contact.getByRole('button', { name: T.saveContact }).click();
    await expect(contact.getByText('Email must be an email address')).toBeVisible();
    await expect(emailField).toHaveValue('not an email');

    await emailField.fill(email);
    await contact.getByRole('textbox', { name: /^Phone/ }).fill('+49 40 0000007');
    await contact.getByRole('textbox', { name: /^Address/ }).fill('Hafenweg 3, 99998 Neustadt');
    await contact.getByRole('button', { name: T.saveContact }).click();
    await expect(contact.getByText(T.saved)).toBeVisible();

    const impressum = page.getByRole('form', { name: T.impressumHeading });
    await impressum.getByRole('textbox', { name: /^Company name/ }).fill(name);
    await impressum.getByRole('textbox', { name: /^Register entry/ }).fill('Amtsgericht Neustadt, HRB 22222');
    await impressum.getByRole('button', { name: T.saveImpressum }).click();
    await expect(impressum.getByText(T.saved)).toBeVisible();

    await page.goto('/impressum');
    await expect(definition(page, 'Name')).toHaveText(name);
    await expect(definition(page, 'Commercial register')).toHaveText('Amtsgericht Neustadt, HRB 22222');
    await page.goto('/contact');
    await expect(page.getByRole('link', { name: email })).toHaveAttribute('href', `mailto:${email}`);
    await expect(definition(page, 'Address')).toHaveText('Hafenweg 3, 99998 Neustadt');
  } finally {
    await restore(request, admin.token, original);
  }
});

test('a member sees "Administrators only" and no form', async ({ page, request }) => {
  const member = await createMember(request, [], 'sitemember');
  await useToken(page, member.token);
  await page.goto('/admin/company');
  await expect(page.getByText(T.adminOnly)).toBeVisible();
  await expect(page.getByRole('form')).toHaveCount(0);
  await expect(page.getByRole('main').getByRole('textbox')).toHaveCount(0);
});

import { API_PATHS, RATE_LIMIT_MESSAGES } from '@app/contracts';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { API_URL } from '../support/api';

/**
 * Issue 19 in the browser. The suite runs from 127.0.0.1 with generous limits (playwright.config.ts), and
 * 127.0.0.1 is the API's trusted proxy there: these tests name a client address of their own in
 * X-Forwarded-For, use up that address's real budget with cheap invalid requests, and then act as a visitor
 * from it. The address is new on every run, so a database reused between local runs does not matter.
 */
const clientAddress = () =>
  `198.18.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;

/** Sends invalid (400, still counted) requests from `address` until the limit answers 429. */
async function useUpLimit(request: APIRequestContext, path: string, address: string) {
  for (let sent = 0; sent < 5000; sent += 25) {
    const answers = await Promise.all(
      Array.from({ length: 25 }, () =>
        request.post(`${API_URL}${path}`, { data: {}, headers: { 'X-Forwarded-For': address } }),
      ),
    );
    if (answers.some((r) => r.status() === 429)) return;
  }
  throw new Error(`no 429 from ${path} after 5000 requests`);
}

/** Every API call of this page comes from `address`, as if through the trusted proxy. */
async function visitFrom(page: Page, address: string) {
  await page.route(
    (url) => url.origin === API_URL,
    (route) => route.continue({ headers: { ...route.request().headers(), 'x-forwarded-for': address } }),
  );
}

const field = (page: Page, label: string) => page.getByLabel(new RegExp(`^${label}( \\*)?$`));

test('Register over the limit shows the message on the form and keeps what was typed', async ({
  page,
  request,
}) => {
  const address = clientAddress();
  await useUpLimit(request, API_PATHS.register, address);
  await visitFrom(page, address);
  await page.goto('/register');
  const typed: [string, string][] = [
    ['Username', 'limited_visitor'],
    ['Email', 'limited.visitor@example.com'],
    ['Password', 'Str0ngPassw0rd'],
    ['Confirm Password', 'Str0ngPassw0rd'],
    ['First Name', 'Limited'],
    ['Street Address', '1 Flood Road'],
  ];
  for (const [label, value] of typed) await field(page, label).fill(value);
  await page.getByRole('button', { name: 'Create Account' }).click();

  const alert = page.getByRole('main').getByRole('alert');
  await expect(alert).toContainText(RATE_LIMIT_MESSAGES.register);
  await expect(alert).toContainText(/Please try again in \d+ (minute|minutes|hour)\./);
  for (const [label, value] of typed) await expect(field(page, label)).toHaveValue(value);
  await expect(page.getByRole('region', { name: 'Account created' })).toHaveCount(0);
});

test('a survey submit over the limit shows the message on the last step and keeps the draft', async ({
  page,
  request,
}) => {
  const address = clientAddress();
  await useUpLimit(request, API_PATHS.marketAssessment, address);
  await visitFrom(page, address);
  await page.goto('/');
  await page.getByRole('button', { name: 'Start Free Assessment' }).click();
  const d = page.getByRole('dialog', { name: 'Market Assessment' });
  const progress = d.getByRole('progressbar', { name: 'Survey progress' });
  await expect(progress).toBeVisible();
  await d.getByRole('combobox', { name: 'Company size' }).selectOption('51-200');
  await d.getByRole('combobox', { name: 'Industry' }).selectOption('logistics');
  await d.getByRole('combobox', { name: 'Your role' }).selectOption('coo');
  await d.getByRole('button', { name: 'Next' }).click();
  await d.getByRole('checkbox').first().check();
  await d.getByRole('button', { name: 'Next' }).click();
  await d.getByRole('checkbox').first().check();
  await d.getByRole('button', { name: 'Next' }).click();
  await expect(progress).toHaveAttribute('aria-valuenow', '4');
  await d.getByRole('textbox', { name: 'Email' }).fill('flooded@example.com');
  await d.getByRole('button', { name: 'Complete Assessment' }).click();

  const alert = d.getByRole('alert');
  await expect(alert).toContainText(RATE_LIMIT_MESSAGES.assessment);
  await expect(alert).toContainText(/Please try again in \d+ (minute|minutes|hour)\./);
  await expect(progress).toHaveAttribute('aria-valuenow', '4');
  await expect(d.getByRole('textbox', { name: 'Email' })).toHaveValue('flooded@example.com');
  const draft = await page.evaluate(() => sessionStorage.getItem('market-assessment-draft'));
  expect(JSON.parse(draft ?? 'null')?.values).toMatchObject({
    email: 'flooded@example.com',
    companySize: '51-200',
  });
});

import { MESSAGES } from '@app/contracts';
import { seriousViolations, shot } from '../support/a11y';
import { createMember, DEFAULT_PASSWORD, uniqueName, useToken } from '../support/api';
import { expect, type Page, test } from '../support/test';

const COMPANY = MESSAGES.app.companyName;
const P = MESSAGES.profile;
const R = MESSAGES.register;
const main = (page: Page) => page.locator('main');
// Labels of required fields carry a '*' mark: match the label text from its start.
const field = (page: Page, label: string) => page.getByLabel(new RegExp(`^${label}(\\s*\\*)?$`));
const noSideScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

async function register(page: Page) {
  const username = uniqueName('panel');
  await page.goto('/register');
  await field(page, 'Username').fill(username);
  await field(page, 'Email').fill(`${username}@example.com`);
  await field(page, 'Password').fill(DEFAULT_PASSWORD);
  await field(page, 'Confirm Password').fill(DEFAULT_PASSWORD);
  await field(page, 'First Name').fill('Panel');
  await field(page, 'Street Address').fill('1 Panel Street');
  await page.getByRole('button', { name: R.create }).click();
}

const SIZES = [
  { name: 'desktop', viewport: { width: 1366, height: 900 } },
  { name: 'mobile', viewport: { width: 390, height: 844 } },
] as const;

for (const size of SIZES) {
  for (const theme of ['light', 'dark'] as const) {
    test.describe(`account screens at ${size.viewport.width} px, ${theme} theme`, () => {
      test.use({ viewport: size.viewport, colorScheme: theme });

      test('after registering, a confirmation panel replaces the form and leads on', async ({ page }) => {
        await page.goto('/register');
        await expect(page).toHaveTitle(`Create Account | ${COMPANY}`);
        await shot(page, `register-form-${size.name}-${theme}`);
        await register(page);

        const panel = main(page).getByRole('region', { name: 'Account created' });
        await expect(panel).toBeVisible();
        await expect(page.getByRole('form', { name: 'Create Account' })).toHaveCount(0);
        await expect(field(page, 'Username')).toHaveCount(0);
        await expect(page.getByRole('button', { name: R.create })).toHaveCount(0);
        // Focus lands on the panel's heading, so a screen reader announces the result.
        await expect(panel.getByRole('heading', { level: 1, name: 'Account created' })).toBeFocused();
        await expect(panel).toContainText('An administrator must activate your account');
        await expect(panel.getByRole('heading', { level: 2, name: 'What happens next' })).toBeVisible();
        await expect(panel.getByRole('link', { name: 'Contact us' })).toBeVisible();
        await expect(panel.getByRole('link', { name: 'Browse Research' })).toBeVisible();
        await expect(page).toHaveTitle(`Account created | ${COMPANY}`);
        expect(await noSideScroll(page)).toBe(true);
        expect(await seriousViolations(page)).toEqual([]);
        await shot(page, `register-done-${size.name}-${theme}`);

        await panel.getByRole('link', { name: 'Browse Research' }).click();
        await expect(page).toHaveURL(/\/research-center$/);
      });

      test('profile: feedback under its control, Delete Account in a danger zone', async ({
        page,
        request,
      }) => {
        const member = await createMember(request, [], 'polish');
        await useToken(page, member.token);
        await page.goto('/profile');
        await expect(page).toHaveTitle(`My Profile | ${COMPANY}`);
        const quick = page.getByRole('article', { name: 'Quick Actions' });
        const zone = page.getByRole('region', { name: 'Danger Zone' });
        await expect(zone.getByRole('button', { name: 'Delete Account' })).toBeVisible();
        await expect(zone).toContainText('This cannot be undone.');

        const optIn = quick.getByRole('switch', { name: 'Email Opt-In' });
        await optIn.click();
        const saved = quick.getByRole('status');
        await expect(saved).toHaveText(P.preferencesSaved);
        await expect(zone.getByText(P.preferencesSaved)).toHaveCount(0);
        // On screen, the message sits right below the switch, and above the danger zone.
        const [switchBox, savedBox, zoneBox] = await Promise.all([
          optIn.boundingBox(),
          saved.boundingBox(),
          zone.boundingBox(),
        ]);
        if (!switchBox || !savedBox || !zoneBox) throw new Error('profile controls not laid out');
        expect(savedBox.y).toBeGreaterThan(switchBox.y + switchBox.height - 1);
        expect(savedBox.y - (switchBox.y + switchBox.height)).toBeLessThan(80);
        expect(zoneBox.y).toBeGreaterThan(savedBox.y + savedBox.height);
        // Outlined, not filled: the button's background is not the danger colour of its border.
        const [background, border] = await zone
          .getByRole('button', { name: 'Delete Account' })
          .evaluate((el) => [getComputedStyle(el).backgroundColor, getComputedStyle(el).borderTopColor]);
        expect(background).toBe('rgba(0, 0, 0, 0)');
        expect(border).not.toBe(background);
        expect(await noSideScroll(page)).toBe(true);
        expect(await seriousViolations(page)).toEqual([]);
        await zone.scrollIntoViewIfNeeded();
        await shot(page, `profile-${size.name}-${theme}`);
      });

      test('login names its tab and its links are styled', async ({ page }) => {
        await page.goto('/login');
        await expect(page).toHaveTitle(`Log In | ${COMPANY}`);
        const link = main(page).getByRole('link', { name: 'Create an account' });
        const decoration = await link.evaluate((el) => getComputedStyle(el).textDecorationLine);
        expect(decoration).toBe('none');
        expect(await seriousViolations(page)).toEqual([]);
        await shot(page, `login-${size.name}-${theme}`);
      });
    });
  }
}

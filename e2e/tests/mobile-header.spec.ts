import { MESSAGES } from '@app/contracts';
import { seriousViolations, shot } from '../support/a11y';
import { createMember, useToken } from '../support/api';
import { SHELL_URL } from '../support/ports';
import { settle } from '../support/settle';
import { expect, type Page, test } from '../support/test';

const menuButton = (page: Page) =>
  page.getByRole('banner').getByRole('button', { name: /^(Menu|Close menu)$/ });
const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

for (const theme of ['light', 'dark'] as const) {
  const other = theme === 'light' ? 'dark' : 'light';

  test.describe(`header at 390 px, ${theme} theme`, () => {
    test.use({ viewport: { width: 390, height: 844 }, colorScheme: theme });

    test('a compact bar whose menu opens, navigates and closes', async ({ page }) => {
      await page.goto('/about');
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
      const bar = await page.getByRole('banner').boundingBox();
      expect(bar?.height).toBeLessThanOrEqual(64);
      // The brand starts on the content's edge.
      const brand = await page.getByRole('link', { name: MESSAGES.app.companyName }).boundingBox();
      const heading = await page.getByRole('heading', { level: 1 }).first().boundingBox();
      expect(Math.abs((brand?.x ?? -1) - (heading?.x ?? -99))).toBeLessThanOrEqual(1);
      // No links on the bar itself: they are in the menu.
      await expect(mainNav(page)).toHaveCount(0);
      await shot(page, `mobile-${theme}-closed`);

      const button = menuButton(page);
      await expect(button).toHaveAccessibleName('Menu');
      await expect(button).toHaveAttribute('aria-expanded', 'false');
      await button.click();
      await expect(button).toHaveAttribute('aria-expanded', 'true');
      await expect(button).toHaveAccessibleName('Close menu');
      const nav = mainNav(page);
      await expect(nav).toBeVisible();
      await expect(nav).toHaveAttribute('id', (await button.getAttribute('aria-controls')) ?? '');
      for (const name of ['Home', 'About', 'Contact', 'Research', 'Login', 'Sign Up']) {
        await expect(nav.getByRole('link', { name, exact: true })).toBeVisible();
      }
      await expect(nav.getByRole('link', { name: 'Home' })).toBeFocused();
      await shot(page, `mobile-${theme}-open`);

      // The page behind does not scroll while the menu is open.
      await page.mouse.move(200, 780);
      await page.mouse.wheel(0, 600);
      await settle(page);
      expect(await page.evaluate(() => window.scrollY)).toBe(0);

      await nav.getByRole('link', { name: 'Research' }).click();
      await expect(page).toHaveURL(/\/research-center$/);
      await expect(mainNav(page)).toHaveCount(0);
      await expect(button).toBeFocused();
      await button.click();
      await expect(mainNav(page).getByRole('link', { name: 'Research' })).toHaveAttribute(
        'aria-current',
        'page',
      );

      // A click outside the menu closes it.
      await page.mouse.click(200, 800);
      await expect(mainNav(page)).toHaveCount(0);
      await expect(button).toHaveAttribute('aria-expanded', 'false');
    });

    test('keyboard: Tab stays in the header, Esc closes and returns focus', async ({ page }) => {
      await page.goto('/contact');
      const button = menuButton(page);
      await button.focus();
      await page.keyboard.press('Enter');
      const nav = mainNav(page);
      await expect(nav.getByRole('link', { name: 'Home' })).toBeFocused();
      // Through the seven items of the menu (six links, the theme toggle), then around to the brand.
      for (let i = 0; i < 7; i += 1) await page.keyboard.press('Tab');
      await expect(page.getByRole('link', { name: MESSAGES.app.companyName })).toBeFocused();
      await page.keyboard.press('Shift+Tab');
      await expect(nav.getByRole('button', { name: `Switch to ${other} mode` })).toBeFocused();
      await page.keyboard.press('Escape');
      await expect(mainNav(page)).toHaveCount(0);
      await expect(button).toBeFocused();
      await expect(button).toHaveAttribute('aria-expanded', 'false');
    });

    test('the theme toggle works from the menu', async ({ page }) => {
      await page.goto('/about');
      await menuButton(page).click();
      const toggle = mainNav(page).getByRole('button', { name: `Switch to ${other} mode` });
      await expect(toggle.locator('svg')).toBeVisible();
      await toggle.click();
      await expect(page.locator('html')).toHaveAttribute('data-theme', other);
      expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe(other);
      await expect(mainNav(page).getByRole('button', { name: `Switch to ${theme} mode` })).toBeVisible();
      await shot(page, `mobile-${theme}-toggled`);
    });

    test('a member logs out from the menu; axe finds nothing serious with the menu open', async ({
      page,
      request,
    }) => {
      const member = await createMember(request);
      await useToken(page, member.token);
      await page.goto('/about');
      await menuButton(page).click();
      const nav = mainNav(page);
      await expect(nav.getByRole('link', { name: 'Profile' })).toBeVisible();
      await expect(nav.getByRole('link', { name: 'Login' })).toHaveCount(0);
      await shot(page, `mobile-${theme}-member-open`);
      expect(await seriousViolations(page)).toEqual([]);

      await nav.getByRole('button', { name: 'Logout' }).click();
      await expect(page).toHaveURL(`${SHELL_URL}/`);
      expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
      await expect(mainNav(page)).toHaveCount(0);
      await menuButton(page).click();
      await expect(mainNav(page).getByRole('link', { name: 'Login' })).toBeVisible();
      await expect(mainNav(page).getByRole('button', { name: 'Logout' })).toHaveCount(0);
    });
  });

  test.describe(`header at 1366 px, ${theme} theme`, () => {
    test.use({ viewport: { width: 1366, height: 900 }, colorScheme: theme });

    test('one row with every link, the theme toggle and Logout; no menu button', async ({
      page,
      request,
    }) => {
      const member = await createMember(request);
      await useToken(page, member.token);
      await page.goto('/post/1');
      const banner = page.getByRole('banner');
      expect((await banner.boundingBox())?.height).toBeLessThanOrEqual(64);
      await expect(menuButton(page)).toBeHidden();
      const nav = mainNav(page);
      const names = ['Home', 'About', 'Contact', 'Research', 'Profile'];
      const tops = new Set<number>();
      for (const name of names) {
        const link = nav.getByRole('link', { name, exact: true });
        await expect(link).toBeVisible();
        tops.add(Math.round((await link.boundingBox())?.y ?? -1));
      }
      expect(tops.size).toBe(1);
      await expect(nav.getByRole('link', { name: 'Research' })).toHaveAttribute('aria-current', 'page');
      await shot(page, `desktop-${theme}`);
      expect(await seriousViolations(page)).toEqual([]);

      await nav.getByRole('button', { name: `Switch to ${other} mode` }).click();
      await expect(page.locator('html')).toHaveAttribute('data-theme', other);
      await nav.getByRole('button', { name: 'Logout' }).click();
      await expect(page).toHaveURL(`${SHELL_URL}/`);
      await expect(nav.getByRole('link', { name: 'Login' })).toBeVisible();
    });
  });
}

test.describe('header at 1024 px, the narrowest one-row layout', () => {
  test.use({ viewport: { width: 1024, height: 768 } });

  test("an admin's longest row (Admin, Profile, Logout) fits with the brand whole", async ({
    page,
    request,
  }) => {
    const admin = await createMember(request, ['admin']);
    await useToken(page, admin.token);
    await page.goto('/about');
    const nav = mainNav(page);
    await expect(nav.getByRole('button', { name: /^Admin/ })).toBeVisible();
    expect((await page.getByRole('banner').boundingBox())?.height).toBeLessThanOrEqual(64);
    const brand = page.getByRole('link', { name: MESSAGES.app.companyName });
    expect(await brand.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    const centres: number[] = [];
    for (const control of [
      brand,
      nav.getByRole('button', { name: /^Admin/ }),
      nav.getByRole('button', { name: 'Logout' }),
    ]) {
      const box = await control.boundingBox();
      centres.push((box?.y ?? 0) + (box?.height ?? 0) / 2);
    }
    expect(Math.max(...centres) - Math.min(...centres)).toBeLessThanOrEqual(2);
    await shot(page, 'desktop-1024-admin');
  });
});

test('the not-found page names the tab', async ({ page }) => {
  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { name: MESSAGES.app.notFoundTitle })).toBeVisible();
  await expect(page).toHaveTitle(`${MESSAGES.app.notFoundTitle} | ${MESSAGES.app.companyName}`);
});

import { MESSAGES } from '@app/contracts';
import { expect, type Page, test } from '../support/test';

// Issue 16: the first screen of the static routes is in the HTML (docs/decisions/0018-prerendered-first-screen.md).
const PAGES = [
  { path: '/', heading: /^See the risks/ },
  { path: '/about', heading: /^About/ },
  { path: '/login', heading: 'Log In' },
  { path: '/register', heading: 'Create Account' },
  { path: '/research-center', heading: 'Research Center' },
];

test.describe('before any script runs', () => {
  test.use({ javaScriptEnabled: false });

  for (const { path, heading } of PAGES) {
    test(`${path} shows its header, its first screen and its footer from the HTML alone`, async ({
      page,
    }) => {
      await page.goto(path);
      const picture = page.locator('[data-prerendered-frame]');
      await expect(picture.locator('header').first()).toContainText('Research'); // the site header
      await expect(picture.locator('main h1')).toHaveText(heading);
      await expect(picture.locator('footer').last()).toBeVisible();
      // A picture, not yet a page: nothing in it can be focused, clicked or typed into.
      await expect(picture).toHaveAttribute('inert', '');
      await expect(picture).toHaveAttribute('aria-hidden', 'true');
      // No ids in the picture: no label or script can find a control there instead of the live one.
      await expect(picture.locator('[id], label[for]')).toHaveCount(0);
    });
  }

  test('a page without a pre-rendered screen still shows the frame', async ({ page }) => {
    await page.goto('/post/1');
    await expect(page.locator('[data-prerendered-frame] header').first()).toContainText('Research');
    await expect(page.locator('[data-prerendered-frame] main h1')).toHaveCount(0);
  });
});

/**
 * Sum of layout-shift scores from navigation start, as Lighthouse's CLS counts them (no recent input), and
 * whether the shell's region skeleton ever showed (it must not: the picture stays until the remote is live).
 */
async function watchLayoutShifts(page: Page) {
  await page.addInitScript((skeleton) => {
    const state = window as unknown as { __shift: number; __skeleton: boolean };
    state.__shift = 0;
    state.__skeleton = false;
    new MutationObserver(() => {
      if (document.querySelector(skeleton)) state.__skeleton = true;
    }).observe(document, { childList: true, subtree: true });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[]) {
        if (!entry.hadRecentInput) state.__shift += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  }, `[aria-busy="true"][aria-label="${MESSAGES.app.loading}"]`);
}

test.describe('when the app takes over', () => {
  for (const { path, heading } of PAGES) {
    test(`${path}: the live page replaces the picture in place, nothing moves, one of everything`, async ({
      page,
    }) => {
      await watchLayoutShifts(page);
      // The remote's entry arrives well after the shell has rendered, as on a slow phone: the shell's first
      // screen must hold the picture (not a skeleton) until then.
      await page.route(/remoteEntry\.js/, async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 1500));
        await route.continue();
      });
      await page.goto(path);
      // Live: the heading is reachable (the inert picture is not), the picture is gone.
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await expect(page.locator('[data-prerendered-frame], [data-prerendered-region]')).toHaveCount(0);
      await expect(page.locator('h1')).toHaveCount(1);
      await expect(page.getByRole('banner')).toHaveCount(1);
      await expect(page.getByRole('contentinfo')).toHaveCount(1);
      await page.waitForLoadState('networkidle');
      const { shift, skeleton } = await page.evaluate(() => {
        const state = window as unknown as { __shift: number; __skeleton: boolean };
        return { shift: state.__shift, skeleton: state.__skeleton };
      });
      expect(shift).toBeLessThanOrEqual(0.02);
      expect(skeleton, 'the region skeleton showed between the picture and the live page').toBe(false);
    });
  }

  test('the live form works where the picture was: typing and submitting reach the app', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('Email').fill('nobody@example.com');
    await page.getByRole('button', { name: 'Log In' }).click();
    // Client-side validation of the live form (the picture has no script behind it).
    await expect(page.getByText(MESSAGES.login.required)).toBeVisible();
    await expect(page.getByLabel('Email')).toHaveValue('nobody@example.com');
  });
});

import { CHALLENGES, INTELLIGENCE_TOPICS, MESSAGES } from '@app/contracts';
import { seriousViolations, shot } from '../support/a11y';
import { expect, type Locator, type Page, test } from '../support/test';

// The survey at both sizes and in both themes: a full-screen sheet on a phone whose Previous/Next never
// leave the screen, a modal on the desktop, and the thanks outside it once completed.

const S = MESSAGES.survey;
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 900 };
const THANKS = 'Thank you! Your assessment is complete.';

const dialog = (page: Page) => page.getByRole('dialog', { name: 'Market Assessment' });
const thanks = (page: Page) => page.getByRole('status').getByRole('region', { name: THANKS });

async function open(page: Page, theme: 'light' | 'dark'): Promise<Locator> {
  await page.addInitScript((t) => localStorage.setItem('theme', t), theme);
  await page.goto('/');
  await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
  await page.getByRole('button', { name: 'Start Free Assessment' }).click();
  const d = dialog(page);
  await expect(d.getByRole('progressbar', { name: 'Survey progress' })).toBeVisible();
  return d;
}

/** Entirely inside the viewport, with no scrolling: what "always visible" means on a phone. */
async function expectOnScreen(page: Page, target: Locator) {
  await expect(target).toBeInViewport({ ratio: 1 });
  const box = (await target.boundingBox())!;
  expect(box.y + box.height).toBeLessThanOrEqual(page.viewportSize()!.height);
}

/** Not hidden under the sticky footer either. */
async function expectAboveFooter(target: Locator, footerButton: Locator) {
  const box = (await target.boundingBox())!;
  const footerTop = (await footerButton.boundingBox())!.y - 12;
  expect(box.y + box.height).toBeLessThanOrEqual(footerTop);
}

for (const theme of ['light', 'dark'] as const) {
  test.describe(`survey at 390x844, ${theme} theme`, () => {
    test.use({ viewport: PHONE });

    test('a full-screen sheet: Next is on screen without scrolling on every step, and each error in view', async ({
      page,
    }) => {
      const d = await open(page, theme);
      const size = (await d.boundingBox())!;
      expect(size.x).toBe(0);
      expect(size.width).toBe(PHONE.width);
      expect(size.height).toBeGreaterThanOrEqual(PHONE.height);
      const next = d.getByRole('button', { name: 'Next' });
      const previous = d.getByRole('button', { name: 'Previous' });
      await expectOnScreen(page, next);
      await expectOnScreen(page, previous);
      await expectOnScreen(page, d.getByRole('button', { name: 'Close' }));
      await shot(page, `phone-${theme}-step1`);

      await next.click();
      const sizeError = d.getByText(S.companySizeRequired);
      await expectOnScreen(page, sizeError);
      await expectAboveFooter(sizeError, next);
      await d.getByRole('combobox', { name: 'Company size' }).selectOption('51-200');
      await d.getByRole('combobox', { name: 'Industry' }).selectOption('logistics');
      await d.getByRole('combobox', { name: 'Your role' }).selectOption('coo');
      await expectOnScreen(page, next);
      await next.click();

      // Step 2 is taller than the screen: Next stays, and a failed Next brings the group's message into view.
      await expect(d.getByRole('heading', { name: 'Challenges and goals' })).toBeFocused();
      await expectOnScreen(page, next);
      await next.click();
      const challengeError = d.getByText(S.challengeRequired);
      await expectOnScreen(page, challengeError);
      await expectAboveFooter(challengeError, next);
      await expect(d.getByRole('checkbox', { name: CHALLENGES.labels['rising-costs'] })).toBeFocused();
      await shot(page, `phone-${theme}-step2-error`);
      // Scrolled to the end of the step, the buttons are still on screen.
      await d.getByRole('checkbox', { name: CHALLENGES.labels['rising-costs'] }).check();
      await d.getByRole('group', { name: 'Growth goals' }).scrollIntoViewIfNeeded();
      await expectOnScreen(page, next);
      await next.click();

      await expectOnScreen(page, next);
      await next.click();
      const topicError = d.getByText(S.topicRequired);
      await expectOnScreen(page, topicError);
      await expectAboveFooter(topicError, next);
      await d.getByRole('checkbox', { name: INTELLIGENCE_TOPICS.labels['market-trends'] }).check();
      await next.click();

      const complete = d.getByRole('button', { name: 'Complete Assessment' });
      await expectOnScreen(page, complete);
      await expectOnScreen(page, previous);
      await complete.click();
      await expectOnScreen(page, d.getByText(S.emailRequired));
      await shot(page, `phone-${theme}-step4-error`);

      // A failed submit keeps the answers, and its message is beside the button, wherever the page was.
      const isAssessment = (url: URL) => url.pathname.endsWith('/api/market-assessment');
      await page.route(isAssessment, (route) =>
        route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":"Down"}' }),
      );
      await d.getByRole('textbox', { name: 'Email' }).fill('phone@example.com');
      await d.getByRole('checkbox', { name: /free consultation/ }).scrollIntoViewIfNeeded();
      await complete.click();
      await expectOnScreen(page, d.getByRole('alert').filter({ hasText: S.failed }));
      await expect(d.getByRole('textbox', { name: 'Email' })).toHaveValue('phone@example.com');
      await shot(page, `phone-${theme}-submit-failed`);
      expect(await seriousViolations(page)).toEqual([]);

      await page.unroute(isAssessment);
      await complete.click();
      await expect(d).toBeHidden();
      await expectOnScreen(page, thanks(page));
      await shot(page, `phone-${theme}-thanks`);
      expect(await seriousViolations(page)).toEqual([]);
    });
  });

  test.describe(`survey at 1366x900, ${theme} theme`, () => {
    test.use({ viewport: DESKTOP });

    test('stays a centred modal, and the thanks show once it closes', async ({ page }) => {
      const d = await open(page, theme);
      const size = (await d.boundingBox())!;
      expect(size.width).toBe(640);
      expect(size.x).toBeGreaterThan(0);
      await shot(page, `desktop-${theme}-step1`);
      expect(await seriousViolations(page)).toEqual([]);

      await d.getByRole('combobox', { name: 'Company size' }).selectOption('51-200');
      await d.getByRole('combobox', { name: 'Industry' }).selectOption('logistics');
      await d.getByRole('combobox', { name: 'Your role' }).selectOption('coo');
      await d.getByRole('button', { name: 'Next' }).click();
      await d.getByRole('button', { name: 'Next' }).click();
      await expectOnScreen(page, d.getByText(S.challengeRequired));
      await expectOnScreen(page, d.getByRole('button', { name: 'Next' }));
      await shot(page, `desktop-${theme}-step2-error`);
      await d.getByRole('checkbox', { name: CHALLENGES.labels['rising-costs'] }).check();
      await d.getByRole('button', { name: 'Next' }).click();
      await d.getByRole('checkbox', { name: INTELLIGENCE_TOPICS.labels['market-trends'] }).check();
      await d.getByRole('button', { name: 'Next' }).click();
      await d.getByRole('textbox', { name: 'Email' }).fill('desk@example.com');
      await d.getByRole('button', { name: 'Complete Assessment' }).click();

      await expect(d).toBeHidden();
      await expectOnScreen(page, thanks(page));
      // The hero's button opened it and is still there: focus went back to it.
      await expect(page.getByRole('button', { name: 'Start Free Assessment' })).toBeFocused();
      await page.getByRole('region', { name: 'Premium Risk Assessments' }).scrollIntoViewIfNeeded();
      await expect(page.getByText('Premium · On its way')).toHaveCount(3);
      await shot(page, `desktop-${theme}-thanks`);
      expect(await seriousViolations(page)).toEqual([]);
      await thanks(page).getByRole('button', { name: 'Dismiss' }).click();
      await expect(thanks(page)).toHaveCount(0);
    });
  });
}

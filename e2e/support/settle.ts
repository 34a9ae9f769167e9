import type { Page } from '@playwright/test';

/**
 * Resolves once the page has rendered two frames and run the tasks queued before them: whatever a click or a
 * wheel started (a javascript: navigation, a scroll, a dialog) has happened by then. For checks that
 * something did NOT happen, instead of sleeping a guessed number of milliseconds.
 */
export async function settle(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) =>
        requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 0))),
      ),
  );
}

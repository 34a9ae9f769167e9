import { API_URL } from './api';
import type { Page } from './test';

const PRIMED_BLOCK = /<script type="application\/json" data-primed-responses="">.*?<\/script>/s;

/**
 * Takes the pages at these paths as the edge sends them when it has no answers from the API (down,
 * or later than its budget; decision 0021): without the primed data block, so the live page asks the API
 * itself. For tests that answer or refuse the browser's API calls: with the server's answers in the page, the
 * browser would ask nothing. Call it before the test's own routes of the API: routes registered later come
 * first.
 */
export async function withoutPrimedAnswers(page: Page, paths: string[]): Promise<void> {
  // A document the test fulfils has no address, so Chromium's Local Network Access check takes it for a
  // public page and refuses its requests to the API on loopback. They are passed through here instead (a
  // test's own routes, registered later, still come first).
  await page.route(
    (url) => url.href.startsWith(`${API_URL}/api/`),
    async (route) => route.fulfill({ response: await route.fetch() }),
  );
  await page.route(
    (url) => paths.includes(url.pathname),
    async (route) => {
      if (route.request().resourceType() !== 'document') return route.continue();
      const response = await route.fetch();
      const body = (await response.text()).replace(PRIMED_BLOCK, '');
      await route.fulfill({ response, body });
    },
  );
}

/** The API requests (path and query) the edge answered for this page, for a guest; [] without. */
export async function primedRequests(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const text = document.querySelector('script[data-primed-responses]')?.textContent;
    return text ? Object.keys(JSON.parse(text) as object) : [];
  });
}

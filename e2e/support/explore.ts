import { API_PATHS, TOKEN_KEY } from '@app/contracts';
import { API_URL } from './api';
import { primedRequests } from './primed';
import { expect, type Page } from './test';

/**
 * Opens the Research Center and returns Explore's first list request: the one the browser sent or, on a
 * guest's arrival, the one the edge sent for it and primed the page with (decision 0021; the
 * server does so when the API answers within its budget, else the browser asks as before).
 */
export async function openExplore(page: Page): Promise<URL> {
  const sent: URL[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname === API_PATHS.posts && r.method() === 'GET') sent.push(url);
  });
  await page.goto('/research-center');
  await expect(page.getByRole('heading', { level: 1, name: 'Research Center' })).toBeVisible();
  // A member's page never uses the server's answers.
  const guest = await page.evaluate((tokenKey) => localStorage.getItem(tokenKey) === null, TOKEN_KEY);
  const primed = guest ? await primedRequests(page) : [];
  const primedList = primed.find((key) => key.startsWith(`${API_PATHS.posts}?`));
  if (primedList) return new URL(primedList, API_URL);
  await expect.poll(() => sent.length).toBeGreaterThan(0);
  return sent[0]!;
}

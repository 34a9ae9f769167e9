import { NEXT_CURSOR_HEADER } from '@app/contracts';
import { seriousViolations, shot } from '../support/a11y';
import { createMember, createPost, type TestUser, uniqueName } from '../support/api';
import { openExplore } from '../support/explore';
import { type APIRequestContext, expect, type Page, test } from '../support/test';

// Explore asks for 50 a page: more than two pages of fresh posts make it page at least twice, whatever the
// database already holds.
const POSTS = 110;

async function createPublicPosts(request: APIRequestContext, author: TestUser, prefix: string) {
  const ids: number[] = [];
  // One after another in small batches: creation order is the order Explore must show (newest first).
  for (let start = 0; start < POSTS; start += 10) {
    const batch = Array.from({ length: Math.min(10, POSTS - start) }, (_, i) => start + i);
    const created = await Promise.all(
      batch.map(async (n) => {
        const post = await createPost(request, author, {
          title: `${prefix} ${String(n).padStart(3, '0')}`,
          content: `Paging body ${n}`,
          visibility: 'public',
          status: 'published',
        });
        return post.id;
      }),
    );
    ids.push(...created);
  }
  return ids;
}

/** Every id of a list, following X-Next-Cursor to the end: what Explore must show once it is all loaded. */
async function allIds(request: APIRequestContext, first: URL): Promise<{ ids: number[]; pages: number }> {
  const ids: number[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const url = new URL(first);
    if (cursor) url.searchParams.set('cursor', cursor);
    const response = await request.get(url.toString());
    expect(response.ok()).toBe(true);
    ids.push(...((await response.json()) as { id: number }[]).map((p) => p.id));
    cursor = response.headers()[NEXT_CURSOR_HEADER.toLowerCase()] ?? null;
    pages += 1;
  } while (cursor && pages < 500);
  return { ids, pages };
}

const cardIds = (page: Page) =>
  page.locator('article[data-post-id]').evaluateAll((cards) => cards.map((c) => Number(c.dataset.postId)));

test.describe('Load more', () => {
  // The second test looks at the pages the first one's posts make: they run in this order, as one.
  test.describe.configure({ mode: 'serial' });

  test('Explore pages back to the oldest post, showing each post exactly once', async ({ page, request }) => {
    test.setTimeout(180_000);
    const author = await createMember(request, [], 'pager');
    const prefix = `Paging ${uniqueName('p')}`;
    const created = await createPublicPosts(request, author, prefix);

    await page.setViewportSize({ width: 1366, height: 900 });
    const firstUrl = await openExplore(page);
    expect(firstUrl.searchParams.has('cursor')).toBe(false);
    const expected = await allIds(request, firstUrl);
    expect(expected.pages).toBeGreaterThanOrEqual(3);

    const more = page.getByRole('button', { name: 'Load more reports' });
    await expect(page.getByText(/^Showing 50 reports/)).toBeVisible();
    await expect(more).toBeVisible();
    await shot(page, 'explore-1366-light-first-page', true);

    let clicks = 0;
    while (await more.isVisible()) {
      const before = (await cardIds(page)).length;
      await more.click();
      await expect.poll(async () => (await cardIds(page)).length).toBeGreaterThan(before);
      clicks += 1;
      expect(clicks).toBeLessThan(expected.pages);
    }
    await expect(more).toBeHidden();
    expect(clicks).toBe(expected.pages - 1);

    const shown = await cardIds(page);
    // Each post once, in the server's order, down to the oldest.
    expect(new Set(shown).size).toBe(shown.length);
    expect(shown).toEqual(expected.ids);
    for (const id of created) expect(shown).toContain(id);
    expect(shown.indexOf(created[0]!)).toBeGreaterThan(shown.indexOf(created.at(-1)!));
    // The whole list is loaded: the count is a true total again.
    await expect(page.getByText(new RegExp(`^${shown.length} reports,`))).toBeVisible();
    // The button left with the last page; focus went to the first card that page added.
    await expect(page.locator('article[data-post-id]:focus')).toHaveCount(1);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'explore-1366-light-end');
  });

  // One test a theme and width: each loads the page and runs axe, which together outgrew one test's budget.
  for (const theme of ['light', 'dark'] as const) {
    for (const [width, height] of [
      [390, 844],
      [1366, 900],
    ] as const) {
      test(`Load more in the ${theme} theme at ${width} wide, axe-clean`, async ({ browser }) => {
        const context = await browser.newContext({ viewport: { width, height } });
        const page = await context.newPage();
        await page.addInitScript((value) => window.localStorage.setItem('theme', value), theme);
        await page.goto('/research-center');
        const more = page.getByRole('button', { name: 'Load more reports' });
        await more.scrollIntoViewIfNeeded();
        await more.focus();
        await expect(more).toBeFocused();
        await shot(page, `load-more-${width}-${theme}`);
        const before = (await cardIds(page)).length;
        await more.click();
        await expect.poll(async () => (await cardIds(page)).length).toBeGreaterThan(before);
        await expect(page.getByRole('status').filter({ hasText: /more reports loaded/ })).toHaveCount(1);
        expect(await seriousViolations(page)).toEqual([]);
        await context.close();
      });
    }
  }
});

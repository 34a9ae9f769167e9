import { API_PATHS, MESSAGES, type Post } from '@app/contracts';
import { API_URL, createMember, createPost, uniqueName, useToken } from '../support/api';
import { type APIRequestContext, expect, type Page, type Request, test } from '../support/test';

// Issue 16: the first screen of the static routes is in the HTML (docs/decisions/0018-prerendered-first-screen.md).
const PAGES = [
  { path: '/', heading: /^See the risks/ },
  { path: '/about', heading: /^About/ },
  { path: '/login', heading: 'Log In' },
  { path: '/register', heading: 'Create Account' },
  { path: '/research-center', heading: 'Research Center' },
];

/** A public post a new member published a moment ago. */
async function publishedPost(request: APIRequestContext, prefix: string, content: string): Promise<Post> {
  const author = await createMember(request);
  const title = uniqueName(prefix);
  return createPost(request, author, { title, content, visibility: 'public', status: 'published' });
}

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

  test("the Research Center's picture shows the research a guest would see, as it is now", async ({
    page,
    request,
  }) => {
    // Rendered per request with the API's answers (docs/decisions/0021-first-screen-with-data.md): a post
    // published a moment ago is in it, a draft is not.
    const author = await createMember(request);
    const title = uniqueName('Picture published');
    const hidden = uniqueName('Picture draft');
    const content = 'Rendered per request.';
    await createPost(request, author, { title, content, visibility: 'public', status: 'published' });
    await createPost(request, author, { title: hidden, content, visibility: 'public', status: 'draft' });
    await page.goto('/research-center');
    const picture = page.locator('[data-prerendered-frame] main');
    await expect(picture.locator('h3', { hasText: title })).toBeVisible();
    await expect(picture.locator('h3', { hasText: hidden })).toHaveCount(0);
    await expect(picture.locator('[id], label[for]')).toHaveCount(0);
  });

  test("Home's picture shows the latest articles as they are now", async ({ page, request }) => {
    const { title } = await publishedPost(request, 'Home picture', 'Newest.');
    await page.goto('/');
    const insights = page.locator('[data-prerendered-frame] main section', { hasText: 'Latest Insights' });
    await expect(insights.locator('article').first()).toContainText(title);
  });

  test("a post's picture is the post as a guest sees it, its body rendered and sanitised", async ({
    page,
    request,
  }) => {
    // Rendered per request from the API's answer (docs/decisions/0022-post-page-rendered-per-request.md).
    const post = await publishedPost(
      request,
      'Picture post',
      'A **bold** claim and [a link](javascript:alert(1)).',
    );
    await page.goto(`/post/${post.id}`);
    const picture = page.locator('[data-prerendered-frame] main');
    await expect(picture.locator('h1')).toHaveText(post.title);
    await expect(picture.locator('section strong')).toHaveText('bold');
    const link = picture.locator('section a', { hasText: 'a link' });
    await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    await expect(link).not.toHaveAttribute('href', /.*/);
    await expect(picture.locator('[id], label[for]')).toHaveCount(0);
  });

  test('a page without a pre-rendered screen still shows the frame', async ({ page }) => {
    await page.goto('/post/999999999');
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
      // The remote's entry arrives only after the shell has rendered, as on a slow phone: the shell's first
      // screen must hold the picture (not a skeleton) until then. The entry is held until the shell is live
      // (its banner: the server's frame is a picture hidden from assistive technology), not for a fixed time.
      let releaseEntry = () => {};
      const entryHeld = new Promise<void>((resolve) => {
        releaseEntry = resolve;
      });
      await page.route(/remoteEntry\.js/, async (route) => {
        await entryHeld;
        await route.continue();
      });
      await page.goto(path, { waitUntil: 'commit' });
      await expect(page.getByRole('banner')).toBeVisible();
      releaseEntry();
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

  test("a guest's Research Center starts from the server's answers: the same cards, no request, no skeleton", async ({
    page,
  }) => {
    await watchLayoutShifts(page);
    await page.addInitScript(() => {
      const state = window as unknown as { __listSkeleton: boolean };
      state.__listSkeleton = false;
      new MutationObserver(() => {
        if (document.querySelector('[role="status"][aria-label="Loading research"]'))
          state.__listSkeleton = true;
      }).observe(document, { childList: true, subtree: true });
    });
    const listRequests: Request[] = [];
    page.on('request', (r) => {
      if (/\/api\/posts(\?|\/tags|\/categories|\/search)/.test(r.url())) listRequests.push(r);
    });
    await page.goto('/research-center');
    await expect(page.locator('[data-prerendered-region]')).toHaveCount(0);
    const cards = page.getByRole('main').getByRole('article');
    await expect(cards.first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(await cards.count()).toBeGreaterThan(0);
    expect(listRequests.map((r) => r.url())).toEqual([]);
    const { shift, listSkeleton } = await page.evaluate(() => {
      const state = window as unknown as { __shift: number; __listSkeleton: boolean };
      return { shift: state.__shift, listSkeleton: state.__listSkeleton };
    });
    expect(shift).toBeLessThanOrEqual(0.02);
    expect(listSkeleton, 'the list skeleton showed although the page carried the list').toBe(false);
    // The answers are the first screen's only: a search asks the API as always.
    await page.getByLabel('Search research').fill('risk');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => listRequests.length).toBeGreaterThan(0);
  });

  test("a guest's Home starts from the server's answers: the articles at once, no request", async ({
    page,
  }) => {
    const asked: string[] = [];
    page.on('request', (r) => {
      if (r.url().startsWith(`${API_URL}/api/`) && r.method() === 'GET') asked.push(r.url());
    });
    await page.goto('/');
    await expect(page.locator('[data-prerendered-region]')).toHaveCount(0);
    const insights = page.getByRole('region', { name: 'Latest Insights' });
    await expect(insights.getByRole('article').first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(asked.filter((u) => /\/api\/(posts|dashboards)/.test(u))).toEqual([]);
  });

  test("a guest's post page starts from the server's answer, and the visit is counted once", async ({
    page,
    request,
  }) => {
    const post = await publishedPost(request, 'Counted post', 'Read once.');
    await watchLayoutShifts(page);
    await page.goto(`/post/${post.id}`);
    await expect(page.locator('[data-prerendered-region]')).toHaveCount(0);
    await expect(page.getByRole('heading', { level: 1, name: post.title })).toBeVisible();
    // The server's read was a prefetch; the page's own read counted the visit, and the page shows it.
    await expect(page.getByText('1 view', { exact: true })).toBeVisible();
    await page.waitForLoadState('networkidle');
    const now = await request.get(`${API_URL}${API_PATHS.post(post.id)}`, {
      headers: { 'Sec-Purpose': 'prefetch' },
    });
    expect(((await now.json()) as Post).views).toBe(1);
    const shift = await page.evaluate(() => (window as unknown as { __shift: number }).__shift);
    expect(shift).toBeLessThanOrEqual(0.02);
  });

  test("a member's Research Center never starts from a guest's answers", async ({ page, request }) => {
    const member = await createMember(request, ['paid-tier-1']);
    const author = await createMember(request);
    const title = uniqueName('Members only');
    await createPost(request, author, {
      title,
      content: 'For members.',
      visibility: 'members_only',
      status: 'published',
    });
    await useToken(page, member.token);
    const asked = page.waitForRequest(
      (r) => r.url().includes('/api/posts?') && r.headers().authorization === `Bearer ${member.token}`,
    );
    await page.goto('/research-center');
    await asked;
    await expect(page.getByRole('heading', { name: title })).toBeVisible();
  });
});

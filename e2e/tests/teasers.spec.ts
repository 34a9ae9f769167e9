import type { Post } from '@app/contracts';
import { seriousViolations, shot } from '../support/a11y';
import { createMember, createPost, uniqueName, useToken } from '../support/api';
import { expect, type Page, test } from '../support/test';

/**
 * Locked teasers and the upgrade path (issue 18 item 4): a post above the visitor's tier shows as a teaser
 * on Explore and on its page, with Log In and Sign Up for guests and Upgrade (to /plans) for members, and
 * its content reaches the browser in no response at all.
 */

/** Every response body the page receives, as text (API calls, documents and scripts alike). */
function recordResponses(page: Page): string[] {
  const bodies: string[] = [];
  page.on('response', async (response) => {
    try {
      bodies.push(await response.text());
    } catch {
      // redirects and aborted requests have no body
    }
  });
  return bodies;
}

const card = (page: Page, title: string) => page.getByRole('article', { name: title, exact: true });

interface Fixture {
  premium: Post;
  premiumTitle: string;
  privateTitle: string;
  draftTitle: string;
  marker: string;
}

let fx: Fixture;

test.beforeAll(async ({ request }) => {
  const author = await createMember(request, ['admin'], 'teaserauthor');
  const id = uniqueName('t');
  // The marker opens the body, so an excerpt cut from it would carry it too.
  const marker = `Bodymarker${id}`;
  const premiumTitle = `Premium outlook ${id}`;
  const premium = await createPost(request, author, {
    title: premiumTitle,
    summary: 'Where freight costs head next quarter, and what it means for mid-sized shippers.',
    content: `${marker} The detailed premium analysis that only Premium members may read.`,
    content_type: 'market_analysis',
    visibility: 'paid-tier-1',
    status: 'published',
  });
  const privateTitle = `Admin memo ${id}`;
  await createPost(request, author, {
    title: privateTitle,
    content: `${marker} private`,
    visibility: 'private',
    status: 'published',
  });
  const draftTitle = `Unfinished ${id}`;
  await createPost(request, author, {
    title: draftTitle,
    content: `${marker} draft`,
    visibility: 'paid-tier-1',
    status: 'draft',
  });
  fx = { premium, premiumTitle, privateTitle, draftTitle, marker };
});

const SIZES = { desktop: { width: 1366, height: 900 }, mobile: { width: 390, height: 844 } } as const;

for (const theme of ['light', 'dark'] as const) {
  for (const [size, viewport] of Object.entries(SIZES)) {
    test.describe(`teasers, ${theme} theme, ${size}`, () => {
      test.use({ viewport, colorScheme: theme });
      test.beforeEach(async ({ page }) => {
        await page.addInitScript((value) => window.localStorage.setItem('theme', value), theme);
      });

      test('a guest sees a premium teaser on Explore and on its page, with Log In and Sign Up', async ({
        page,
      }) => {
        const bodies = recordResponses(page);
        await page.goto('/research-center');
        await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
        const teaser = card(page, fx.premiumTitle);
        await expect(teaser).toBeVisible();
        await expect(teaser.getByText('Premium', { exact: true })).toBeVisible();
        await expect(teaser.getByText('Market Analysis')).toBeVisible();
        await expect(teaser.getByText('Where freight costs head next quarter')).toBeVisible();
        await expect(teaser.getByText('This research requires a Premium subscription.')).toBeVisible();
        await expect(teaser.getByRole('link', { name: `Log In to read ${fx.premiumTitle}` })).toHaveAttribute(
          'href',
          '/login',
        );
        await expect(
          teaser.getByRole('link', { name: `Sign Up to read ${fx.premiumTitle}` }),
        ).toHaveAttribute('href', '/register');
        await expect(teaser.getByRole('link', { name: /^Read / })).toHaveCount(0);
        // Never teased: admin-only posts and drafts.
        await expect(page.getByText(fx.privateTitle)).toHaveCount(0);
        await expect(page.getByText(fx.draftTitle)).toHaveCount(0);
        await teaser.scrollIntoViewIfNeeded();
        // The list is long: the screen around the teaser is what to look at.
        await shot(page, `explore-guest-${theme}-${size}`, false);
        expect(await seriousViolations(page)).toEqual([]);

        await page.goto(`/post/${fx.premium.id}`);
        const h1 = page.getByRole('heading', { level: 1, name: fx.premiumTitle });
        await expect(h1).toBeVisible();
        await expect(h1.locator('svg')).toBeVisible();
        await expect(page).toHaveTitle(new RegExp(`^${fx.premiumTitle} \\(locked\\)`));
        const unlock = page.getByRole('region', { name: 'Unlock this research' });
        await expect(unlock.getByText('This research requires a Premium subscription.')).toBeVisible();
        await expect(unlock.getByRole('link', { name: 'Log In' })).toHaveAttribute('href', '/login');
        await expect(unlock.getByRole('link', { name: 'Sign Up' })).toHaveAttribute('href', '/register');
        await expect(page.getByText(fx.marker)).toHaveCount(0);
        await shot(page, `post-guest-${theme}-${size}`);
        expect(await seriousViolations(page)).toEqual([]);

        await unlock.getByRole('link', { name: 'Sign Up' }).click();
        await expect(page).toHaveURL(/\/register$/);
        expect(bodies.length).toBeGreaterThan(0);
        expect(bodies.filter((b) => b.includes(fx.marker))).toEqual([]);
      });

      test('a basic member sees Upgrade, which leads to the Plans page', async ({ page, request }) => {
        const member = await createMember(request, [], 'basic');
        await useToken(page, member.token);
        const bodies = recordResponses(page);
        await page.goto('/research-center');
        const teaser = card(page, fx.premiumTitle);
        const upgrade = teaser.getByRole('link', { name: `Upgrade to read ${fx.premiumTitle}` });
        await expect(upgrade).toBeVisible();
        await expect(teaser.getByRole('link', { name: /Log In|Sign Up/ })).toHaveCount(0);

        await page.goto(`/post/${fx.premium.id}`);
        const unlock = page.getByRole('region', { name: 'Unlock this research' });
        await expect(unlock.getByRole('link', { name: 'Upgrade' })).toBeVisible();
        await shot(page, `post-member-${theme}-${size}`);
        await unlock.getByRole('link', { name: 'Upgrade' }).click();

        await expect(page).toHaveURL(/\/plans$/);
        await expect(
          page.getByRole('heading', { level: 1, name: 'Plans for every stage of your business' }),
        ).toBeVisible();
        await expect(page).toHaveTitle(/^Plans \| /);
        const basic = page.getByRole('article', { name: 'Basic Member' });
        await expect(basic.getByText('Your plan')).toBeVisible();
        await expect(page.getByRole('article', { name: 'Premium', exact: true })).toBeVisible();
        await expect(page.locator('main').getByRole('link', { name: 'Contact us' }).first()).toHaveAttribute(
          'href',
          '/contact',
        );
        await shot(page, `plans-member-${theme}-${size}`);
        expect(await seriousViolations(page)).toEqual([]);

        // The call to action: the shell opens the market assessment.
        await page.getByRole('button', { name: 'Start Free Assessment' }).first().click();
        await expect(page.getByRole('dialog', { name: 'Market Assessment' })).toBeVisible();
        expect(bodies.filter((b) => b.includes(fx.marker))).toEqual([]);
      });
    });
  }
}

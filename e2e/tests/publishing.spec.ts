import path from 'node:path';
import { API_PATHS } from '@app/contracts';
import { shot as fullShot } from '../support/a11y';
import { API_URL, createMember, createPost, uniqueName, useToken } from '../support/api';
import { expect, type Page, test } from '../support/test';

// Required fields carry a '*' mark in their label: match the label text from its start.
const field = (page: Page, label: string) => page.getByLabel(new RegExp(`^${label}(\\s*\\*)?$`));

const shot = (page: Page, name: string) => fullShot(page, name, true);

const CONTENT = [
  '## Shrinkage in a 12-store chain',
  '',
  'Losses run at **3-10% of revenue**; <img src=x onerror=alert(1)>on-site audits cut them.',
  '',
  '- [Benchmarks](https://example.com) for mid-market retailers',
].join('\n');
const EXCERPT_START =
  'Shrinkage in a 12-store chain. Losses run at 3-10% of revenue; on-site audits cut them.';

test.describe('what members publish', () => {
  test('a basic member sees only Public and Members, publishes a public post and finds it on Home', async ({
    page,
    request,
  }) => {
    test.setTimeout(90_000);
    const member = await createMember(request, [], 'writer');
    const title = `Store audits ${uniqueName('pub')}`;
    await useToken(page, member.token);

    await page.goto('/create-post');
    await expect(page).toHaveTitle(/^New Research \| /);
    const visibility = page.getByRole('combobox', { name: 'Visibility' });
    await expect(visibility.getByRole('option')).toHaveText(['Public', 'Members']);
    await expect(page.getByText('Basic Member accounts publish to Public or Members.')).toBeVisible();

    await field(page, 'Title').fill(title);
    await field(page, 'Content \\(Markdown\\)').fill(CONTENT);
    await visibility.selectOption('public');
    await page.getByRole('button', { name: 'Publish' }).click();
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();

    // The API refuses what the form does not offer, in words.
    const refused = await request.post(`${API_URL}${API_PATHS.posts}`, {
      data: { title: 'Sneaky', content: 'x', visibility: 'paid-tier-1', status: 'published' },
      headers: { Authorization: `Bearer ${member.token}` },
    });
    expect(refused.status()).toBe(403);
    expect(await refused.json()).toEqual({
      error: 'Basic Member accounts cannot publish Premium research. Choose Public or Members.',
    });

    // Home: the section says whose research it is, and the new post is there with a plain-text excerpt.
    await page.goto('/');
    const insights = page.getByRole('region', { name: 'Latest Insights' });
    await expect(insights.getByText(/public research from our analysts and members/)).toBeVisible();
    const homeCard = insights.getByRole('listitem').filter({ hasText: title });
    await expect(homeCard).toBeVisible();
    await expect(homeCard).toContainText(EXCERPT_START);
    await expect(homeCard).not.toContainText('<img');

    // Research Center cards show the same words, hyphens intact.
    await page.goto('/research-center');
    const card = page.getByRole('article', { name: title, exact: true });
    await expect(card).toContainText('3-10% of revenue');
    await expect(card).toContainText('12-store');
    await expect(card).toContainText('on-site');
    await expect(card).not.toContainText('onerror');
  });

  test('an administrator is offered every visibility', async ({ page, request }) => {
    const admin = await createMember(request, ['admin'], 'chief');
    await useToken(page, admin.token);
    await page.goto('/create-post');
    await expect(page.getByRole('combobox', { name: 'Visibility' }).getByRole('option')).toHaveText([
      'Public',
      'Members',
      'Premium',
      'Premium Pro',
      'Admin Only',
    ]);
  });

  for (const theme of ['light', 'dark'] as const) {
    for (const [size, viewport] of [
      ['desktop', { width: 1366, height: 900 }],
      ['mobile', { width: 390, height: 844 }],
    ] as const) {
      test(`research screens look right: ${size}, ${theme}`, async ({ browser, request }) => {
        const context = await browser.newContext({ viewport, colorScheme: theme });
        const page = await context.newPage();
        await page.addInitScript((value) => window.localStorage.setItem('theme', value), theme);
        await page.goto('/create-post');
        await expect(page).toHaveTitle(/^Log in to write research \| /);
        await expect(page.getByRole('link', { name: 'Sign Up Free' })).toBeVisible();
        await shot(page, `guest-create-post-${size}-${theme}`);

        const member = await createMember(request, [], 'looker');
        await useToken(page, member.token);
        await page.goto('/create-post');
        await expect(page.getByRole('combobox', { name: 'Visibility' })).toBeVisible();
        await shot(page, `create-post-${size}-${theme}`);

        await page.goto('/research-center?tab=analytics');
        await expect(page).toHaveTitle(/^Research Analytics \| /);
        await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
        // Back returns to the previous tab.
        await page.getByRole('tab', { name: 'Explore Research' }).click();
        await expect(page).toHaveURL(/\/research-center$/);
        await page.goBack();
        await expect(page).toHaveURL(/\?tab=analytics$/);
        await expect(page.getByRole('tab', { name: 'Analytics' })).toHaveAttribute('aria-selected', 'true');
        await shot(page, `analytics-${size}-${theme}`);

        const created = await createPost(request, member, {
          title: `Liked ${uniqueName('l')}`,
          content: 'Body on-site.',
          status: 'published',
        });
        await page.goto(`/post/${created.id}`);
        await page.getByRole('button', { name: 'Like · 0 likes' }).click();
        await expect(page.getByRole('button', { name: 'Liked · 1 like' })).toHaveAttribute(
          'aria-pressed',
          'true',
        );
        await shot(page, `post-liked-${size}-${theme}`);

        await page.goto('/');
        const insights = page.getByRole('region', { name: 'Latest Insights' });
        await expect(insights.getByRole('listitem').first()).toBeVisible();
        if (process.env.SHOTS_DIR) {
          await insights.screenshot({
            path: path.join(process.env.SHOTS_DIR, `home-insights-${size}-${theme}.png`),
          });
        }
        await context.close();
      });
    }
  }
});

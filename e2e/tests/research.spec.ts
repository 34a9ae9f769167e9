import { API_PATHS, MESSAGES } from '@app/contracts';
import { API_URL, createMember, createPost, type TestUser, uniqueName, useToken } from '../support/api';
import { openExplore } from '../support/explore';
import { settle } from '../support/settle';
import { type Browser, expect, type Page, test } from '../support/test';

const R = MESSAGES.research;
// Required fields carry a '*' mark in their label: match the label text from its start.
const field = (page: Page, label: string) => page.getByLabel(new RegExp(`^${label}(\\s*\\*)?$`));
const card = (page: Page, title: string) => page.getByRole('article', { name: title, exact: true });

/** A fresh page in its own context, logged in as `user` (or a guest). */
async function pageAs(browser: Browser, user: TestUser | null): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  if (user) await useToken(page, user.token);
  return page;
}

async function search(page: Page, text: string) {
  await page.getByRole('searchbox', { name: 'Search research' }).fill(text);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
}

test.describe('research', () => {
  test('a member writes a draft, publishes it, and Explore shows it to the right tiers only', async ({
    page,
    browser,
    request,
  }) => {
    test.setTimeout(120_000);
    const author = await createMember(request, [], 'author');
    const membersTitle = `Members brief ${uniqueName('m')}`;
    const premiumTitle = `Premium brief ${uniqueName('p')}`;

    // Write through the UI: validation first, then a members-only draft.
    await useToken(page, author.token);
    await page.goto('/research-center');
    await page.getByRole('link', { name: 'New Research' }).click();
    await expect(page).toHaveURL(/\/create-post$/);
    await page.getByRole('button', { name: 'Save draft' }).click();
    await expect(page.getByText('Title is required')).toBeVisible();
    await expect(field(page, 'Title')).toBeFocused();
    await field(page, 'Title').fill(membersTitle);
    await field(page, 'Summary').fill('For members only.');
    await field(page, 'Content \\(Markdown\\)').fill('## Key points\n\n- **First** point\n- Second point');
    await page.getByRole('tab', { name: 'Preview' }).click();
    await expect(
      page.getByRole('region', { name: 'Preview' }).getByRole('heading', { name: 'Key points' }),
    ).toBeVisible();
    await page.getByLabel('Content type').selectOption('threat_intel');
    await page.getByLabel('Visibility').selectOption('members_only');
    await field(page, 'Tags').fill('e2e, supply');
    await field(page, 'Categories').fill('Europe');
    await page.getByRole('button', { name: 'Save draft' }).click();

    await expect(page).toHaveURL(/\/post\/\d+$/);
    const postPath = new URL(page.url()).pathname;
    await expect(page.getByRole('heading', { level: 1, name: membersTitle })).toBeVisible();
    await expect(page.getByText('Draft', { exact: true })).toBeVisible();
    await expect(
      page.getByRole('region', { name: 'Research content' }).getByRole('heading', { name: 'Key points' }),
    ).toBeVisible();
    await expect(page.getByText('#e2e')).toBeVisible();

    // My Research lists the draft; Explore does not (it is not published).
    await page.goto('/research-center?tab=my');
    await expect(card(page, membersTitle).getByText('Draft', { exact: true })).toBeVisible();
    await expect(page.getByRole('tab', { name: /My Research/ })).toContainText('1');

    // Publish from the post page.
    await page.goto(postPath);
    await page.getByRole('button', { name: 'Publish' }).click();
    await expect(page.getByText('Published. Readers can now find it in Explore.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Publish' })).toHaveCount(0);

    // A paid-tier-1 post, published straight away by an analyst (a basic member may not choose Premium).
    await createPost(request, await createMember(request, ['paid-tier-1'], 'analyst'), {
      title: premiumTitle,
      content: 'Premium analysis.',
      visibility: 'paid-tier-1',
      status: 'published',
    });

    // Guest: the §6 request asks for public only (plus teasers); members-only research is only a teaser
    // (tests/teasers.spec.ts covers teasers in full), in the list, in search and on its page.
    const guest = await pageAs(browser, null);
    const guestRequest = await openExplore(guest);
    expect(guestRequest.searchParams.get('status')).toBe('published');
    expect(guestRequest.searchParams.getAll('visibility')).toEqual(['public']);
    expect(guestRequest.searchParams.get('teasers')).toBe('1');
    await expect(guest.getByRole('article').first()).toBeVisible();
    await expect(
      card(guest, membersTitle).getByRole('link', { name: `Log In to read ${membersTitle}` }),
    ).toBeVisible();
    await search(guest, membersTitle);
    await expect(guest.getByRole('status').filter({ hasText: /^1 report$/ })).toBeVisible();
    await expect(
      card(guest, membersTitle).getByRole('link', { name: `Sign Up to read ${membersTitle}` }),
    ).toBeVisible();
    await expect(card(guest, membersTitle).getByRole('link', { name: /^Read / })).toHaveCount(0);
    await guest.goto(postPath);
    await expect(guest.getByRole('heading', { level: 1, name: membersTitle })).toBeVisible();
    await expect(guest.getByText('Key points')).toHaveCount(0);
    await expect(guest.locator('main').getByRole('link', { name: 'Log In', exact: true })).toBeVisible();
    await guest.context().close();

    // Premium (tier 1): §6 sends public + members_only, so the default list has the members post but not the
    // paid-tier-1 one; search is answered by the access table, so the premium post is found and opens.
    const premium = await pageAs(browser, await createMember(request, ['paid-tier-1'], 'premium'));
    const premiumRequest = await openExplore(premium);
    expect(premiumRequest.searchParams.getAll('visibility')).toEqual(['public', 'members_only']);
    await expect(premium.getByLabel('Your tier: Premium')).toBeVisible();
    await expect(card(premium, membersTitle)).toBeVisible();
    await expect(card(premium, premiumTitle)).toHaveCount(0);
    await search(premium, premiumTitle);
    const found = card(premium, premiumTitle);
    await expect(found.getByText('Premium', { exact: true })).toBeVisible();
    await found.getByRole('link', { name: `Read ${premiumTitle}` }).click();
    await expect(premium.getByRole('heading', { level: 1, name: premiumTitle })).toBeVisible();
    await expect(premium.getByText('Premium analysis.')).toBeVisible();
    await premium.context().close();

    // Premium Pro (tier 2): the paid-tier-1 post is in the default list.
    const pro = await pageAs(browser, await createMember(request, ['paid-tier-2'], 'pro'));
    const proRequest = await openExplore(pro);
    expect(proRequest.searchParams.getAll('visibility')).toEqual(['public', 'members_only', 'paid-tier-1']);
    await expect(card(pro, premiumTitle)).toBeVisible();
    await expect(card(pro, membersTitle)).toBeVisible();
    await pro.context().close();
  });

  test('likes and comments: toggle a like, add, edit and delete one’s own comment', async ({
    page,
    request,
  }) => {
    const author = await createMember(request, [], 'author');
    const reader = await createMember(request, [], 'reader');
    const post = await createPost(request, author, {
      title: `Discussed ${uniqueName('d')}`,
      content: 'Talk about it.',
      status: 'published',
    });

    await useToken(page, reader.token);
    await page.goto(`/post/${post.id}`);
    await expect(page.getByRole('heading', { level: 1, name: post.title })).toBeVisible();
    // The reader is not the author: no author tools.
    await expect(page.getByRole('link', { name: 'Edit', exact: true })).toHaveCount(0);

    const like = page.getByRole('button', { name: /^Like/ });
    await expect(like).toHaveAccessibleName('Like · 0 likes');
    await expect(like).toHaveAttribute('aria-pressed', 'false');
    await like.click();
    // The liked state shows in words as well as in aria-pressed and the filled heart (issue 18).
    await expect(like).toHaveAccessibleName('Liked · 1 like');
    await expect(like).toHaveAttribute('aria-pressed', 'true');
    await page.goto(`/post/${post.id}`);
    await expect(page.getByRole('button', { name: /^Like/ })).toHaveAttribute('aria-pressed', 'true');
    await page.getByRole('button', { name: /^Like/ }).click();
    await expect(page.getByRole('button', { name: /^Like/ })).toHaveAccessibleName('Like · 0 likes');

    await page.getByRole('button', { name: 'Post comment' }).click();
    await expect(page.getByText('Comment cannot be empty')).toBeVisible();
    await page.getByLabel('Add a comment').fill('First thoughts');
    await page.getByRole('button', { name: 'Post comment' }).click();
    const comment = page.getByRole('listitem', { name: 'Comment by Test User' });
    await expect(comment.getByText('First thoughts')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Comments (1)' })).toBeVisible();

    await comment.getByRole('button', { name: 'Edit' }).click();
    await comment.getByLabel('Edit comment').fill('Second thoughts');
    await comment.getByRole('button', { name: 'Save comment' }).click();
    await expect(comment.getByText('Second thoughts')).toBeVisible();
    await page.goto(`/post/${post.id}`);
    await expect(
      page.getByRole('listitem', { name: 'Comment by Test User' }).getByText('Second thoughts'),
    ).toBeVisible();

    const again = page.getByRole('listitem', { name: 'Comment by Test User' });
    await again.getByRole('button', { name: 'Delete' }).click();
    await again.getByRole('button', { name: 'Yes, delete' }).click();
    await expect(page.getByText('No comments yet.')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Comments (0)' })).toBeVisible();
  });

  test('the author edits and deletes a post; the guard asks before leaving unsaved changes', async ({
    page,
    request,
  }) => {
    const author = await createMember(request, [], 'author');
    const post = await createPost(request, author, {
      title: `Editable ${uniqueName('e')}`,
      content: 'Original body.',
      status: 'published',
    });
    const newTitle = `${post.title} (revised)`;

    await useToken(page, author.token);
    await page.goto(`/post/${post.id}`);
    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/post/${post.id}/edit$`));
    await expect(field(page, 'Title')).toHaveValue(post.title);
    await field(page, 'Title').fill(newTitle);

    // Leaving with unsaved changes asks first; dismissing keeps the user and the text.
    page.once('dialog', (dialog) => {
      expect(dialog.message()).toBe('You have unsaved changes. Leave this page and lose them?');
      void dialog.dismiss();
    });
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Research', exact: true })
      .click();
    await expect(page).toHaveURL(new RegExp(`/post/${post.id}/edit$`));
    await expect(field(page, 'Title')).toHaveValue(newTitle);

    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page).toHaveURL(new RegExp(`/post/${post.id}$`));
    await expect(page.getByRole('heading', { level: 1, name: newTitle })).toBeVisible();

    // Visibility changes through its own call.
    await page.getByLabel('Visibility').selectOption('members_only');
    await page.getByRole('button', { name: 'Change visibility' }).click();
    await expect(page.getByText('Visibility changed to Members.')).toBeVisible();

    // Delete asks for confirmation; Cancel keeps the post.
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this research?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toHaveCount(0);
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete research' }).click();
    await expect(page).toHaveURL(/\/research-center\?tab=my$/);
    await expect(page.getByRole('link', { name: R.createFirst })).toBeVisible();
    const gone = await request.get(`${API_URL}${API_PATHS.post(post.id)}`, {
      headers: { Authorization: `Bearer ${author.token}` },
    });
    expect(gone.status()).toBe(404);
    await page.goto(`/post/${post.id}`);
    await expect(page.getByRole('heading', { name: 'Research not found' })).toBeVisible();
  });

  test('hostile Markdown renders harmless', async ({ page, request }) => {
    const author = await createMember(request, [], 'author');
    const post = await createPost(request, author, {
      title: `Hostile ${uniqueName('h')}`,
      content: [
        'Before <script>window.__pwned = "script"; alert("script")</script>',
        "<img src=x onerror=\"window.__pwned = 'img'; alert('img')\">",
        '[click me](javascript:alert(1))',
        '<a href="javascript:alert(2)" onclick="alert(3)">html link</a>',
        '<svg onload="alert(4)"><circle r="4"/></svg>',
        '<iframe src="javascript:alert(5)"></iframe>',
        'After',
      ].join('\n\n'),
      status: 'published',
    });
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });

    await page.goto(`/post/${post.id}`);
    const content = page.getByRole('region', { name: 'Research content' });
    await expect(content.getByText('After')).toBeVisible();
    // The javascript: URLs are gone, so these are no longer links; clicking them must do nothing.
    await content.getByText('click me').click();
    await content.getByText('html link').click();
    await settle(page);

    expect(await content.locator('script, iframe').count()).toBe(0);
    const handlers = await page.evaluate(() =>
      [...document.querySelectorAll('main *')].flatMap((el) =>
        [...el.attributes].filter((a) => a.name.startsWith('on')).map((a) => `${el.tagName}.${a.name}`),
      ),
    );
    expect(handlers).toEqual([]);
    const hrefs = await content.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
    for (const href of hrefs) expect(href.toLowerCase()).not.toContain('javascript:');
    expect(await page.evaluate(() => (window as { __pwned?: string }).__pwned)).toBeUndefined();
    expect(dialogs).toEqual([]);
  });

  test('a 401 shows the session-expired message, clears the token and shows the guest view', async ({
    page,
    request,
  }) => {
    const member = await createMember(request, [], 'expiring');
    await useToken(page, member.token);
    await page.goto('/research-center');
    await expect(page.getByRole('tab', { name: 'Analytics' })).toBeVisible();
    // Let the page's own first calls (profile, My Research count) finish: the 401 must come from the click.
    await page.waitForLoadState('networkidle');
    // The session ends on the server (the token is revoked) while the page is open.
    const revoked = await request.post(`${API_URL}${API_PATHS.logout}`, {
      headers: { Authorization: `Bearer ${member.token}` },
    });
    expect(revoked.ok()).toBe(true);
    await page.getByRole('tab', { name: 'Analytics' }).click();
    await expect(page.getByText(R.sessionExpired)).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await expect(page.getByLabel('Your tier: Guest')).toBeVisible();
    await expect(page.getByRole('tab')).toHaveText(['Explore Research']);
    // No global redirect to /login: the research screen shows its own message.
    await expect(page).toHaveURL(/\/research-center/);
  });

  test('Analytics shows the member’s totals, four categories and account info', async ({ page, request }) => {
    const member = await createMember(request, ['paid-tier-1'], 'analyst');
    await createPost(request, member, {
      title: 'One',
      content: 'x',
      content_type: 'osint',
      status: 'published',
    });
    await createPost(request, member, { title: 'Two', content: 'y', content_type: 'osint' });
    await useToken(page, member.token);
    await page.goto('/research-center');
    await page.getByRole('tab', { name: 'Analytics' }).click();
    const overview = page.getByRole('region', { name: 'Overview' });
    await expect(overview.getByRole('definition')).toHaveText(['2', '1', '1', '0']);
    const categories = page.getByRole('region', { name: 'By Category' });
    await expect(categories.getByRole('term')).toHaveText([
      'Research Report',
      'Threat Intelligence',
      'Market Analysis',
      'OSINT Analysis',
    ]);
    await expect(categories.getByRole('definition')).toHaveText(['0', '0', '0', '2']);
    const account = page.getByRole('region', { name: 'Account' });
    await expect(account.getByText('Public, member and Premium research')).toBeVisible();
    await expect(account.getByText(member.email)).toBeVisible();
  });
});

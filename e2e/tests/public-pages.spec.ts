import { API_PATHS, type Contact, type Impressum, MESSAGES } from '@app/contracts';
import { API_URL } from '../support/api';
import { primedRequests, withoutPrimedAnswers } from '../support/primed';
import { expect, type Page, test } from '../support/test';

/** Answers one API path from the test instead of the server (the seeded database always has content). */
async function answer(page: Page, apiPath: string, status: number, body: unknown) {
  await page.route(
    (url) => url.origin === API_URL && url.pathname === apiPath,
    (route) => route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) }),
  );
}

const region = (page: Page, name: string) => page.getByRole('region', { name });
const definition = (page: Page, label: string) =>
  page.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd[1]');

test.describe('Home', () => {
  test('shows the hero, the value cards, up to 6 public articles, locked assessments, dashboards and the promo', async ({
    page,
    request,
  }) => {
    await page.goto('/');
    // The articles' request: the edge made it for the page (decision 0021), as the page would.
    const postsKey = (await primedRequests(page)).find((key) => key.startsWith(`${API_PATHS.posts}?`));
    expect(postsKey).toBeDefined();
    const query = new URL(postsKey!, API_URL).searchParams;
    expect(query.get('status')).toBe('published');
    expect(query.get('visibility')).toBe('public');
    expect(query.get('limit')).toBe('6');
    const postsCall = await request.get(`${API_URL}${postsKey}`);

    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    for (const title of ['Identify Risk', 'Spot Opportunities', 'Deliver Action']) {
      await expect(page.getByRole('heading', { name: title })).toBeVisible();
    }

    const posts = (await postsCall.json()) as { id: number; title: string }[];
    expect(posts.length).toBeGreaterThan(0);
    const insights = region(page, 'Latest Insights');
    await expect(insights.getByRole('article')).toHaveCount(Math.min(posts.length, 6));
    const first = posts[0]!;
    // Newest first, as the API answered (titles may repeat in a shared database, ids do not).
    const firstLink = insights.getByRole('article').first().getByRole('link');
    await expect(firstLink).toHaveText(first.title);
    await expect(firstLink).toHaveAttribute('href', `/post/${first.id}`);
    await expect(page.getByText(MESSAGES.home.noInsights)).toHaveCount(0);

    await expect(
      region(page, 'Premium Risk Assessments').getByRole('button', { name: 'Unlock with Free Assessment' }),
    ).toHaveCount(3);

    const dashboards = (await (await request.get(`${API_URL}${API_PATHS.dashboards}`)).json()) as {
      title: string;
      description: string;
    }[];
    const dashboardRegion = region(page, 'Available Dashboards');
    for (const d of dashboards) {
      await expect(dashboardRegion.getByRole('heading', { name: d.title })).toBeVisible();
      await expect(dashboardRegion.getByText(d.description)).toBeVisible();
    }

    await expect(page.getByRole('link', { name: 'Join for Free' })).toHaveAttribute('href', '/register');
    await page.getByRole('link', { name: 'Browse Research' }).click();
    await expect(page).toHaveURL(/\/research-center$/);
  });

  test('an article opens /post/{id}', async ({ page }) => {
    await page.goto('/');
    const link = region(page, 'Latest Insights').getByRole('article').first().getByRole('link');
    const href = await link.getAttribute('href');
    expect(href).toMatch(/^\/post\/\d+$/);
    await link.click();
    await expect(page).toHaveURL(new RegExp(`${href}$`));
  });

  test("without articles it says 'No insights available at the moment'", async ({ page }) => {
    await withoutPrimedAnswers(page, ['/']); // the browser asks only then (decision 0021)
    await answer(page, API_PATHS.posts, 200, []);
    await page.goto('/');
    await expect(page.getByText(MESSAGES.home.noInsights)).toBeVisible();
    await expect(region(page, 'Latest Insights').getByRole('article')).toHaveCount(0);
    await expect(region(page, 'Available Dashboards').getByRole('listitem').first()).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);
  });

  test("a load failure shows the server's error, empty lists and the rest of the page", async ({ page }) => {
    await withoutPrimedAnswers(page, ['/']);
    await answer(page, API_PATHS.posts, 500, { error: 'Research database unavailable' });
    await answer(page, API_PATHS.dashboards, 500, {});
    await page.goto('/');
    await expect(page.getByRole('alert')).toHaveText('Research database unavailable');
    await expect(page.getByText(MESSAGES.home.noInsights)).toBeVisible();
    await expect(region(page, 'Available Dashboards').getByRole('listitem')).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Identify Risk' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Join for Free' })).toBeVisible();
  });

  test("a failure without a server message shows 'Error loading homepage data'", async ({ page }) => {
    await withoutPrimedAnswers(page, ['/']);
    await page.route(
      (url) => url.origin === API_URL && url.pathname === API_PATHS.posts,
      (route) => route.abort('connectionrefused'),
    );
    await page.goto('/');
    await expect(page.getByRole('alert')).toHaveText(MESSAGES.home.loadFailed);
  });
});

test.describe('About', () => {
  test('describes the company and the product', async ({ page }) => {
    await page.goto('/about');
    await expect(
      page.getByRole('heading', { level: 1, name: `About ${MESSAGES.app.companyName}` }),
    ).toBeVisible();
    for (const part of ['Research', 'Dashboards', 'Market assessment', 'Membership tiers']) {
      await expect(page.getByRole('heading', { level: 3, name: part })).toBeVisible();
    }
  });
});

test.describe('Contact', () => {
  test('shows email, phone and address from the API, and the business hours', async ({ page, request }) => {
    const contact = (await (await request.get(`${API_URL}${API_PATHS.publicContact}`)).json()) as Contact;
    await page.goto('/contact');
    await expect(page.getByRole('heading', { level: 1, name: 'Contact' })).toBeVisible();
    await expect(page.getByRole('link', { name: contact.email! })).toHaveAttribute(
      'href',
      `mailto:${contact.email}`,
    );
    await expect(definition(page, 'Phone')).toHaveText(contact.phone!);
    await expect(definition(page, 'Address')).toHaveText(contact.address!);
    await expect(page.getByText(MESSAGES.contact.hoursWeekdays)).toBeVisible();
    await expect(page.getByText(MESSAGES.contact.hoursWeekend)).toBeVisible();
  });

  test('shows a dash for empty values', async ({ page }) => {
    await answer(page, API_PATHS.publicContact, 200, { email: null, phone: '', address: null });
    await page.goto('/contact');
    for (const label of ['Email', 'Phone', 'Address']) await expect(definition(page, label)).toHaveText('-');
  });

  test("on failure shows 'Error loading contact information' and still the hours", async ({ page }) => {
    await answer(page, API_PATHS.publicContact, 500, {});
    await page.goto('/contact');
    await expect(page.getByRole('alert')).toHaveText(MESSAGES.contact.loadFailed);
    await expect(page.getByText(MESSAGES.contact.hoursWeekdays)).toBeVisible();
  });
});

test.describe('Impressum', () => {
  test('shows every field of the record from the API and the disclaimer', async ({ page, request }) => {
    const impressum = (await (
      await request.get(`${API_URL}${API_PATHS.publicImpressum}`)
    ).json()) as Impressum;
    await page.goto('/impressum');
    await expect(page.getByRole('heading', { level: 1, name: 'Impressum' })).toBeVisible();
    const labels: Record<keyof Impressum, string> = {
      name: 'Name',
      street: 'Street',
      city: 'City',
      country: 'Country',
      representative: 'Represented by',
      email: 'Email',
      phone: 'Phone',
      register: 'Commercial register',
      vatId: 'VAT identification number',
    };
    for (const [key, label] of Object.entries(labels) as [keyof Impressum, string][]) {
      await expect(definition(page, label)).toHaveText(impressum[key] || '-');
    }
    await expect(page.getByRole('heading', { name: 'Disclaimer: external links' })).toBeVisible();
  });

  test("shows 'Loading...' while fetching, then the server's error or 'Error loading impressum'", async ({
    page,
  }) => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(
      (url) => url.origin === API_URL && url.pathname === API_PATHS.publicImpressum,
      async (route) => {
        await held;
        await route.fulfill({ status: 503, contentType: 'application/json', body: '{}' });
      },
    );
    await page.goto('/impressum');
    // Scoped to the page: the frame keeps its own (empty) live region for notices.
    await expect(page.getByRole('main').getByRole('status')).toHaveText(MESSAGES.app.loading);
    release();
    await expect(page.getByRole('alert')).toHaveText(MESSAGES.impressum.loadFailed);

    await page.unrouteAll();
    await answer(page, API_PATHS.publicImpressum, 500, { error: 'Impressum store offline' });
    await page.reload();
    await expect(page.getByRole('alert')).toHaveText('Impressum store offline');
  });
});

import { API_PATHS, type DashboardDetail, type Impressum } from '@app/contracts';
import { seriousViolations } from '../support/a11y';
import { API_URL } from '../support/api';
import { expect, type Page, test } from '../support/test';

const THEMES = ['light', 'dark'] as const;
const SIZES = [
  { name: 'desktop', width: 1366, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;

async function useTheme(page: Page, theme: (typeof THEMES)[number]) {
  await page.addInitScript((value) => window.localStorage.setItem('theme', value), theme);
}

/** The colour a CSS custom property resolves to on <html>, as the browser normalises it (rgb(...)). */
function resolvedColor(page: Page, variable: string): Promise<string> {
  return page.evaluate((name) => {
    const probe = document.createElement('span');
    probe.style.color = `var(${name})`;
    document.body.append(probe);
    const color = getComputedStyle(probe).color;
    probe.remove();
    return color;
  }, variable);
}

for (const theme of THEMES) {
  for (const size of SIZES) {
    test(`${theme}, ${size.name}: a dashboard card on Home opens its page with charts and their summaries`, async ({
      page,
      request,
    }) => {
      const list = (await (await request.get(`${API_URL}${API_PATHS.dashboards}`)).json()) as {
        slug: string;
      }[];
      const slug = list.find((d) => d.slug === 'supply-chain-monitor')?.slug ?? list[0]!.slug;
      const detail = (await (
        await request.get(`${API_URL}${API_PATHS.dashboard(slug)}`)
      ).json()) as DashboardDetail;

      await useTheme(page, theme);
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.goto('/');
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
      const card = page
        .getByRole('region', { name: 'Available Dashboards' })
        .getByRole('link', { name: detail.title });
      await card.click();

      await expect(page).toHaveURL(new RegExp(`/dashboards/${slug}$`));
      await expect(page.getByRole('heading', { level: 1, name: detail.title })).toBeVisible();
      await expect(page).toHaveTitle(new RegExp(`^${detail.title} \\|`));
      await expect(page.getByRole('img')).toHaveCount(detail.indicators.length);

      const first = detail.indicators[0]!;
      const chart = page.getByRole('img', { name: new RegExp(`^${first.title}, line chart of 12 months`) });
      await expect(chart).toBeVisible();
      expect(await chart.evaluate((el) => el.tagName.toLowerCase())).toBe('svg');
      // The summary is on screen and is the chart's description.
      const summary = page.getByText(new RegExp(`^${first.title} (rose|fell) from`));
      await expect(summary).toBeVisible();
      await expect(chart).toHaveAccessibleDescription(((await summary.textContent()) ?? '').trim());

      // Drawn in the theme's colours, so it reads in light and dark alike.
      const stroke = await chart.locator('path.line').evaluate((el) => getComputedStyle(el).stroke);
      expect(stroke).toBe(await resolvedColor(page, '--c-primary'));

      // Nothing wider than the screen, and the chart fits its card.
      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(scrollWidth).toBeLessThanOrEqual(size.width);
      const box = (await chart.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(size.width);

      // The numbers behind the line, on request.
      await page.getByRole('article', { name: first.title }).getByText('Show the data').click();
      await expect(
        page.getByRole('table', { name: `${first.title}, monthly values` }).getByRole('row'),
      ).toHaveCount(first.points.length + 1);
      expect(await seriousViolations(page)).toEqual([]);
    });
  }
}

test('an unknown dashboard says so, with a way back', async ({ page }) => {
  await page.goto('/dashboards/no-such-dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard not found' })).toBeVisible();
  await expect(page).toHaveTitle(/^Dashboard not found \|/);
  await page.getByRole('link', { name: 'Back to Home' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test("the Impressum's email and phone are mailto: and tel: links", async ({ page, request }) => {
  const impressum = (await (await request.get(`${API_URL}${API_PATHS.publicImpressum}`)).json()) as Impressum;
  await page.goto('/impressum');
  await expect(page.getByRole('link', { name: impressum.email! })).toHaveAttribute(
    'href',
    `mailto:${impressum.email}`,
  );
  await expect(page.getByRole('link', { name: impressum.phone! })).toHaveAttribute('href', /^tel:\+?\d+$/);
});

for (const theme of THEMES) {
  test(`${theme}: Home, Contact and Impressum have no serious axe violations`, async ({ page }) => {
    await useTheme(page, theme);
    for (const [route, heading] of [
      ['/', 'Available Dashboards'],
      ['/contact', 'Business hours'],
      ['/impressum', 'Company information'],
    ] as const) {
      await page.goto(route);
      await expect(page.getByRole('heading', { name: heading })).toBeVisible();
      // Wait for loaded content: a skeleton has nothing to check.
      await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
      expect(await seriousViolations(page), route).toEqual([]);
    }
  });
}

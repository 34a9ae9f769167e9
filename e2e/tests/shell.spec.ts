import type { Server } from 'node:http';
import path from 'node:path';
import { MESSAGES } from '@app/contracts';
import { serveApp } from '@app/edge';
import { API_URL, createMember, useToken } from '../support/api';
import { REMOTE_URLS, SHELL_URL } from '../support/ports';
import { expect, test } from '../support/test';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

test.describe('shell frame', () => {
  test('logged-out navigation', async ({ page }) => {
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const name of ['Home', 'About', 'Contact', 'Research', 'Login', 'Sign Up']) {
      await expect(nav.getByRole('link', { name, exact: true })).toBeVisible();
    }
    await expect(nav.getByRole('link', { name: 'Profile' })).toHaveCount(0);
    await expect(nav.getByRole('button', { name: 'Logout' })).toHaveCount(0);
  });

  test('logged-in navigation, and Logout clears the session and goes home', async ({ page, request }) => {
    const member = await createMember(request);
    await page.goto('/about');
    await page.evaluate((token) => localStorage.setItem('token', token), member.token);
    await page.reload();
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'Profile' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Login' })).toHaveCount(0);
    await nav.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(`${SHELL_URL}/`);
    await expect(nav.getByRole('link', { name: 'Login' })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  });

  test('the theme toggle persists across a reload', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto('/about');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
    await page.getByRole('button', { name: 'Switch to dark mode' }).click();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');
  });

  test('the theme follows the system preference until chosen, with no flash', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    // The attribute is set by the inline boot script, before any bundle runs.
    await page.route('**/main.js', (route) => route.abort());
    await page.goto('/about');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  });

  test('footer: year, company, legal links and six social links', async ({ page }) => {
    await page.goto('/about');
    const footer = page.getByRole('contentinfo');
    await expect(footer).toContainText(`© ${new Date().getFullYear()} ${MESSAGES.app.companyName}`);
    await expect(footer.getByRole('list', { name: 'Social media' }).getByRole('link')).toHaveText([
      'LinkedIn',
      'Facebook',
      'Instagram',
      'YouTube',
      'Newsletter',
      'X',
    ]);
    await footer.getByRole('link', { name: 'Impressum' }).click();
    await expect(page).toHaveURL(/\/impressum$/);
    await page.getByRole('contentinfo').getByRole('link', { name: 'Contact' }).click();
    await expect(page).toHaveURL(/\/contact$/);
  });
});

test.describe('performance monitor', () => {
  test('is off by default and shows rated load, render and memory when switched on', async ({ page }) => {
    await page.goto('/about');
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await expect(page.getByRole('complementary', { name: 'Performance monitor' })).toHaveCount(0);

    await page.goto('/about?perf=1');
    const monitor = page.getByRole('complementary', { name: 'Performance monitor' });
    await expect(monitor).toBeVisible();
    await expect(monitor).toContainText('Load');
    await expect(monitor).toContainText('Render');
    await expect(monitor).toContainText('Memory');
    // Within a couple of seconds every metric has a value rated good, fair or poor (SPEC §9).
    await expect(monitor.locator('[data-rating="n/a"]')).toHaveCount(0, { timeout: 5_000 });
  });
});

test.describe('routing', () => {
  test('/dashboard redirects to /research-center', async ({ page }) => {
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/research-center$/);
    await expect(page.getByRole('heading', { level: 1, name: /research/i })).toBeVisible();
  });

  test('/research shows the research screen', async ({ page }) => {
    await page.goto('/research');
    await expect(page).toHaveURL(/\/research$/);
    await expect(page.getByRole('heading', { level: 1, name: /research/i })).toBeVisible();
  });

  test('an unknown path shows the not-found page inside the frame', async ({ page }) => {
    await page.goto('/no-such-page');
    await expect(page.getByRole('heading', { name: MESSAGES.app.notFoundTitle })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await expect(page.getByRole('contentinfo')).toBeVisible();
  });

  test('a deep link several segments long loads the app', async ({ page }) => {
    await page.goto('/post/1/edit');
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await page.goto('/no/such/deep/page');
    await expect(page.getByRole('heading', { name: MESSAGES.app.notFoundTitle })).toBeVisible();
  });

  test('/profile without a stored token goes to /login', async ({ page }) => {
    await page.goto('/profile');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('a rendering error shows the whole-app error screen', async ({ page }) => {
    await page.goto('/__crash-test');
    await expect(page.getByRole('heading', { name: MESSAGES.app.errorTitle })).toBeVisible();
    await expect(page.getByText(MESSAGES.app.errorText)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Refresh Page' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Go Back' })).toBeVisible();
  });
});

test.describe('federation', () => {
  test('one React copy and one session module across the shell and every remote', async ({
    page,
    request,
  }) => {
    // Every app's build carries a fallback copy of each shared module; only one may ever be loaded. Two
    // independent witnesses: the JavaScript the browser received, and the federation runtime's own registry.
    const scripts: Promise<string>[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') scripts.push(response.text().catch(() => ''));
    });
    const member = await createMember(request);
    await useToken(page, member.token);
    await page.goto('/');
    for (const link of ['Research', 'Profile', 'About']) {
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: link, exact: true })
        .click();
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    }
    // React's own module assigns its internals; React DOM only reads them. The session module's one message.
    const bodies = await Promise.all(scripts);
    const carrying = (marker: string) => bodies.filter((body) => body.includes(marker)).length;
    expect(carrying('__CLIENT_INTERNALS_DO_NOT_USE_OR_WARN_USERS_THEY_CANNOT_UPGRADE=')).toBe(1);
    expect(carrying('useSession must be used inside <SessionProvider>')).toBe(1);

    const registry = await page.evaluate(() => {
      type Shared = { version: string; from: string; loaded?: boolean; useIn?: string[] };
      type Scopes = Record<string, Record<string, Record<string, Shared>>>;
      const federation = (
        globalThis as { __FEDERATION__?: { __SHARE__?: Record<string, Scopes>; __INSTANCES__?: unknown[] } }
      ).__FEDERATION__;
      const loaded: Record<string, string[]> = {};
      const users: Record<string, string[]> = {};
      for (const scopes of Object.values(federation?.__SHARE__ ?? {})) {
        for (const packages of Object.values(scopes)) {
          for (const [name, versions] of Object.entries(packages)) {
            for (const shared of Object.values(versions)) {
              if (!shared.loaded) continue;
              loaded[name] = [...new Set([...(loaded[name] ?? []), `${shared.version} from ${shared.from}`])];
              users[name] = [...new Set([...(users[name] ?? []), ...(shared.useIn ?? [])])];
            }
          }
        }
      }
      return { loaded, users, containers: federation?.__INSTANCES__?.length ?? 0 };
    });
    // The shell and the three remotes the visit rendered each started a container on the one runtime.
    expect(registry.containers).toBeGreaterThanOrEqual(4);
    for (const name of ['react', 'react-dom', '@app/router', '@app/session', '@emotion/react']) {
      expect(registry.loaded[name], name).toHaveLength(1);
      expect(registry.loaded[name]?.[0], name).toMatch(/ from shell$/);
    }
    expect(registry.users.react).toEqual(
      expect.arrayContaining(['shell', 'mf_public_pages', 'mf_research', 'mf_account']),
    );
  });

  test('a remote whose server is down breaks only its region, and Retry loads it once it is back', async ({
    page,
  }) => {
    // A second shell on 3100 whose config points mf-research at a port where nothing listens yet.
    const downPort = 3199;
    const shell = await serveApp({
      name: 'shell',
      dir: path.join(ROOT, 'shell', 'dist'),
      port: 3100,
      spa: true,
      runtimeConfig: {
        apiBaseUrl: API_URL,
        remotes: {
          mf_public_pages: { url: REMOTE_URLS.mf_public_pages },
          mf_account: { url: REMOTE_URLS.mf_account },
          mf_research: { url: `http://localhost:${downPort}/mf-manifest.json` },
          mf_survey: { url: REMOTE_URLS.mf_survey },
        },
      },
    });
    let research: Server | undefined;
    try {
      await page.goto('http://localhost:3100/research-center');
      await expect(page.getByText(MESSAGES.app.remoteFailedTitle)).toBeVisible();
      await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
      await expect(page.getByRole('contentinfo')).toBeVisible();

      // Other remotes still work, in the same page.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'About' }).click();
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
      await expect(page.getByText(MESSAGES.app.remoteFailedTitle)).toHaveCount(0);

      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Research' }).click();
      await expect(page.getByText(MESSAGES.app.remoteFailedTitle)).toBeVisible();

      // The remote comes back: Retry loads it without a page reload.
      research = await serveApp({
        name: 'mf-research',
        dir: path.join(ROOT, 'mf-research', 'dist'),
        port: downPort,
        // Only the shell's origin may read a remote's manifest: here, the second shell's.
        allowedOrigins: ['http://localhost:3100'],
      });
      await page.evaluate(() => {
        (window as { __noReload?: boolean }).__noReload = true;
      });
      await page.getByRole('button', { name: MESSAGES.app.retry }).click();
      await expect(page.getByRole('heading', { level: 1, name: /research/i })).toBeVisible();
      expect(await page.evaluate(() => (window as { __noReload?: boolean }).__noReload)).toBe(true);
    } finally {
      shell.close();
      research?.close();
    }
  });
});

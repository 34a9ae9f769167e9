import fs from 'node:fs';
import path from 'node:path';
import type { AuditEntry } from '@app/contracts';
import { type DevAgainst, devAgainst } from '../support/dev-override';
import { suitePort } from '../support/ports';
import { endPageView, HERO, HERO_REMOTE, remoteStatus, rollout, tryRollout } from '../support/rollout';
import { expect, type Page, test } from '../support/test';

/**
 * Issue 47: a team develops its remote inside the running product. `pnpm dev:against` starts the real webpack
 * dev server of mf-public-pages on a loopback port and prints an override link; the browser that opens it
 * gets the remote from that server (live reload on a saved change) with a banner, in the real shell; another
 * browser is unaffected; Exit restores the live version; the health gate counts none of it; the deploy audit
 * has the link's open and its Exit.
 */
test.describe.configure({ mode: 'serial', timeout: 240_000 });

const REMOTE = HERO_REMOTE;
const PORT = suitePort(3000) + 94;
const ORIGIN = `http://127.0.0.1:${PORT}`;
const HERO_FILE = path.resolve(
  import.meta.dirname,
  '..',
  '..',
  'mf-public-pages/src/features/home/components/hero.tsx',
);
const EDITED = 'Edited in the dev server.';
const heroHeading = (page: Page) => page.getByRole('heading', { level: 1 });
const banner = (page: Page) => page.getByRole('status', { name: 'Dev override' });

let dev: DevAgainst | null = null;
let original = '';

test.beforeAll(async () => {
  original = fs.readFileSync(HERO_FILE, 'utf8');
  dev = await devAgainst(REMOTE, PORT);
});

test.afterAll(async () => {
  // The source as it was, whatever a test did; and the dev server stopped (its link revoked).
  if (original) fs.writeFileSync(HERO_FILE, original);
  if (dev) {
    expect(await dev.stop()).toBe(0);
    expect(dev.output()).toMatch(/override \S+ \(mf-public-pages from \S+\) in "\S+" is revoked since/);
  }
});

/** The remote's audit rows about one override link (its id is in their words), newest first. */
const auditOf = async (id: string) => {
  const { entries } = JSON.parse(await rollout('history', REMOTE, '--json', '--limit', '50')) as {
    entries: AuditEntry[];
  };
  return entries.filter((e) => `${e.from} ${e.to}`.includes(`(${id})`));
};

const viewsOf = async () =>
  (await remoteStatus(REMOTE)).health.map(({ version, views, visitors }) => ({ version, views, visitors }));

test('the link loads the remote from the dev server in this browser only, with hot reload and Exit', async ({
  page,
  browser,
}) => {
  const before = await viewsOf();
  const link = dev?.link ?? '';
  // The edges learn of a new link through the API's feed, a moment after the command returns.
  await expect(async () => {
    await page.goto(link);
    await expect(banner(page)).toContainText(`Developing ${REMOTE} from ${ORIGIN}`, { timeout: 2000 });
  }).toPass({ timeout: 15_000 });
  await expect(page).not.toHaveURL(/override=/);
  await expect(heroHeading(page)).toHaveText(new RegExp(`^${HERO}`));
  // The remote's code came from the dev server.
  const fromDev = await page.evaluate(
    (origin) => performance.getEntriesByType('resource').some((e) => e.name.startsWith(`${origin}/`)),
    ORIGIN,
  );
  expect(fromDev).toBe(true);

  // A saved change rebuilds, and the page reloads itself with it.
  fs.writeFileSync(HERO_FILE, original.replace(/'See the risks coming\.[^']*'/, `'${EDITED}'`));
  await expect(heroHeading(page)).toHaveText(EDITED, { timeout: 60_000 });
  await expect(banner(page)).toBeVisible();

  // The page views of the override sent no health report.
  await endPageView(page);
  expect(await viewsOf()).toEqual(before);

  // Another browser gets the live version, no banner, and a policy without the dev server.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  const response = await otherPage.goto('/');
  expect(response?.headers()['content-security-policy']).not.toContain(ORIGIN);
  await expect(heroHeading(otherPage)).toHaveText(new RegExp(`^${HERO}`));
  await expect(banner(otherPage)).toHaveCount(0);
  await other.close();

  // Exit: the live version again, in this browser too.
  await page.goto('/');
  await expect(heroHeading(page)).toHaveText(EDITED);
  await banner(page).getByRole('button', { name: 'Exit override' }).click();
  await expect(heroHeading(page)).toHaveText(new RegExp(`^${HERO}`));
  await expect(banner(page)).toHaveCount(0);

  // The deploy audit has the link, this browser opening it and its Exit (the edge reports them without
  // waiting: a moment later), as this browser's, not a token's. The health counts above stayed as they were.
  const id = /^override (\S+): /m.exec(dev?.output() ?? '')?.[1] ?? 'no link id';
  await expect(async () => {
    const rows = await auditOf(id);
    expect(rows.map((e) => e.action)).toEqual(['override-exit', 'override-open', 'override']);
    const [exited, opened] = rows;
    expect(opened).toMatchObject({
      actor: expect.stringMatching(/^visitor (127\.0\.0\.1|::1)$/),
      from: null,
      reason: expect.stringMatching(/^opened in .+ at (127\.0\.0\.1|::1)$/),
    });
    expect(exited?.actor).toBe(opened?.actor);
    // How many: those this edge had not reported yet and those reported before (on the cluster, another
    // edge's may still be on their way: the count is the unit tests' to check).
    expect(exited?.to).toMatch(new RegExp(`^exited \\(${id}\\) after \\d+ page views?, \\d+ opens?$`));
    expect(exited?.reason).toMatch(/^Exit in .+ at (127\.0\.0\.1|::1)$/);
  }).toPass({ timeout: 15_000 });
});

test('a dev server that is not running: the live version, and the banner says so', async ({ page }) => {
  const out = (await rollout('override', REMOTE, `http://127.0.0.1:${PORT + 1}/mf-manifest.json`)).trim();
  const link = out.split('\n').at(-1) ?? '';
  await expect(async () => {
    await page.goto(link);
    await expect(banner(page)).toContainText('is not reachable: showing the live', { timeout: 2000 });
  }).toPass({ timeout: 15_000 });
  await expect(heroHeading(page)).toHaveText(new RegExp(`^${HERO}`));
  const id = /^override (\S+): /.exec(out)?.[1] ?? '';
  await rollout('revoke-override', id);
});

test('a non-loopback origin is refused with a clear message', async () => {
  for (const url of ['http://8.8.8.8/mf-manifest.json', 'http://127.0.0.1@evil.example/mf-manifest.json']) {
    const refused = await tryRollout('override', REMOTE, url);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Override URL refused:');
  }
});

import fs from 'node:fs';
import path from 'node:path';
import { MESSAGES } from '@app/contracts';
import { newPreviewToken } from '@app/rollout/node';
import { createMember, useToken } from '../support/api';
import { SHELL_URL } from '../support/ports';
import {
  endPageView,
  errorRateOf,
  HERO,
  HERO_REMOTE,
  heroOf,
  OTHER_ENV,
  previewLink,
  release,
  releaseFolder,
  releaseHero,
  releaseHeroVariant,
  remoteStatus,
  rollout,
  STORE_DIR,
  throwingOnClick,
  tryRelease,
  tryRollout,
  variantOf,
  withManifest,
} from '../support/rollout';
import { type Browser, expect, type Page, test } from '../support/test';

/**
 * Staged rollouts end to end (issue 9): real releases into the run's store, the real rollout commands, the
 * shell in fresh browser contexts. mf-public-pages is the remote under test: its Home hero is the visible
 * difference between versions. Every test leaves the original stable version live.
 */
test.describe.configure({ mode: 'serial', timeout: 120_000 });

const REMOTE = HERO_REMOTE;
// By role: the page's first paint is the stable release's pre-rendered picture (hidden from roles), and a
// canary visitor's live hero replaces it; what a test reads must be the live one.
const hero = (page: Page) => page.getByRole('heading', { level: 1 });

let original = '';

const releaseVariant = async (label: string) => (await releaseHeroVariant(label)).version;

/** The hero text a fresh browser (a new visitor) sees on Home. */
async function freshVisit(browser: Browser, token?: string): Promise<{ text: string; page: Page }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  if (token) await useToken(page, token);
  await page.goto('/');
  await expect(hero(page)).toBeVisible();
  if (token) {
    // A member's cohort is theirs from the page load after the shell told the edge who signed in.
    await expect
      .poll(async () => (await context.cookies()).find((c) => c.name === 'visitor')?.value ?? '')
      .toMatch(/^user%3A/);
    await page.reload();
    await expect(hero(page)).toBeVisible();
  }
  return { text: (await hero(page).textContent()) ?? '', page };
}

test.beforeAll(async () => {
  original = (await remoteStatus(REMOTE)).stable ?? '';
  expect(original).toMatch(/^\d+\.\d+\.\d+.*-[0-9a-f]{10}$/);
});

test.afterEach(async () => {
  // Back to the original stable, no canary, whatever a test did.
  const now = await remoteStatus(REMOTE);
  if (now.canary) await rollout('abort', REMOTE);
  if (now.stable !== original) await rollout('rollback', REMOTE, '--to', original);
});

test('a canary at 50 % reaches about half of fresh browsers, sticky; promote and rollback switch everyone', async ({
  browser,
}) => {
  const canaryHero = heroOf('Canary');
  const canary = await releaseHero(canaryHero);
  expect(canary).not.toBe(original);
  // Releasing the same build again is the same version, never a new one.
  expect(await releaseHero(canaryHero)).toBe(canary);

  await rollout('start', REMOTE, canary, '--percent', '50');
  const seen = { canary: 0, stable: 0 };
  for (let i = 0; i < 12; i++) {
    const { text, page } = await freshVisit(browser);
    const isCanary = text.startsWith('Canary build');
    seen[isCanary ? 'canary' : 'stable'] += 1;
    await page.reload();
    await expect(hero(page)).toHaveText(text); // sticky across reloads
    await page.context().close();
  }
  console.log(`canary 50 %: ${seen.canary} of 12 fresh browsers got the canary`);
  expect(seen.canary).toBeGreaterThan(0);
  expect(seen.stable).toBeGreaterThan(0);

  // A member gets the same version in a new browser (cohort from the user id, not the browser).
  const request = (await browser.newContext()).request;
  const member = await createMember(request);
  const first = await freshVisit(browser, member.token);
  for (let i = 0; i < 2; i++) {
    const again = await freshVisit(browser, member.token);
    expect(again.text).toBe(first.text);
    await again.page.context().close();
  }

  await rollout('promote', REMOTE);
  await first.page.reload();
  await expect(hero(first.page)).toHaveText(/^Canary build/);
  for (let i = 0; i < 3; i++) {
    const { text, page } = await freshVisit(browser);
    expect(text).toMatch(/^Canary build/);
    await page.context().close();
  }

  const rolledBackAt = Date.now();
  await rollout('rollback', REMOTE);
  const after = await freshVisit(browser);
  console.log(
    `rollback: the old version was served ${Date.now() - rolledBackAt} ms after the command returned`,
  );
  expect(after.text.startsWith(HERO)).toBe(true);
  expect((await remoteStatus(REMOTE)).stable).toBe(original);
});

test('a visitor who had the old version open keeps working after a release is promoted (no chunk 404)', async ({
  page,
}) => {
  const failed: string[] = [];
  page.on('response', (response) => {
    if (response.url().includes('/releases/') && response.status() >= 400) failed.push(response.url());
  });
  await page.goto('/');
  await expect(hero(page)).toHaveText(new RegExp(`^${HERO}`));

  const next = await releaseVariant('Next');
  await rollout('start', REMOTE, next, '--percent', '10');
  await rollout('promote', REMOTE);

  // The open page still has the old version; every file of it is still there, and it keeps working.
  const oldManifest = JSON.parse(
    fs.readFileSync(path.join(releaseFolder(REMOTE, original), 'mf-manifest.json'), 'utf8'),
  );
  const files = new Set<string>(['remoteEntry.js']);
  for (const group of [...oldManifest.shared, ...oldManifest.exposes]) {
    for (const file of [...group.assets.js.sync, ...group.assets.js.async]) files.add(file);
  }
  for (const file of files) {
    const response = await page.request.get(`/releases/${REMOTE}/${original}/${file}`);
    expect(response.status(), file).toBe(200);
  }
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const [link, heading] of [
    ['About', /About/],
    ['Contact', /Contact/],
    ['Home', new RegExp(HERO)],
  ] as const) {
    await nav.getByRole('link', { name: link, exact: true }).click();
    await expect(page.getByRole('heading', { level: 1 }).first()).toHaveText(heading);
  }
  expect(failed).toEqual([]);
});

test("a remote built from other contracts runs on its own copy of them; identical builds use the shell's", async ({
  page,
}) => {
  const manifest = JSON.parse(
    fs.readFileSync(path.join(releaseFolder(REMOTE, original), 'mf-manifest.json'), 'utf8'),
  );
  const contracts = manifest.shared.find((s: { name: string }) => s.name === '@app/contracts');
  const contractsFiles: string[] = contracts.assets.js.sync;
  expect(contractsFiles.length).toBeGreaterThan(0);
  const requested: string[] = [];
  page.on('request', (request) => requested.push(request.url()));
  const ownContracts = () =>
    requested.filter(
      (url) =>
        url.includes(`/releases/${REMOTE}/`) && contractsFiles.some((file) => url.endsWith(`/${file}`)),
    );

  // Built from the same sources as the shell: the page loads the contracts once, from the shell.
  await page.goto('/');
  await expect(hero(page)).toBeVisible();
  expect(ownContracts()).toEqual([]);

  // The next build of the remote was made from other contracts (another source digest, another company
  // name): it must not run on the shell's older copy.
  const name = 'Risk & Opportunity Intelligence';
  // A valid prerelease (MF's semver rejects numeric identifiers with a leading zero, as semver does).
  const dir = variantOf(REMOTE, contracts.version, '1.0.0-cafecafe00');
  for (const file of contractsFiles) {
    const full = path.join(dir, file);
    fs.writeFileSync(full, fs.readFileSync(full, 'utf8').replaceAll(name, `${name} Labs`));
  }
  const next = await release(REMOTE, '--dist', dir);
  await rollout('start', REMOTE, next, '--percent', '100');
  requested.length = 0;
  await page.goto('/');
  await expect(hero(page)).toBeVisible();
  // The hero's eyebrow is rendered by the remote from its own contracts (the tab title is not: it comes
  // from the shell's @app/ui singleton, which uses the shell's contracts).
  await expect(page.locator('#main').getByText(`${name} Labs`, { exact: true })).toBeVisible();
  expect(ownContracts().length).toBeGreaterThan(0);
  // The shell keeps its own: its footer still names the company as before.
  await expect(page.getByRole('contentinfo')).toContainText(`${name}.`);
});

test('a canary whose entry is deleted falls back to stable within the budget, and status shows the failure', async ({
  page,
}) => {
  const broken = await releaseVariant('Broken');
  await rollout('start', REMOTE, broken, '--percent', '100');
  fs.rmSync(path.join(releaseFolder(REMOTE, broken), 'remoteEntry.js'), { force: true });

  const started = Date.now();
  await page.goto('/');
  await expect(hero(page)).toHaveText(new RegExp(`^${HERO}`));
  console.log(
    `fallback from a canary with a missing entry: Home showed stable after ${Date.now() - started} ms`,
  );
  await expect(page.getByRole('contentinfo')).toBeVisible();

  await endPageView(page);
  await expect.poll(() => errorRateOf(REMOTE, broken)).toBe(1);
});

test('a canary whose server hangs falls back to stable within the 8 s budget', async ({ page }) => {
  const slow = await releaseVariant('Slow');
  await rollout('start', REMOTE, slow, '--percent', '100');
  // The canary's files never answer (a hung server or CDN), everything else does.
  await page.route(`**/releases/${REMOTE}/${slow}/**`, () => undefined);

  const started = Date.now();
  await page.goto('/');
  await expect(hero(page)).toHaveText(new RegExp(`^${HERO}`), { timeout: 15_000 });
  const ms = Date.now() - started;
  console.log(`fallback from a hanging canary: Home showed stable after ${ms} ms`);
  expect(ms).toBeLessThan(12_000);
});

/** Changes a released entry after the fact (a tampered CDN or store): same size class, other bytes. */
function tamperEntry(version: string) {
  const entry = path.join(releaseFolder(REMOTE, version), 'remoteEntry.js');
  fs.appendFileSync(entry, '\n;globalThis.__tampered = true;\n');
}

test('a tampered canary entry is refused by its digest: stable is served, and the failure is reported', async ({
  page,
}) => {
  const tampered = await releaseVariant('Tampered');
  await rollout('start', REMOTE, tampered, '--percent', '100');
  tamperEntry(tampered);

  await page.goto('/');
  await expect(hero(page)).toHaveText(new RegExp(`^${HERO}`));
  expect(await page.evaluate(() => (globalThis as { __tampered?: boolean }).__tampered)).toBeUndefined();
  await endPageView(page);
  await expect.poll(() => errorRateOf(REMOTE, tampered)).toBe(1);
});

test('a tampered stable entry is refused: its region shows the fallback, the rest of the app works', async ({
  page,
}) => {
  const tampered = await releaseVariant('Tampered stable');
  await rollout('start', REMOTE, tampered, '--percent', '100');
  await rollout('promote', REMOTE);
  tamperEntry(tampered);

  await page.goto('/');
  await expect(page.getByRole('main').getByText(MESSAGES.app.remoteFailedTitle)).toBeVisible();
  expect(await page.evaluate(() => (globalThis as { __tampered?: boolean }).__tampered)).toBeUndefined();
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Login', exact: true })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: /Log In/ })).toBeVisible();
  await endPageView(page);
  await expect.poll(() => errorRateOf(REMOTE, tampered)).toBe(1);
});

test('a canary that a chunk 404 breaks falls back, too', async ({ page }) => {
  const broken = await releaseVariant('Chunkless');
  await rollout('start', REMOTE, broken, '--percent', '100');
  const folder = releaseFolder(REMOTE, broken);
  for (const file of fs.readdirSync(folder)) {
    if (file.startsWith('__federation_expose_')) fs.rmSync(path.join(folder, file));
  }
  await page.goto('/');
  await expect(hero(page)).toHaveText(new RegExp(`^${HERO}`));
});

test('a canary whose code throws on a button click is rolled back by the health gate; history and the charts say why', async ({
  browser,
  request,
}) => {
  const heading = heroOf('Clumsy');
  const clumsy = await release(REMOTE, '--dist', throwingOnClick(variantOf(REMOTE, HERO, heading)));
  await rollout('start', REMOTE, clumsy, '--percent', '50');
  // Fresh browsers are fresh visitors: each is served one track, clicks a button, and leaves the page.
  const seen = { canary: 0, stable: 0 };
  for (let i = 0; i < 40 && (seen.canary < 3 || seen.stable < 3); i++) {
    // Each from an address of its own, as real visitors come: the gate counts at most 5 visitors an address.
    const context = await browser.newContext({
      extraHTTPHeaders: { 'X-Forwarded-For': `198.51.100.${i + 1}` },
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto('/');
    await expect(hero(page)).toBeVisible();
    const text = (await hero(page).textContent()) ?? '';
    const track = text.startsWith('Clumsy build') ? 'canary' : 'stable';
    seen[track] += 1;
    const button = page.getByRole('button').first();
    await button.click();
    if (track === 'canary') await expect.poll(() => errors).toContain('canary click handler failed');
    else expect(errors).toEqual([]);
    await endPageView(page);
    await context.close();
  }
  expect(seen.canary).toBeGreaterThanOrEqual(3);
  await expect
    .poll(async () => (await remoteStatus(REMOTE)).health.find((h) => h.version === clumsy)?.visitors)
    .toBe(seen.canary);

  const watch = await tryRollout(
    'watch',
    REMOTE,
    '--steps',
    '50,100',
    '--interval',
    '0.2',
    '--min-visitors',
    '3',
    '--max-wait',
    '20',
  );
  expect(watch.code, watch.stdout + watch.stderr).toBe(2);
  const now = await remoteStatus(REMOTE);
  expect(now.canary).toBeNull();
  expect(now.stable).toBe(original);
  const { entries: history } = JSON.parse(await rollout('history', REMOTE, '--json')) as {
    entries: Array<{ action: string; reason?: string }>;
  };
  expect(history[0]).toMatchObject({ action: 'watch-rollback' });
  expect(history[0]?.reason).toMatch(
    new RegExp(`^errors: canary 100\\.0 % of ${seen.canary} visitors, stable 0\\.0 % of \\d+ visitors`),
  );

  // The administrators' picture: both tracks on the remote's charts, and why the last decision was taken.
  const admin = await createMember(request, ['admin'], 'chartadmin');
  const context = await browser.newContext();
  const page = await context.newPage();
  await useToken(page, admin.token);
  await page.goto('/admin/rollouts');
  const chart = page.getByTestId(`rollout-chart-${REMOTE}`);
  await expect(chart.locator('[data-track="canary"]').first()).toBeVisible();
  await expect(chart.locator('[data-track="stable"]').first()).toBeVisible();
  await expect(chart).toContainText(clumsy);
  await expect(chart).toContainText(history[0]?.reason ?? 'a reason');
  await context.close();
});

test("the compatibility gate refuses a build for another React major or needing an export the live shell's @app package lacks", async () => {
  const dir = variantOf(REMOTE, HERO, 'Old-react build: see the risks coming.');
  withManifest(dir, (manifest) => {
    for (const shared of manifest.shared) {
      if (shared.name === 'react' || shared.name === 'react-dom')
        Object.assign(shared, { version: '18.3.1', requiredVersion: '^18.3.1' });
    }
  });
  // What its code imports, as its build contract says (issue 45): an export of @app/session no shell has.
  const contractFile = path.join(dir, 'mf-compat.json');
  const contract = JSON.parse(fs.readFileSync(contractFile, 'utf8'));
  contract.requires['@app/session'] = { ...contract.requires['@app/session'], useSessionV2: '(() => void)' };
  fs.writeFileSync(contractFile, JSON.stringify(contract));
  const versionsBefore = fs.readdirSync(path.join(STORE_DIR, REMOTE)).sort();
  const refused = await tryRelease(REMOTE, '--dist', dir);
  expect(refused.code).not.toBe(0);
  expect(refused.stderr).toContain('react: built against major 18');
  expect(refused.stderr).toContain('@app/session useSessionV2:');
  expect(refused.stderr).toMatch(/needs it; the live shell/);
  expect(fs.readdirSync(path.join(STORE_DIR, REMOTE)).sort()).toEqual(versionsBefore); // nothing published
});

test('a build that does not say what its code is (no mf-compat.json) is refused: the gate cannot vouch for it', async () => {
  const dir = variantOf(REMOTE, HERO, 'Contract-less build: see the risks coming.');
  fs.rmSync(path.join(dir, 'mf-compat.json'));
  const refused = await tryRelease(REMOTE, '--dist', dir);
  expect(refused.code).not.toBe(0);
  expect(refused.stderr).toContain('mf-compat.json is missing');
});

test.describe('preview links', () => {
  let previewed = '';
  const refusal = (page: Page) => page.getByRole('alert').filter({ hasText: 'Preview link refused' });

  test.beforeAll(async () => {
    previewed = await releaseVariant('Preview');
  });

  test('a valid link pins the remote for this browser, shows the banner, and Exit clears it', async ({
    page,
  }) => {
    const link = await previewLink(REMOTE, previewed, '--hours', '4');
    const banner = page.getByRole('status', { name: 'Preview' });
    // The edges learn of a new link through the API's feed, a moment after the command returns.
    await expect(async () => {
      await page.goto(link.url);
      await expect(banner).toContainText(`Previewing ${REMOTE} ${previewed} ·`, { timeout: 1000 });
    }).toPass({ timeout: 10_000 });
    await expect(hero(page)).toHaveText(/^Preview build/);
    await expect(page).toHaveURL(`${SHELL_URL}/`); // the token left the address bar
    await page.reload();
    await expect(hero(page)).toHaveText(/^Preview build/);
    await banner.getByRole('button', { name: 'Exit preview' }).click();
    await expect(hero(page)).toHaveText(new RegExp(`^${HERO}`));
    await expect(page.getByRole('status', { name: 'Preview' })).toHaveCount(0);
  });

  // Issue 44: links are opaque and stored per environment. Expiry is the API's and the unit tests' (a link
  // lives at least 36 s); here, what a visitor sees for a link that is not, or no longer, one of this site's.
  const refusals: Array<[string, () => Promise<string>, string]> = [
    ['made-up', async () => newPreviewToken(), 'This preview link is not valid.'],
    [
      `${OTHER_ENV}`,
      async () => (await previewLink(REMOTE, previewed, '--env', OTHER_ENV)).token,
      'This preview link is not valid.',
    ],
    [
      'revoked',
      async () => {
        const link = await previewLink(REMOTE, previewed);
        await rollout('revoke-preview', link.id);
        return link.token;
      },
      'This preview link has been revoked.',
    ],
  ];
  for (const [kind, token, message] of refusals) {
    test(`a ${kind} link is refused and the stable version is served`, async ({ page }) => {
      const url = `/?preview=${await token()}`;
      // Retried until the edges have the environment's latest links (the feed, a moment later).
      await expect(async () => {
        await page.goto(url);
        await expect(refusal(page)).toContainText(message, { timeout: 1000 });
      }).toPass({ timeout: 10_000 });
      await expect(hero(page)).toHaveText(new RegExp(`^${HERO}`));
      await expect(page.getByRole('status', { name: 'Preview' })).toHaveCount(0);
    });
  }
});

test('administrators see the rollouts in the product; members do not', async ({ page, request }) => {
  const admin = await createMember(request, ['admin'], 'rolloutadmin');
  await useToken(page, admin.token);
  await page.goto('/');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('button', { name: /^Admin/ }).click();
  await nav.getByRole('link', { name: 'Rollouts' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Rollouts' })).toBeVisible();
  const remotes = page.getByRole('table').filter({ hasText: 'Environment' });
  await expect(remotes.getByRole('row').filter({ hasText: REMOTE }).first()).toContainText(original);
  await expect(page.getByRole('heading', { name: 'Audit log' })).toBeVisible();
  await expect(page.getByText(/rollback mf-public-pages/).first()).toBeVisible();

  const member = await createMember(request);
  const other = await page.context().browser()!.newContext();
  const memberPage = await other.newPage();
  await useToken(memberPage, member.token);
  await memberPage.goto('/admin/rollouts');
  await expect(memberPage.getByText('Only administrators can see rollouts.')).toBeVisible();
  await expect(
    memberPage.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /^Admin/ }),
  ).toHaveCount(0);
  await expect(memberPage.getByRole('link', { name: 'Rollouts' })).toHaveCount(0);
});

import { API_PATHS, CHALLENGES, INTELLIGENCE_TOPICS, MESSAGES, RISK_CONCERNS } from '@app/contracts';
import { API_URL } from '../support/api';
import { expect, type Locator, type Page, test } from '../support/test';

const S = MESSAGES.survey;
const DRAFT_KEY = 'market-assessment-draft';
const isAssessment = (url: URL) => url.origin === API_URL && url.pathname === API_PATHS.marketAssessment;

const unlockButton = (page: Page) =>
  page
    .getByRole('region', { name: 'Premium Risk Assessments' })
    .getByRole('button', { name: 'Unlock with Free Assessment' })
    .first();
const dialog = (page: Page) => page.getByRole('dialog', { name: 'Market Assessment' });
const THANKS = 'Thank you! Your assessment is complete.';
/** The shell's thanks after a completed survey: a named notice inside a polite status region. */
const thanks = (page: Page) => page.getByRole('status').getByRole('region', { name: THANKS });
const premiumCards = (page: Page) =>
  page.getByRole('region', { name: 'Premium Risk Assessments' }).getByRole('article');
const progress = (d: Locator) => d.getByRole('progressbar', { name: 'Survey progress' });

async function openFromHome(page: Page): Promise<Locator> {
  await page.goto('/');
  await unlockButton(page).click();
  return shown(page);
}

/** The shell shows a placeholder dialog of the same name while mf-survey loads: wait for the real one. */
async function shown(page: Page): Promise<Locator> {
  const d = dialog(page);
  await expect(d.getByRole('progressbar', { name: 'Survey progress' })).toBeVisible();
  return d;
}

async function answerSteps1to3(d: Locator) {
  await d.getByRole('combobox', { name: 'Company size' }).selectOption('51-200');
  await d.getByRole('combobox', { name: 'Industry' }).selectOption('logistics');
  await d.getByRole('combobox', { name: 'Your role' }).selectOption('coo');
  await d.getByRole('button', { name: 'Next' }).click();
  await d.getByRole('checkbox', { name: CHALLENGES.labels['supply-chain'] }).check();
  await d.getByRole('checkbox', { name: RISK_CONCERNS.labels['cyber-attack'] }).check();
  await d.getByRole('button', { name: 'Next' }).click();
  await d.getByRole('checkbox', { name: INTELLIGENCE_TOPICS.labels['market-trends'] }).check();
  await d.getByRole('button', { name: 'Next' }).click();
  await expect(progress(d)).toHaveAttribute('aria-valuenow', '4');
}

/** Presses Tab until the focused element is the button with this text (a keyboard user's way there). */
async function tabTo(page: Page, text: string) {
  for (let i = 0; i < 60; i += 1) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => document.activeElement?.textContent?.trim());
    if (focused === text) return;
  }
  throw new Error(`could not reach "${text}" with Tab`);
}

test.describe('market assessment survey', () => {
  test('opens from Home as a named dialog; Esc and the close button close it and focus returns', async ({
    page,
  }) => {
    await page.goto('/');
    await unlockButton(page).focus();
    await page.keyboard.press('Enter');
    const d = await shown(page);
    await expect(d.getByText('Step 1 of 4')).toBeVisible();
    await expect(progress(d)).toHaveAttribute('aria-valuenow', '1');
    await expect(d.getByRole('button', { name: 'Previous' })).toBeDisabled();

    // Focus stays inside the dialog.
    for (let i = 0; i < 10; i += 1) {
      await page.keyboard.press('Tab');
      expect(await d.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    }

    await page.keyboard.press('Escape');
    await expect(d).toBeHidden();
    await expect(unlockButton(page)).toBeFocused();

    await page.getByRole('button', { name: 'Start Free Assessment' }).click();
    await (await shown(page)).getByRole('button', { name: 'Close' }).click();
    await expect(dialog(page)).toBeHidden();
    await expect(page.getByRole('button', { name: 'Start Free Assessment' })).toBeFocused();
  });

  test("validates each step with the spec's messages, which clear as fields change", async ({ page }) => {
    const d = await openFromHome(page);
    await d.getByRole('button', { name: 'Next' }).click();
    await expect(d.getByText(S.companySizeRequired)).toBeVisible();
    await expect(d.getByText(S.industryRequired)).toBeVisible();
    await expect(d.getByText(S.roleRequired)).toBeVisible();
    const size = d.getByRole('combobox', { name: 'Company size' });
    await expect(size).toBeFocused();
    await size.selectOption('10-50');
    await expect(d.getByText(S.companySizeRequired)).toHaveCount(0);
    await expect(d.getByText(S.industryRequired)).toBeVisible();
    await d.getByRole('combobox', { name: 'Industry' }).selectOption('technology');
    await d.getByRole('combobox', { name: 'Your role' }).selectOption('business-owner');
    await d.getByRole('button', { name: 'Next' }).click();

    await expect(progress(d)).toHaveAttribute('aria-valuenow', '2');
    await d.getByRole('button', { name: 'Next' }).click();
    await expect(d.getByText(S.challengeRequired)).toBeVisible();
    await d.getByRole('checkbox', { name: CHALLENGES.labels.cybersecurity }).check();
    await expect(d.getByText(S.challengeRequired)).toHaveCount(0);
    await d.getByRole('button', { name: 'Next' }).click();

    await expect(progress(d)).toHaveAttribute('aria-valuenow', '3');
    await d.getByRole('button', { name: 'Next' }).click();
    await expect(d.getByText(S.topicRequired)).toBeVisible();
    // Moving back is free, and keeps the answers.
    await d.getByRole('button', { name: 'Previous' }).click();
    await expect(d.getByRole('checkbox', { name: CHALLENGES.labels.cybersecurity })).toBeChecked();
    await d.getByRole('button', { name: 'Next' }).click();
    await d.getByRole('checkbox', { name: INTELLIGENCE_TOPICS.labels['cyber-threats'] }).check();
    await d.getByRole('button', { name: 'Next' }).click();

    const complete = d.getByRole('button', { name: 'Complete Assessment' });
    await complete.click();
    await expect(d.getByText(S.emailRequired)).toBeVisible();
    const email = d.getByRole('textbox', { name: 'Email' });
    await expect(email).toBeFocused();
    await email.fill('not-an-address');
    await expect(d.getByText(S.emailRequired)).toHaveCount(0);
    await complete.click();
    await expect(d.getByText(S.emailInvalid)).toBeVisible();
  });

  test('completed with the keyboard alone, it stores a row through the real API', async ({
    page,
    request,
  }) => {
    await page.goto('/');
    await unlockButton(page).focus();
    await page.keyboard.press('Enter');
    const d = await shown(page);

    // Step 1: the close button has focus; Tab to each select and pick its first option with the arrow key.
    await page.keyboard.press('Tab');
    await expect(d.getByRole('combobox', { name: 'Company size' })).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Tab');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Tab');
    await page.keyboard.press('ArrowDown');
    await expect(d.getByRole('combobox', { name: 'Company size' })).toHaveValue('10-50');
    await expect(d.getByRole('combobox', { name: 'Industry' })).toHaveValue('manufacturing');
    await expect(d.getByRole('combobox', { name: 'Your role' })).toHaveValue('ceo');
    await tabTo(page, 'Next');
    await page.keyboard.press('Enter');

    // Step 2: focus is on the step heading; the first box is one Tab away.
    await expect(progress(d)).toHaveAttribute('aria-valuenow', '2');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    await tabTo(page, 'Next');
    await page.keyboard.press('Enter');

    await expect(progress(d)).toHaveAttribute('aria-valuenow', '3');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    await tabTo(page, 'Next');
    await page.keyboard.press('Enter');

    await expect(progress(d)).toHaveAttribute('aria-valuenow', '4');
    await page.keyboard.press('Tab');
    await expect(d.getByRole('textbox', { name: 'Email' })).toBeFocused();
    await page.keyboard.type('keyboard.user@example.com');
    const sent = page.waitForRequest((r) => isAssessment(new URL(r.url())) && r.method() === 'POST');
    const answered = page.waitForResponse(
      (r) => isAssessment(new URL(r.url())) && r.request().method() === 'POST',
    );
    await page.keyboard.press('Enter');

    const req = await sent;
    const res = await answered;
    expect(res.status()).toBe(201);
    const stored = (await res.json()) as { id: number };
    const key = req.headers()['idempotency-key'];
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    // What the keyboard path chose: the first option of each required list.
    const payload = {
      companySize: '10-50',
      industry: 'manufacturing',
      role: 'ceo',
      primaryChallenges: [CHALLENGES.values[0]],
      riskConcerns: [],
      growthGoals: [],
      intelligenceTopics: [INTELLIGENCE_TOPICS.values[0]],
      email: 'keyboard.user@example.com',
    };

    // SPEC §4: on success the modal closes. The thanks follow outside it, and the unlock buttons are gone
    // (the cards now say the reports are on their way), so focus lands on the thanks.
    await expect(d).toBeHidden();
    await expect(thanks(page)).toBeFocused();
    await expect(thanks(page)).toContainText('on their way to your inbox');
    await expect(premiumCards(page)).toHaveCount(3);
    for (const card of await premiumCards(page).all()) {
      await expect(card.getByText('Premium · On its way')).toBeVisible();
      await expect(card.getByRole('button')).toHaveCount(0);
    }
    expect(await page.evaluate((k) => sessionStorage.getItem(k), DRAFT_KEY)).toBeNull();

    // The row exists: the API answers a repeat with the same key by returning the stored row's id, and
    // (issue 19) a new key from the same email within the repeat window is the same lead, stored once.
    const repeat = await request.post(`${API_URL}${API_PATHS.marketAssessment}`, {
      data: payload,
      headers: { 'Idempotency-Key': key! },
    });
    expect(repeat.status()).toBe(201);
    expect(((await repeat.json()) as { id: number }).id).toBe(stored.id);
    const other = await request.post(`${API_URL}${API_PATHS.marketAssessment}`, {
      data: payload,
      headers: { 'Idempotency-Key': `${key}-other` },
    });
    expect(other.status()).toBe(201);
    expect(((await other.json()) as { id: number }).id).toBe(stored.id);

    await page.keyboard.press('Tab');
    await expect(thanks(page).getByRole('button', { name: 'Dismiss' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(thanks(page)).toHaveCount(0);

    // This browser remembers it: after a reload the cards still say the reports are on their way.
    await page.reload();
    await expect(premiumCards(page).first().getByText('Premium · On its way')).toBeVisible();
    await expect(premiumCards(page).getByText('Premium · Locked')).toHaveCount(0);
    await expect(page.getByRole('region', { name: 'Premium Risk Assessments' })).toContainText(
      'these reports are on their way to your inbox',
    );

    // A new survey (from the hero) starts empty.
    await page.getByRole('button', { name: 'Start Free Assessment' }).click();
    await expect(progress(await shown(page))).toHaveAttribute('aria-valuenow', '1');
    await expect(dialog(page).getByRole('combobox', { name: 'Company size' })).toHaveValue('');
  });

  test('an API failure keeps every answer through close, reopen and reload; the retry reuses the key', async ({
    page,
  }) => {
    const keys: string[] = [];
    await page.route(isAssessment, async (route) => {
      keys.push(route.request().headers()['idempotency-key'] ?? '');
      await route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: '{"error":"Internal error"}',
      });
    });
    let d = await openFromHome(page);
    await answerSteps1to3(d);
    await d.getByRole('textbox', { name: 'Email' }).fill('failure@example.com');
    await d.getByRole('textbox', { name: 'Company' }).fill('Northwind Freight');
    await d.getByRole('button', { name: 'Complete Assessment' }).click();
    await expect(d.getByRole('alert')).toHaveText(S.failed);
    await expect(d.getByRole('textbox', { name: 'Email' })).toHaveValue('failure@example.com');
    await expect(d.getByRole('button', { name: 'Complete Assessment' })).toBeEnabled();

    await page.keyboard.press('Escape');
    await expect(d).toBeHidden();
    await unlockButton(page).click();
    d = await shown(page);
    await expect(progress(d)).toHaveAttribute('aria-valuenow', '4');
    await expect(d.getByRole('textbox', { name: 'Company' })).toHaveValue('Northwind Freight');

    await page.reload();
    await unlockButton(page).click();
    d = await shown(page);
    await expect(d.getByRole('textbox', { name: 'Email' })).toHaveValue('failure@example.com');
    await d.getByRole('button', { name: 'Previous' }).click();
    await expect(
      d.getByRole('checkbox', { name: INTELLIGENCE_TOPICS.labels['market-trends'] }),
    ).toBeChecked();
    await d.getByRole('button', { name: 'Next' }).click();

    await page.unroute(isAssessment);
    const sent = page.waitForRequest((r) => isAssessment(new URL(r.url())) && r.method() === 'POST');
    await d.getByRole('button', { name: 'Complete Assessment' }).click();
    expect((await sent).headers()['idempotency-key']).toBe(keys[0]);
    await expect(d).toBeHidden();
    await expect(thanks(page)).toBeVisible();
  });

  test('a network error keeps every answer and shows the error on the last step', async ({ page }) => {
    await page.route(isAssessment, (route) => route.abort('internetdisconnected'));
    const d = await openFromHome(page);
    await answerSteps1to3(d);
    await d.getByRole('textbox', { name: 'Email' }).fill('offline@example.com');
    await d.getByRole('button', { name: 'Complete Assessment' }).click();
    await expect(d.getByRole('alert')).toHaveText(S.failed);
    await expect(progress(d)).toHaveAttribute('aria-valuenow', '4');
    await expect(d.getByRole('textbox', { name: 'Email' })).toHaveValue('offline@example.com');
    await expect(thanks(page)).toHaveCount(0);
    await expect(premiumCards(page).first().getByText('Premium · Locked')).toBeVisible();
  });

  test('an absent endpoint (404) counts as success', async ({ page }) => {
    await page.route(isAssessment, (route) =>
      route.fulfill({ status: 404, contentType: 'application/json', body: '{"error":"Not found"}' }),
    );
    const d = await openFromHome(page);
    await answerSteps1to3(d);
    await d.getByRole('textbox', { name: 'Email' }).fill('absent@example.com');
    await d.getByRole('button', { name: 'Complete Assessment' }).click();
    await expect(d).toBeHidden();
    await expect(thanks(page)).toBeVisible();
    await expect(page.getByText(S.failed)).toHaveCount(0);
  });

  test('works in the night theme', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    const d = await openFromHome(page);
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    const colours = await d.evaluate((el) => {
      const s = getComputedStyle(el);
      return { bg: s.backgroundColor, fg: s.color };
    });
    expect(colours.bg).not.toBe(colours.fg);
    expect(colours.bg).not.toBe('rgb(255, 255, 255)');
  });
});

import { CHALLENGES, INTELLIGENCE_TOPICS } from '@app/contracts';
import { expect, type Page } from './test';

/** Who completes the assessment, and what they answer beyond the defaults below. */
export interface AssessmentAnswers {
  email: string;
  first: string;
  last: string;
  company?: string;
  consultation?: boolean;
}

/**
 * The market assessment completed through the UI, as a visitor does from Home: 201-500 employees,
 * manufacturing, CFO, cash flow, pricing intelligence, immediate urgency, then the visitor's details.
 */
export async function completeAssessment(page: Page, who: AssessmentAnswers) {
  await page.goto('/');
  await page
    .getByRole('region', { name: 'Premium Risk Assessments' })
    .getByRole('button', { name: 'Unlock with Free Assessment' })
    .first()
    .click();
  const d = page.getByRole('dialog', { name: 'Market Assessment' });
  await expect(d.getByRole('progressbar', { name: 'Survey progress' })).toBeVisible();
  await d.getByRole('combobox', { name: 'Company size' }).selectOption('201-500');
  await d.getByRole('combobox', { name: 'Industry' }).selectOption('manufacturing');
  await d.getByRole('combobox', { name: 'Your role' }).selectOption('cfo');
  await d.getByRole('button', { name: 'Next' }).click();
  await d.getByRole('checkbox', { name: CHALLENGES.labels['cash-flow'] }).check();
  await d.getByRole('button', { name: 'Next' }).click();
  await d.getByRole('checkbox', { name: INTELLIGENCE_TOPICS.labels['pricing-intelligence'] }).check();
  await d.getByRole('combobox', { name: 'Urgency' }).selectOption('immediate');
  await d.getByRole('button', { name: 'Next' }).click();
  await d.getByRole('textbox', { name: 'Email' }).fill(who.email);
  await d.getByRole('textbox', { name: 'First name' }).fill(who.first);
  await d.getByRole('textbox', { name: 'Last name' }).fill(who.last);
  if (who.company) await d.getByRole('textbox', { name: 'Company' }).fill(who.company);
  if (who.consultation ?? true) {
    await d.getByRole('checkbox', { name: 'I am interested in a free consultation with an analyst' }).check();
  }
  await d.getByRole('button', { name: 'Complete Assessment' }).click();
  await expect(d).toBeHidden();
}

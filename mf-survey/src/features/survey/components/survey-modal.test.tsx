import {
  BUSINESS_ROLES,
  CHALLENGES,
  COMMUNICATION_METHODS,
  COMPANY_SIZES,
  GROWTH_GOALS,
  INDUSTRIES,
  INTELLIGENCE_TOPICS,
  MESSAGES,
  REPORT_FREQUENCIES,
  RISK_CONCERNS,
  URGENCIES,
  YEARS_IN_ROLE,
} from '@app/contracts';
import { useApiServer } from '@app/test-utils';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  acceptSubmissions,
  alerts,
  box,
  button,
  combo,
  fillStep1,
  fillStep2,
  fillStep3,
  openSurvey,
  progress,
  toStep4,
} from '../../../test/survey-helpers';
import { COMPLETE_LABEL, SURVEY_TITLE } from './survey-modal';

const server = useApiServer();
const S = MESSAGES.survey;
/** The element the survey last asked the browser to scroll into view. */
const scrolledTo = () => vi.mocked(Element.prototype.scrollIntoView).mock.contexts.at(-1) as HTMLElement;

describe('survey modal', () => {
  it('is a dialog named by its title, on step 1 of 4', () => {
    openSurvey();
    const dialog = screen.getByRole('dialog', { name: SURVEY_TITLE });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(progress()).toHaveAttribute('aria-valuenow', '1');
    expect(progress()).toHaveAttribute('aria-valuemax', '4');
    expect(within(dialog).getByText('Step 1 of 4')).toBeInTheDocument();
    expect(button('Previous')).toBeDisabled();
    expect(button('Next')).toBeEnabled();
  });

  it('offers every §3 option list with readable labels', async () => {
    const user = userEvent.setup();
    openSurvey();
    const labels = (name: string) =>
      within(combo(name))
        .getAllByRole('option')
        .slice(1)
        .map((o) => o.textContent);
    expect(labels('Company size')).toEqual(COMPANY_SIZES.values.map((v) => COMPANY_SIZES.labels[v]));
    expect(labels('Industry')).toEqual(INDUSTRIES.values.map((v) => INDUSTRIES.labels[v]));
    expect(labels('Your role')).toEqual(BUSINESS_ROLES.values.map((v) => BUSINESS_ROLES.labels[v]));
    expect(labels('Years in role')).toEqual(YEARS_IN_ROLE.values.map((v) => YEARS_IN_ROLE.labels[v]));
    await fillStep1(user);
    const group = (name: string) => within(screen.getByRole('group', { name })).getAllByRole('checkbox');
    expect(group('Primary challenges')).toHaveLength(12);
    expect(group('Risk concerns')).toHaveLength(6);
    expect(group('Growth goals')).toHaveLength(8);
    expect(box(GROWTH_GOALS.labels.funding)).toBeInTheDocument();
    await fillStep2(user);
    expect(group('Intelligence topics')).toHaveLength(12);
    expect(labels('Report frequency')).toEqual(
      REPORT_FREQUENCIES.values.map((v) => REPORT_FREQUENCIES.labels[v]),
    );
    expect(labels('Urgency')).toEqual(URGENCIES.values.map((v) => URGENCIES.labels[v]));
    await fillStep3(user);
    expect(labels('Preferred communication')).toEqual(
      COMMUNICATION_METHODS.values.map((v) => COMMUNICATION_METHODS.labels[v]),
    );
  });

  it('step 1: requires company size, industry and role, focuses the first error, clears each on change', async () => {
    const user = userEvent.setup();
    openSurvey();
    await user.click(button('Next'));
    expect(alerts()).toEqual([S.companySizeRequired, S.industryRequired, S.roleRequired]);
    expect(combo('Company size')).toHaveFocus();
    expect(combo('Company size')).toHaveAccessibleDescription(S.companySizeRequired);
    expect(combo('Company size')).toHaveAttribute('aria-invalid', 'true');
    expect(progress()).toHaveAttribute('aria-valuenow', '1');
    // The field's frame (label, select, message) is what gets scrolled into view.
    expect(scrolledTo()).toBe(combo('Company size').parentElement);
    expect(scrolledTo()).toHaveTextContent(S.companySizeRequired);

    await user.selectOptions(combo('Industry'), 'retail');
    expect(alerts()).toEqual([S.companySizeRequired, S.roleRequired]);
    await user.selectOptions(combo('Company size'), '10-50');
    expect(alerts()).toEqual([S.roleRequired]);
    await user.selectOptions(combo('Your role'), 'ceo');
    expect(alerts()).toEqual([]);

    // Years in role is optional.
    await user.click(button('Next'));
    expect(progress()).toHaveAttribute('aria-valuenow', '2');
    expect(screen.getByRole('heading', { name: 'Challenges and goals' })).toHaveFocus();
  });

  it('step 2: requires one challenge; risks and goals are optional', async () => {
    const user = userEvent.setup();
    openSurvey();
    await fillStep1(user);
    await user.click(box(RISK_CONCERNS.labels.reputation));
    await user.click(button('Next'));
    expect(alerts()).toEqual([S.challengeRequired]);
    const first = box(CHALLENGES.labels['rising-costs']);
    expect(first).toHaveFocus();
    expect(first).toHaveAccessibleDescription(S.challengeRequired);
    // The whole group is scrolled into view, and its message comes before the boxes (under the legend),
    // so on a small screen it is on screen with the focused first box.
    const group = screen.getByRole('group', { name: 'Primary challenges' });
    expect(scrolledTo()).toBe(group);
    const message = within(group).getByRole('alert');
    expect(message.compareDocumentPosition(first) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    await user.click(box(CHALLENGES.labels.succession));
    expect(alerts()).toEqual([]);
    await user.click(button('Next'));
    expect(progress()).toHaveAttribute('aria-valuenow', '3');
  });

  it('step 3: requires one topic of interest', async () => {
    const user = userEvent.setup();
    openSurvey();
    await fillStep1(user);
    await fillStep2(user);
    await user.click(button('Next'));
    expect(alerts()).toEqual([S.topicRequired]);
    expect(box(INTELLIGENCE_TOPICS.labels['competitor-monitoring'])).toHaveFocus();
    await user.click(box(INTELLIGENCE_TOPICS.labels['talent-market']));
    expect(alerts()).toEqual([]);
    await user.click(button('Next'));
    expect(progress()).toHaveAttribute('aria-valuenow', '4');
    expect(button(COMPLETE_LABEL)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Next' })).not.toBeInTheDocument();
  });

  it('step 4: requires an email of a simple shape, and clears the error on typing', async () => {
    const user = userEvent.setup();
    const sent = acceptSubmissions(server);
    openSurvey();
    await toStep4(user);
    const email = screen.getByRole('textbox', { name: 'Email' });
    await user.click(button(COMPLETE_LABEL));
    expect(alerts()).toEqual([S.emailRequired]);
    expect(email).toHaveFocus();
    await user.type(email, 'not-an-email');
    expect(alerts()).toEqual([]);
    await user.click(button(COMPLETE_LABEL));
    expect(alerts()).toEqual([S.emailInvalid]);
    expect(email).toHaveAccessibleDescription(S.emailInvalid);
    expect(sent).toHaveLength(0);
  });

  it('moves back freely, without validating, and keeps every answer', async () => {
    const user = userEvent.setup();
    openSurvey();
    await fillStep1(user);
    await fillStep2(user);
    await user.click(button('Previous'));
    expect(alerts()).toEqual([]);
    expect(progress()).toHaveAttribute('aria-valuenow', '2');
    expect(box(CHALLENGES.labels['supply-chain'])).toBeChecked();
    await user.click(button('Previous'));
    expect(combo('Industry')).toHaveValue('logistics');
  });

  it('closes with Esc and with the close button', async () => {
    const user = userEvent.setup();
    const { onClose } = openSurvey();
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
    await user.click(button('Close'));
    expect(onClose).toHaveBeenCalledTimes(2);
  });

  it('keeps focus inside the dialog', async () => {
    const user = userEvent.setup();
    openSurvey();
    const dialog = screen.getByRole('dialog');
    for (let i = 0; i < 12; i += 1) {
      await user.tab();
      expect(dialog).toContainElement(document.activeElement as HTMLElement);
    }
  });
});

import {
  API_PATHS,
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
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import App from '../../../app';
import { API, useApiServer } from '../../../test/api';
import { renderWithTheme } from '../../../test/render';
import { DRAFT_STORAGE_KEY } from '../model/draft-store';
import { COMPLETE_TITLE, DONE_LABEL } from './survey-complete';
import { COMPLETE_LABEL, SURVEY_TITLE } from './survey-modal';

const server = useApiServer();
const url = `${API}${API_PATHS.marketAssessment}`;
const S = MESSAGES.survey;

interface Sent {
  key: string | null;
  body: Record<string, unknown>;
}

/** Answers 201 like the API and records what was sent. */
function acceptSubmissions(status = 201) {
  const sent: Sent[] = [];
  server.use(
    http.post(url, async ({ request }) => {
      sent.push({
        key: request.headers.get('Idempotency-Key'),
        body: (await request.json()) as Sent['body'],
      });
      return HttpResponse.json({ id: sent.length, message: 'ok' }, { status });
    }),
  );
  return sent;
}

function openSurvey() {
  const onClose = vi.fn();
  const view = renderWithTheme(<App embedded onClose={onClose} />);
  return { onClose, ...view };
}

const combo = (name: string) => screen.getByRole('combobox', { name });
const box = (name: string) => screen.getByRole('checkbox', { name });
const button = (name: string) => screen.getByRole('button', { name });
const progress = () => screen.getByRole('progressbar', { name: 'Survey progress' });
const alerts = () => screen.queryAllByRole('alert').map((a) => a.textContent);

async function fillStep1(user: ReturnType<typeof userEvent.setup>) {
  await user.selectOptions(combo('Company size'), '51-200');
  await user.selectOptions(combo('Industry'), 'logistics');
  await user.selectOptions(combo('Your role'), 'coo');
  await user.click(button('Next'));
}
async function fillStep2(user: ReturnType<typeof userEvent.setup>) {
  await user.click(box(CHALLENGES.labels['supply-chain']));
  await user.click(box(RISK_CONCERNS.labels['cyber-attack']));
  await user.click(button('Next'));
}
async function fillStep3(user: ReturnType<typeof userEvent.setup>) {
  await user.click(box(INTELLIGENCE_TOPICS.labels['market-trends']));
  await user.selectOptions(combo('Urgency'), 'short-term');
  await user.click(button('Next'));
}
async function toStep4(user: ReturnType<typeof userEvent.setup>) {
  await fillStep1(user);
  await fillStep2(user);
  await fillStep3(user);
  expect(progress()).toHaveAttribute('aria-valuenow', '4');
}

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
    const sent = acceptSubmissions();
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

  it('submits the §3 payload with an Idempotency-Key, then says what happens next', async () => {
    const user = userEvent.setup();
    const sent = acceptSubmissions();
    const { onClose } = openSurvey();
    await toStep4(user);
    await user.type(screen.getByRole('textbox', { name: 'Email' }), ' coo@example.com ');
    await user.type(screen.getByRole('textbox', { name: 'Company' }), 'Northwind Freight');
    await user.selectOptions(combo('Preferred communication'), 'email-meeting');
    await user.click(box('I am interested in a free consultation with an analyst'));
    await user.click(button(COMPLETE_LABEL));

    const heading = await screen.findByRole('heading', { name: COMPLETE_TITLE });
    expect(heading).toHaveFocus();
    expect(screen.getByRole('dialog', { name: SURVEY_TITLE })).toHaveTextContent('coo@example.com');
    expect(screen.getByText(/An analyst will contact you/)).toBeInTheDocument();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent[0]!.body).toEqual({
      companySize: '51-200',
      industry: 'logistics',
      role: 'coo',
      yearsInRole: '',
      primaryChallenges: ['supply-chain'],
      riskConcerns: ['cyber-attack'],
      growthGoals: [],
      intelligenceTopics: ['market-trends'],
      reportFrequency: '',
      urgency: 'short-term',
      email: 'coo@example.com',
      firstName: '',
      lastName: '',
      company: 'Northwind Freight',
      phone: '',
      communicationMethod: 'email-meeting',
      consultationInterest: true,
    });
    expect(sessionStorage.getItem(DRAFT_STORAGE_KEY)).toBeNull();

    await user.click(button(DONE_LABEL));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('disables Complete Assessment while submitting', async () => {
    const user = userEvent.setup();
    let release: () => void = () => undefined;
    server.use(
      http.post(url, async () => {
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        return HttpResponse.json({ id: 1, message: 'ok' }, { status: 201 });
      }),
    );
    openSurvey();
    await toStep4(user);
    await user.type(screen.getByRole('textbox', { name: 'Email' }), 'coo@example.com');
    await user.click(button(COMPLETE_LABEL));
    await waitFor(() => expect(button(COMPLETE_LABEL)).toBeDisabled());
    expect(screen.getByRole('status')).toHaveTextContent('Submitting your assessment...');
    release();
    expect(await screen.findByRole('heading', { name: COMPLETE_TITLE })).toBeInTheDocument();
  });

  it('shows the failure inline, keeps every answer, and retries with the same Idempotency-Key', async () => {
    const user = userEvent.setup();
    const keys: (string | null)[] = [];
    server.use(
      http.post(url, ({ request }) => {
        keys.push(request.headers.get('Idempotency-Key'));
        return HttpResponse.json({ error: 'Database is down' }, { status: 500 });
      }),
    );
    openSurvey();
    await toStep4(user);
    await user.type(screen.getByRole('textbox', { name: 'Email' }), 'coo@example.com');
    await user.click(button(COMPLETE_LABEL));
    expect(await screen.findByRole('alert')).toHaveTextContent(S.failed);
    expect(button(COMPLETE_LABEL)).toBeEnabled();
    expect(button(COMPLETE_LABEL)).toHaveFocus();
    expect(screen.getByRole('textbox', { name: 'Email' })).toHaveValue('coo@example.com');
    expect(JSON.parse(sessionStorage.getItem(DRAFT_STORAGE_KEY)!).values.email).toBe('coo@example.com');

    const sent = acceptSubmissions();
    await user.click(button(COMPLETE_LABEL));
    expect(await screen.findByRole('heading', { name: COMPLETE_TITLE })).toBeInTheDocument();
    expect(sent[0]!.key).toBe(keys[0]);
  });

  it('counts a missing endpoint (404) as success', async () => {
    const user = userEvent.setup();
    server.use(http.post(url, () => HttpResponse.json({ error: 'Not Found' }, { status: 404 })));
    openSurvey();
    await toStep4(user);
    await user.type(screen.getByRole('textbox', { name: 'Email' }), 'coo@example.com');
    await user.click(button(COMPLETE_LABEL));
    expect(await screen.findByRole('heading', { name: COMPLETE_TITLE })).toBeInTheDocument();
    expect(screen.queryByText(S.failed)).not.toBeInTheDocument();
  });

  it('keeps the draft when closed and reopened, and starts anew with a new key after success', async () => {
    const user = userEvent.setup();
    const first = openSurvey();
    await fillStep1(user);
    await user.click(box(CHALLENGES.labels['cash-flow']));
    first.unmount();

    const second = openSurvey();
    expect(progress()).toHaveAttribute('aria-valuenow', '2');
    expect(box(CHALLENGES.labels['cash-flow'])).toBeChecked();
    await user.click(button('Previous'));
    expect(combo('Company size')).toHaveValue('51-200');
    await user.click(button('Next'));
    await user.click(button('Next'));
    await fillStep3(user);
    await user.type(screen.getByRole('textbox', { name: 'Email' }), 'coo@example.com');
    const sent = acceptSubmissions();
    await user.click(button(COMPLETE_LABEL));
    await screen.findByRole('heading', { name: COMPLETE_TITLE });
    second.unmount();

    openSurvey();
    expect(progress()).toHaveAttribute('aria-valuenow', '1');
    expect(combo('Company size')).toHaveValue('');
    await fillStep1(user);
    await fillStep2(user);
    await fillStep3(user);
    await user.type(screen.getByRole('textbox', { name: 'Email' }), 'next@example.com');
    await user.click(button(COMPLETE_LABEL));
    await screen.findByRole('heading', { name: COMPLETE_TITLE });
    expect(sent).toHaveLength(2);
    expect(sent[1]!.key).not.toBe(sent[0]!.key);
  });

  it('submits each step with Enter, so the keyboard alone completes it', async () => {
    const user = userEvent.setup();
    const sent = acceptSubmissions();
    openSurvey();
    await user.selectOptions(combo('Company size'), '500+');
    await user.selectOptions(combo('Industry'), 'healthcare');
    await user.selectOptions(combo('Your role'), 'cfo');
    await user.click(button('Next'));
    box(CHALLENGES.labels.regulation).focus();
    await user.keyboard(' ');
    expect(box(CHALLENGES.labels.regulation)).toBeChecked();
    await user.keyboard('{Enter}');
    expect(progress()).toHaveAttribute('aria-valuenow', '3');
    box(INTELLIGENCE_TOPICS.labels['regulatory-updates']).focus();
    await user.keyboard(' {Enter}');
    const email = screen.getByRole('textbox', { name: 'Email' });
    await user.type(email, 'cfo@example.com{Enter}');
    expect(await screen.findByRole('heading', { name: COMPLETE_TITLE })).toBeInTheDocument();
    expect(sent).toHaveLength(1);
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

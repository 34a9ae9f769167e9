import {
  CHALLENGES,
  INTELLIGENCE_TOPICS,
  MESSAGES,
  RATE_LIMIT_MESSAGES,
  rateLimitMessage,
  SURVEY_COMPLETED_KEY,
} from '@app/contracts';
import { useApiServer } from '@app/test-utils';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import {
  acceptSubmissions,
  assessmentUrl,
  box,
  button,
  combo,
  emailBox,
  fillStep1,
  fillStep2,
  fillStep3,
  openSurvey,
  openSurveyInHost,
  progress,
  toStep4,
} from '../../../test/survey-helpers';
import { DRAFT_STORAGE_KEY } from '../model/draft-store';
import { COMPLETE_LABEL, SURVEY_TITLE } from './survey-modal';

const server = useApiServer();
const S = MESSAGES.survey;
const storedDraft = () => JSON.parse(sessionStorage.getItem(DRAFT_STORAGE_KEY) ?? 'null');

describe('survey submission', () => {
  it('sends the §3 payload with an Idempotency-Key, then closes, remembering the completion', async () => {
    const user = userEvent.setup();
    const sent = acceptSubmissions(server);
    const heard: (string | null)[] = [];
    const listen = (e: StorageEvent) => e.key === SURVEY_COMPLETED_KEY && heard.push(e.newValue);
    window.addEventListener('storage', listen);
    openSurveyInHost();
    await toStep4(user);
    await user.type(emailBox(), ' coo@example.com ');
    await user.type(screen.getByRole('textbox', { name: 'Company' }), 'Northwind Freight');
    await user.selectOptions(combo('Preferred communication'), 'email-meeting');
    await user.click(box('I am interested in a free consultation with an analyst'));
    await user.click(button(COMPLETE_LABEL));

    // SPEC §4: on success the modal closes.
    expect(await screen.findByText('survey closed')).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: SURVEY_TITLE })).not.toBeInTheDocument();
    window.removeEventListener('storage', listen);
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
    // This browser remembers it (Home's cards), and this tab hears it at once (the shell's thanks).
    const remembered = localStorage.getItem(SURVEY_COMPLETED_KEY);
    expect(Number.isNaN(Date.parse(remembered ?? ''))).toBe(false);
    expect(heard).toEqual([remembered]);
  });

  it('disables Complete Assessment while submitting', async () => {
    const user = userEvent.setup();
    let release: () => void = () => undefined;
    server.use(
      http.post(assessmentUrl, async () => {
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        return HttpResponse.json({ id: 1, message: 'ok' }, { status: 201 });
      }),
    );
    const { onClose } = openSurvey();
    await toStep4(user);
    await user.type(emailBox(), 'coo@example.com');
    await user.click(button(COMPLETE_LABEL));
    await waitFor(() => expect(button(COMPLETE_LABEL)).toBeDisabled());
    expect(screen.getByRole('status')).toHaveTextContent('Submitting your assessment...');
    expect(onClose).not.toHaveBeenCalled();
    release();
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
  });

  it.each([
    ['a server error (500)', () => HttpResponse.json({ error: 'Database is down' }, { status: 500 })],
    ['a rejected request (400)', () => HttpResponse.json({ error: 'Bad request' }, { status: 400 })],
    ['a network error', () => HttpResponse.error()],
  ])(
    'after %s: stays open on step 4 with the error, keeps every answer, retries with the same key',
    async (_, reply) => {
      const user = userEvent.setup();
      const keys: (string | null)[] = [];
      server.use(
        http.post(assessmentUrl, ({ request }) => {
          keys.push(request.headers.get('Idempotency-Key'));
          return reply();
        }),
      );
      openSurveyInHost();
      await toStep4(user);
      await user.type(emailBox(), 'coo@example.com');
      await user.click(button(COMPLETE_LABEL));

      expect(await screen.findByRole('alert')).toHaveTextContent(S.failed);
      expect(screen.getByRole('dialog', { name: SURVEY_TITLE })).toBeInTheDocument();
      expect(progress()).toHaveAttribute('aria-valuenow', '4');
      expect(button(COMPLETE_LABEL)).toBeEnabled();
      expect(button(COMPLETE_LABEL)).toHaveFocus();
      expect(emailBox()).toHaveValue('coo@example.com');
      expect(storedDraft().values).toMatchObject({
        email: 'coo@example.com',
        companySize: '51-200',
        primaryChallenges: ['supply-chain'],
        intelligenceTopics: ['market-trends'],
      });
      expect(localStorage.getItem(SURVEY_COMPLETED_KEY)).toBeNull();
      await user.click(button('Previous'));
      expect(box(INTELLIGENCE_TOPICS.labels['market-trends'])).toBeChecked();
      await user.click(button('Next'));

      const sent = acceptSubmissions(server);
      await user.click(button(COMPLETE_LABEL));
      expect(await screen.findByText('survey closed')).toBeInTheDocument();
      expect(sent[0]!.key).toBe(keys[0]);
    },
  );

  it('over the rate limit (429): shows the server message on the last step and keeps the draft', async () => {
    const user = userEvent.setup();
    const error = rateLimitMessage(RATE_LIMIT_MESSAGES.assessment, 1800);
    server.use(
      http.post(assessmentUrl, () =>
        HttpResponse.json({ error }, { status: 429, headers: { 'Retry-After': '1800' } }),
      ),
    );
    openSurveyInHost();
    await toStep4(user);
    await user.type(emailBox(), 'coo@example.com');
    await user.click(button(COMPLETE_LABEL));

    expect((await screen.findByRole('alert')).textContent).toBe(
      'Too many assessments from your network. Please try again in 30 minutes.',
    );
    expect(progress()).toHaveAttribute('aria-valuenow', '4');
    expect(emailBox()).toHaveValue('coo@example.com');
    expect(storedDraft().values).toMatchObject({ email: 'coo@example.com', companySize: '51-200' });
    expect(localStorage.getItem(SURVEY_COMPLETED_KEY)).toBeNull();
  });

  it('counts a missing endpoint (404) as success (SPEC §7)', async () => {
    const user = userEvent.setup();
    server.use(http.post(assessmentUrl, () => HttpResponse.json({ error: 'Not Found' }, { status: 404 })));
    openSurveyInHost();
    await toStep4(user);
    await user.type(emailBox(), 'coo@example.com');
    await user.click(button(COMPLETE_LABEL));
    expect(await screen.findByText('survey closed')).toBeInTheDocument();
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
    await user.type(emailBox(), 'coo@example.com');
    const sent = acceptSubmissions(server);
    await user.click(button(COMPLETE_LABEL));
    await waitFor(() => expect(second.onClose).toHaveBeenCalledTimes(1));
    second.unmount();

    openSurvey();
    expect(progress()).toHaveAttribute('aria-valuenow', '1');
    expect(combo('Company size')).toHaveValue('');
    await fillStep1(user);
    await fillStep2(user);
    await fillStep3(user);
    await user.type(emailBox(), 'next@example.com');
    await user.click(button(COMPLETE_LABEL));
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1]!.key).not.toBe(sent[0]!.key);
  });

  it('submits each step with Enter, so the keyboard alone completes it', async () => {
    const user = userEvent.setup();
    const sent = acceptSubmissions(server);
    openSurveyInHost();
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
    await user.type(emailBox(), 'cfo@example.com{Enter}');
    expect(await screen.findByText('survey closed')).toBeInTheDocument();
    expect(sent).toHaveLength(1);
  });
});

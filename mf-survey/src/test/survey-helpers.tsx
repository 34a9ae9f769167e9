import { API_PATHS, CHALLENGES, INTELLIGENCE_TOPICS, RISK_CONCERNS } from '@app/contracts';
import { API } from '@app/test-utils';
import { screen } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import type { SetupServerApi } from 'msw/node';
import { useState } from 'react';
import App from '../app';
import { renderWithTheme } from './render';

export const assessmentUrl = `${API}${API_PATHS.marketAssessment}`;
type User = ReturnType<typeof userEvent.setup>;

export interface Sent {
  key: string | null;
  body: Record<string, unknown>;
}

/** Answers like the API (201 by default) and records what was sent. */
export function acceptSubmissions(server: SetupServerApi, status = 201) {
  const sent: Sent[] = [];
  server.use(
    http.post(assessmentUrl, async ({ request }) => {
      sent.push({
        key: request.headers.get('Idempotency-Key'),
        body: (await request.json()) as Sent['body'],
      });
      return HttpResponse.json({ id: sent.length, message: 'ok' }, { status });
    }),
  );
  return sent;
}

/** The survey as the shell renders it, with a spy for onClose (the dialog stays: nothing unmounts it). */
export function openSurvey() {
  const onClose = vi.fn();
  const view = renderWithTheme(<App onClose={onClose} />);
  return { onClose, ...view };
}

/** Like the shell: onClose unmounts the survey. */
function Host() {
  const [open, setOpen] = useState(true);
  return open ? <App onClose={() => setOpen(false)} /> : <p>survey closed</p>;
}
export function openSurveyInHost() {
  return renderWithTheme(<Host />);
}

export const combo = (name: string) => screen.getByRole('combobox', { name });
export const box = (name: string) => screen.getByRole('checkbox', { name });
export const button = (name: string) => screen.getByRole('button', { name });
export const progress = () => screen.getByRole('progressbar', { name: 'Survey progress' });
export const alerts = () => screen.queryAllByRole('alert').map((a) => a.textContent);
export const emailBox = () => screen.getByRole('textbox', { name: 'Email' });

export async function fillStep1(user: User) {
  await user.selectOptions(combo('Company size'), '51-200');
  await user.selectOptions(combo('Industry'), 'logistics');
  await user.selectOptions(combo('Your role'), 'coo');
  await user.click(button('Next'));
}
export async function fillStep2(user: User) {
  await user.click(box(CHALLENGES.labels['supply-chain']));
  await user.click(box(RISK_CONCERNS.labels['cyber-attack']));
  await user.click(button('Next'));
}
export async function fillStep3(user: User) {
  await user.click(box(INTELLIGENCE_TOPICS.labels['market-trends']));
  await user.selectOptions(combo('Urgency'), 'short-term');
  await user.click(button('Next'));
}
export async function toStep4(user: User) {
  await fillStep1(user);
  await fillStep2(user);
  await fillStep3(user);
  expect(progress()).toHaveAttribute('aria-valuenow', '4');
}

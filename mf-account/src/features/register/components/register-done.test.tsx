import { API_PATHS, MESSAGES } from '@app/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { renderScreen } from '../../../test/render';
import { API, server } from '../../../test/server';
import { RegisterPage } from './register-page';
import {
  captureRegistration,
  donePanel,
  type Field,
  fill,
  input,
  LABELS,
  okBody,
  R,
  renderRegister,
  submit,
  T,
  VALID,
} from './register-test-kit';

describe('RegisterPage submit', () => {
  it('sends the payload of SPEC §3 with the email trimmed and lower-cased', async () => {
    const calls = captureRegistration();
    const { user } = renderRegister();
    await fill(user, VALID);
    await user.click(submit());
    await donePanel();
    expect(calls).toEqual([
      {
        username: 'jane_doe-1',
        password: 'Str0ngPass',
        name: { first: 'Jane', last: 'Doe' },
        email: 'jane.doe@example.com',
        address: { street: 'Main Street 1', city: 'Berlin', postal_code: '10115', country: 'Germany' },
      },
    ]);
  });

  it("reads 'Creating Account...' with the fields disabled while busy", async () => {
    // The answer waits until the test has seen the busy state: no timing decides what the test sees.
    let release = () => {};
    const answered = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.use(
      http.post(`${API}${API_PATHS.register}`, async () => {
        await answered;
        return HttpResponse.json(okBody(true), { status: 201 });
      }),
    );
    const { user } = renderRegister();
    await fill(user, VALID);
    await user.click(submit());
    expect(screen.getByRole('button', { name: R.creating })).toBeDisabled();
    for (const name of Object.keys(LABELS) as Field[]) expect(input(name)).toBeDisabled();
    release();
    await donePanel();
    expect(screen.queryByRole('button', { name: /Creat/ })).not.toBeInTheDocument();
  });

  it('with requires_activation: the form gives way to a panel with the message, the activation notice and ways on', async () => {
    // Fake timers that still follow the clock: the requests and user events run as usual, and the test can
    // jump far past the 3 s a redirect would take.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    captureRegistration({ body: okBody(true) });
    const { user } = renderRegister();
    await fill(user, VALID);
    await user.click(submit());
    const panel = await donePanel();
    // The form is gone, not just emptied: nothing invites a second, empty registration.
    expect(screen.queryByRole('form', { name: T.title })).not.toBeInTheDocument();
    for (const name of Object.keys(LABELS) as Field[]) {
      expect(screen.queryByLabelText(new RegExp(`^${LABELS[name]}`))).not.toBeInTheDocument();
    }
    expect(panel).toHaveTextContent(okBody(true).message);
    expect(within(panel).getByRole('heading', { level: 2, name: T.nextTitle })).toBeInTheDocument();
    expect(panel).toHaveTextContent(T.activationRequired);
    expect(panel).toHaveTextContent(T.afterActivation);
    expect(within(panel).getByRole('link', { name: T.browseResearch })).toHaveAttribute(
      'href',
      '/research-center',
    );
    expect(within(panel).getByRole('link', { name: T.contact })).toHaveAttribute('href', '/contact');
    expect(screen.queryByText(R.activationNote)).not.toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(screen.getByTestId('location')).toHaveTextContent('/register');
  });

  it('moves focus to the panel heading, which carries the server message as its description', async () => {
    captureRegistration({ body: okBody(true) });
    const { user } = renderRegister();
    await fill(user, VALID);
    await user.click(submit());
    await donePanel();
    const heading = screen.getByRole('heading', { level: 1, name: T.doneTitle });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(heading).toHaveAccessibleDescription(okBody(true).message);
    expect(screen.queryByRole('heading', { name: T.title })).not.toBeInTheDocument();
  });

  it('names the tab after the screen: Create Account, then Account created', async () => {
    captureRegistration({ body: okBody(true) });
    const { user } = renderRegister();
    expect(document.title).toBe(`${T.title} | ${MESSAGES.app.companyName}`);
    await fill(user, VALID);
    await user.click(submit());
    await donePanel();
    await waitFor(() => expect(document.title).toBe(`${T.doneTitle} | ${MESSAGES.app.companyName}`));
  });

  it('Browse Research leaves for /research-center', async () => {
    captureRegistration({ body: okBody(true) });
    const { user } = renderScreen(<RegisterPage />, { path: '/register', others: ['/research-center'] });
    await fill(user, VALID);
    await user.click(submit());
    await user.click(within(await donePanel()).getByRole('link', { name: T.browseResearch }));
    expect(screen.getByTestId('location')).toHaveTextContent('/research-center');
  });

  it('without activation: the panel says it redirects, offers Log in now, and goes to /login after 3 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    captureRegistration({ body: okBody(false) });
    const { user } = renderRegister();
    await fill(user, VALID);
    await user.click(submit());
    const panel = await donePanel();
    expect(panel).toHaveTextContent(okBody(false).message);
    expect(panel).toHaveTextContent(T.redirecting);
    expect(panel).not.toHaveTextContent(T.activationRequired);
    expect(within(panel).getByRole('link', { name: T.logInNow })).toHaveAttribute('href', '/login');
    expect(within(panel).getByRole('link', { name: T.contact })).toBeInTheDocument();
    expect(screen.getByText(R.activationNote)).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: T.title })).not.toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/register');
    await act(() => vi.advanceTimersByTimeAsync(3000));
    expect(screen.getByTestId('location')).toHaveTextContent('/login');
  });

  it('really waits 3 s before redirecting', async () => {
    captureRegistration({ body: okBody(false) });
    const { user } = renderRegister();
    await fill(user, VALID);
    await user.click(submit());
    await donePanel();
    const shownAt = Date.now();
    // The lower bound is the rule; the upper one only leaves room for a busy machine.
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/login'), {
      timeout: 8000,
    });
    expect(Date.now() - shownAt).toBeGreaterThanOrEqual(2900);
  }, 15_000);
});

import { API_PATHS, MESSAGES } from '@app/contracts';
import { SessionProvider } from '@app/session';
import { ShellActionsProvider } from '@app/shell-actions';
import { API, useApiServer } from '@app/test-utils';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { renderPage } from '../../../test/render';
import { PLAN_TIERS } from './plan-tiers';
import { PlansPage } from './plans-page';

const server = useApiServer();

function renderPlans(openSurvey = vi.fn()) {
  renderPage(
    <SessionProvider>
      <ShellActionsProvider value={{ openSurvey }}>
        <PlansPage />
      </ShellActionsProvider>
    </SessionProvider>,
    '/plans',
  );
  return openSurvey;
}

const plan = (name: string) => screen.getByRole('article', { name });

describe('PlansPage', () => {
  it('shows every tier About describes, with what each one reads, and names itself in the tab', () => {
    renderPlans();
    expect(
      screen.getByRole('heading', { level: 1, name: 'Plans for every stage of your business' }),
    ).toBeInTheDocument();
    expect(PLAN_TIERS.map((p) => p.name)).toEqual(['Guest', 'Basic Member', 'Premium', 'Premium Pro']);
    for (const tier of PLAN_TIERS) {
      const card = plan(tier.name);
      for (const feature of tier.features) expect(within(card).getByText(feature)).toBeInTheDocument();
    }
    expect(
      within(plan('Premium Pro')).getByText('Public, member, Premium and Premium Pro research'),
    ).toBeVisible();
    expect(document.title).toBe(`Plans | ${MESSAGES.app.companyName}`);
  });

  it('leads with the free market assessment (the shell opens the survey) and the contact route', async () => {
    const openSurvey = renderPlans();
    const assessment = screen.getAllByRole('button', { name: 'Start Free Assessment' });
    expect(assessment.length).toBeGreaterThan(0);
    await userEvent.click(assessment[0]!);
    expect(openSurvey).toHaveBeenCalledTimes(1);
    for (const link of screen.getAllByRole('link', { name: 'Contact us' })) {
      expect(link).toHaveAttribute('href', '/contact');
    }
    expect(within(plan('Premium')).getByRole('link', { name: 'Contact us about Premium' })).toHaveAttribute(
      'href',
      '/contact',
    );
  });

  it('marks a guest’s plan and offers Sign Up Free on the free membership', () => {
    renderPlans();
    expect(within(plan('Guest')).getByText('Your plan')).toBeInTheDocument();
    expect(within(plan('Basic Member')).getByRole('link', { name: 'Sign Up Free' })).toHaveAttribute(
      'href',
      '/register',
    );
    expect(screen.getAllByText('Your plan')).toHaveLength(1);
  });

  it('marks a premium member’s plan and offers no sign up', async () => {
    localStorage.setItem('token', 'test-token');
    server.use(
      http.get(`${API}${API_PATHS.profile}`, () =>
        HttpResponse.json({
          id: 7,
          username: 'mia',
          name: { first: 'Mia', last: 'Member' },
          email: 'mia@example.com',
          address: { street: '1 Main Street', city: 'Berlin', postal_code: '10115', country: 'Germany' },
          roles: ['paid-tier-1'],
          is_active: true,
          created_at: '2025-03-04T10:00:00.000Z',
          last_login: null,
        }),
      ),
    );
    renderPlans();
    expect(await within(plan('Premium')).findByText('Your plan')).toBeInTheDocument();
    expect(within(plan('Premium')).queryByRole('link', { name: /Contact us about/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Sign Up Free' })).not.toBeInTheDocument();
  });
});

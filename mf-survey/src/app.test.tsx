import { renderWithProviders, useApiServer } from '@app/test-utils';
import { screen } from '@testing-library/react';
import App from './app';
import { loginAs } from './test/leads-fixtures';

const server = useApiServer();

describe("mf-survey's ./App", () => {
  it('is the survey modal when the shell opens it with onClose', () => {
    renderWithProviders(<App onClose={() => undefined} />);
    expect(screen.getByRole('dialog', { name: 'Market Assessment' })).toBeInTheDocument();
  });

  it("renders the remote's route /admin/leads without props, as the shell's route region loads it", async () => {
    loginAs(server, ['paid-tier-1']);
    renderWithProviders(<App />, { path: '/admin/leads' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Leads' })).toBeInTheDocument();
    expect(await screen.findByText('Administrators only')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});

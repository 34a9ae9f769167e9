import { ADMIN_PATHS } from '@app/contracts/admin-paths';
import type { AdminRollouts } from '@app/contracts/rollouts-admin';
import { MemoryRouter } from '@app/router';
import { SessionProvider } from '@app/session';
import { AppThemeProvider } from '@app/ui';
import { render, screen, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { API, server, signIn, useAdminApi } from '../test/admin-kit';
import RolloutsPage from './rollouts-page';

useAdminApi();

const CANARY = '1.1.0-abc1234def';

/** An environment whose mf-research canary needs an @app/ui export the live shell does not have. */
const VIEW: AdminRollouts = {
  environment: 'production',
  manifest: null,
  health: [],
  charts: [],
  refusals: [],
  audit: [],
  previews: [],
  compatibility: {
    environment: 'production',
    shell: { manifest: 'shell/dist/mf-manifest.json', federationRuntime: '0.21.6' },
    rows: [
      {
        remote: 'mf-research',
        version: CANARY,
        track: 'canary',
        package: '@app/ui',
        required: '5 exports: Button, Card, Field, Badge, DataGrid',
        provided: 'key 3fa9c0d1e2, 21 exports',
        status: 'conflict',
        conflicts: [
          {
            kind: 'missing-export',
            package: '@app/ui',
            export: 'DataGrid',
            needs: `mf-research ${CANARY} (canary in production)`,
            provider: 'the live shell',
            detail: 'the live shell’s @app/ui has no export DataGrid',
          },
        ],
      },
    ],
  },
};

describe('/admin/rollouts', () => {
  it('draws the compatibility table the API sends with the rollouts view', async () => {
    signIn(['admin']);
    server.use(http.get(`${API}${ADMIN_PATHS.rollouts}`, () => HttpResponse.json(VIEW)));
    render(
      <AppThemeProvider>
        <MemoryRouter initialEntries={['/admin/rollouts']}>
          <SessionProvider>
            <RolloutsPage />
          </SessionProvider>
        </MemoryRouter>
      </AppThemeProvider>,
    );
    const section = await screen.findByRole('region', { name: 'Compatibility' });
    const table = within(section).getByRole('table', { name: /^Compatibility in production/ });
    expect(within(table).getByRole('row', { name: /^mf-research/ })).toHaveTextContent('Conflict');
    expect(
      within(section).getByRole('list', { name: `Conflicts of mf-research ${CANARY} with @app/ui` }),
    ).toHaveTextContent(
      'Needed by mf-research 1.1.0-abc1234def (canary in production); provided by the live shell.',
    );
  });
});

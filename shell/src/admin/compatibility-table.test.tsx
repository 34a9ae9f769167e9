import { type Compatibility, CompatibilitySchema, type CompatRow } from '@app/contracts/compatibility';
import { AppThemeProvider } from '@app/ui';
import { render, screen, within } from '@testing-library/react';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { CompatibilityTable, COMPAT_TEXTS as T } from './compatibility-table';

const STABLE = '1.0.0-3fa2b1c9d0';
const CANARY = '1.1.0-abc1234def';

const row = (over: Partial<CompatRow>): CompatRow => ({
  remote: 'mf-research',
  version: STABLE,
  track: 'stable',
  package: '@app/ui',
  required: '4 exports: Button, Card, Field, Badge',
  provided: 'key 3fa9c0d1e2, 21 exports',
  status: 'ok',
  conflicts: [],
  ...over,
});

const COMPATIBILITY: Compatibility = v.parse(CompatibilitySchema, {
  environment: 'production',
  shell: { manifest: 'shell/dist/mf-manifest.json', federationRuntime: '0.21.6' },
  rows: [
    row({}),
    row({ package: 'react', required: 'major 19', provided: '19.3.1' }),
    row({
      version: CANARY,
      track: 'canary',
      required: '5 exports: Button, Card, Field, Badge, DataGrid',
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
    }),
    row({
      remote: 'mf-account',
      version: '2.0.0-0123456789',
      track: 'preview',
      package: 'mf_account/App',
      required: 'unreadable',
      provided: 'the shell passes {}',
      status: 'unknown',
      conflicts: [],
    }),
  ],
});

const renderTable = (compatibility: Compatibility = COMPATIBILITY) =>
  render(
    <AppThemeProvider>
      <CompatibilityTable compatibility={compatibility} />
    </AppThemeProvider>,
  );

describe('the compatibility table', () => {
  it('is a table with a caption and column headers, one row per live version and package', () => {
    renderTable();
    const section = screen.getByRole('region', { name: T.heading });
    const table = within(section).getByRole('table', {
      name: 'Compatibility in production with the live shell shell/dist/mf-manifest.json (federation runtime 0.21.6)',
    });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Remote', 'Version', 'Track', 'Package', 'Requires', 'Shell provides', 'Status']);
    const rows = within(table)
      .getAllByRole('row')
      .filter((r) => r.hasAttribute('data-compat-status'));
    expect(rows.map((r) => [...r.children].map((c) => c.textContent))).toEqual([
      [
        'mf-research',
        STABLE,
        'stable',
        '@app/ui',
        '4 exports: Button, Card, Field, Badge',
        'key 3fa9c0d1e2, 21 exports',
        'ok',
      ],
      ['mf-research', STABLE, 'stable', 'react', 'major 19', '19.3.1', 'ok'],
      [
        'mf-research',
        CANARY,
        'canary',
        '@app/ui',
        '5 exports: Button, Card, Field, Badge, DataGrid',
        'key 3fa9c0d1e2, 21 exports',
        'Conflict',
      ],
      [
        'mf-account',
        '2.0.0-0123456789',
        'preview',
        'mf_account/App',
        'unreadable',
        'the shell passes {}',
        'Unknown',
      ],
    ]);
    // The remote names its row for assistive technology.
    expect(
      within(table)
        .getAllByRole('rowheader')
        .map((h) => h.textContent),
    ).toContain('mf-account');
    expect(section).toHaveTextContent('1 conflict, 1 unknown.');
  });

  it('says under a conflicting row what is missing, who needs it and who should provide it', () => {
    renderTable();
    const list = screen.getByRole('list', { name: `Conflicts of mf-research ${CANARY} with @app/ui` });
    const item = within(list).getByRole('listitem');
    expect(item).toHaveTextContent(
      `missing-export · @app/ui · DataGrid: the live shell’s @app/ui has no export DataGrid` +
        `Needed by mf-research ${CANARY} (canary in production); provided by the live shell.`,
    );
    // It is the row right under the conflicting one.
    const conflictRow = screen
      .getAllByRole('row')
      .find((r) => r.getAttribute('data-compat-status') === 'conflict');
    expect(conflictRow?.nextElementSibling).toContainElement(list);
  });

  it('says when every check is ok, and when nothing is live', () => {
    const { unmount } = renderTable({ ...COMPATIBILITY, rows: COMPATIBILITY.rows.slice(0, 2) });
    expect(screen.getByRole('region', { name: T.heading })).toHaveTextContent('All 2 checks are ok.');
    unmount();
    renderTable({ ...COMPATIBILITY, rows: [] });
    const section = screen.getByRole('region', { name: T.heading });
    expect(section).toHaveTextContent(T.empty);
    expect(within(section).queryByRole('table')).not.toBeInTheDocument();
  });
});

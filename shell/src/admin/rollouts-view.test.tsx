import { type AdminRollouts, AdminRolloutsSchema, type RolloutPoint } from '@app/contracts/rollouts-admin';
import { AppThemeProvider } from '@app/ui';
import { render, screen, within } from '@testing-library/react';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { RolloutsView } from './rollouts-view';

const STABLE = '1.0.0-3fa2b1c9d0';
const CANARY = '1.1.0-abc1234def';
const ACCOUNT = '2.0.0-0123456789';
const at = (minute: number) => new Date(Date.UTC(2026, 4, 12, 12, minute)).toISOString();
const point = (minute: number, visitors: number, figures: Partial<RolloutPoint>): RolloutPoint => ({
  at: at(minute),
  visitors,
  errorRate: null,
  lcp: null,
  inp: null,
  cls: null,
  ...figures,
});

/** mf-research: a canary `rollout watch` rolled back; nobody reported INP; the canary's 12:05 is missing. */
const DATA: AdminRollouts = v.parse(AdminRolloutsSchema, {
  environment: 'local',
  manifest: {
    schemaVersion: 1,
    environment: 'local',
    revision: 7,
    updatedAt: at(30),
    remotes: {
      'mf-research': { stable: STABLE, previous: [] },
      'mf-account': {
        stable: ACCOUNT,
        canary: { version: '2.1.0-9876543210', percent: 25, startedAt: at(0), stepStartedAt: at(10) },
        previous: [],
      },
    },
  },
  health: [
    {
      remote: 'mf-research',
      version: STABLE,
      visitors: 312,
      views: 900,
      errorRate: 0.004,
      lcp: 1230,
      inp: null,
      cls: 0.01,
      lastAt: at(20),
    },
    {
      remote: 'mf-research',
      version: CANARY,
      visitors: 48,
      views: 97,
      errorRate: 0.052,
      lcp: 1810,
      inp: null,
      cls: null,
      lastAt: at(20),
    },
    {
      remote: 'mf-account',
      version: ACCOUNT,
      visitors: 1,
      views: 2,
      errorRate: 0,
      lcp: null,
      inp: null,
      cls: null,
      lastAt: at(5),
    },
  ],
  charts: [
    {
      remote: 'mf-research',
      from: at(0),
      to: at(30),
      bucketMs: 5 * 60_000,
      series: [
        {
          track: 'stable',
          version: STABLE,
          points: [
            point(0, 120, { errorRate: 0.005, lcp: 1200, cls: 0.01 }),
            point(5, 130, { errorRate: 0.003, lcp: 1250, cls: 0.012 }),
            point(10, 110, { errorRate: 0.004, lcp: 1230, cls: 0.009 }),
            point(20, 90, { errorRate: 0.004, lcp: 1220, cls: 0.01 }),
          ],
        },
        {
          track: 'canary',
          version: CANARY,
          points: [
            point(0, 12, { errorRate: 0.011, lcp: 1700 }),
            point(10, 20, { errorRate: 0.021, lcp: 1810 }),
            point(15, 48, { errorRate: 0.052, lcp: 1900 }),
          ],
        },
      ],
    },
    { remote: 'mf-account', from: at(0), to: at(30), bucketMs: 5 * 60_000, series: [] },
  ],
  refusals: [
    { reason: 'forged', count: 3 },
    { reason: 'replayed', count: 1 },
    { reason: 'expired', count: 0 },
  ],
  audit: [
    {
      at: at(25),
      actor: 'ci',
      environment: 'local',
      action: 'release',
      remote: 'mf-research',
      from: null,
      to: '1.2.0-aaaaaaaaaa',
    },
    {
      at: at(22),
      actor: 'watch',
      environment: 'local',
      action: 'watch-advance',
      remote: 'mf-account',
      from: 'stable 2.0.0 · canary 2.1.0 at 10 %',
      to: 'stable 2.0.0 · canary 2.1.0 at 25 %',
      reason: 'all signals within',
    },
    {
      at: at(20),
      actor: 'watch',
      environment: 'local',
      action: 'watch-rollback',
      remote: 'mf-research',
      from: `stable ${STABLE} · canary ${CANARY} at 10 %`,
      to: `stable ${STABLE}`,
      reason: 'errors: canary 5.2 % of 48 visitors, stable 0.4 % of 312 visitors (allowed 2.4 %)',
    },
    {
      at: at(10),
      actor: 'watch',
      environment: 'local',
      action: 'watch-advance',
      remote: 'mf-research',
      from: null,
      to: null,
      reason: 'all signals within',
    },
  ],
  previews: [],
  compatibility: {
    environment: 'local',
    shell: { manifest: 'shell/dist/mf-manifest.json', federationRuntime: '0.21.6' },
    rows: [
      {
        remote: 'mf-research',
        version: STABLE,
        track: 'stable',
        package: '@app/ui',
        required: '4 exports: Button, Card, Field, Badge',
        provided: 'key 3fa9c0d1e2, 21 exports',
        status: 'ok',
        conflicts: [],
      },
    ],
  },
});

const renderView = (data: AdminRollouts = DATA) =>
  render(
    <AppThemeProvider>
      <RolloutsView data={data} />
    </AppThemeProvider>,
  );

describe('the rollouts view', () => {
  it("shows each version's health in the remotes table, or that nothing was reported", () => {
    renderView();
    const table = screen.getByRole('table', { name: /Environment local/ });
    const research = within(table).getByRole('row', { name: /mf-research/ });
    expect(research).toHaveTextContent('312 visitors · errors 0.4 % · LCP 1,230 ms · INP — · CLS 0.010');
    const rows = within(table).getAllByRole('row');
    const canaryRow = rows.find((row) => row.textContent?.includes('2.1.0-9876543210'));
    expect(canaryRow).toHaveTextContent('no reports');
    expect(within(table).getByRole('row', { name: /mf-account/ })).toHaveTextContent(
      '1 visitor · errors 0.0 %',
    );
  });

  it('charts the canary against stable for a remote with reports, and no card for one without', () => {
    renderView();
    const card = screen.getByTestId('rollout-chart-mf-research');
    expect(within(card).getByRole('heading', { name: 'mf-research' })).toBeInTheDocument();
    expect(screen.queryByTestId('rollout-chart-mf-account')).not.toBeInTheDocument();

    const charts = within(card).getAllByRole('img');
    expect(charts).toHaveLength(3);
    for (const chart of charts) {
      expect(chart.querySelector('[data-track="stable"] path')).not.toBeNull();
      expect(chart.querySelector('[data-track="canary"]')).not.toBeNull();
    }
    // The canary reported errors and LCP (its line is drawn), never CLS (its group is empty).
    expect(charts.filter((chart) => chart.querySelector('[data-track="canary"] path'))).toHaveLength(2);
    // Nobody reported INP: the chart says so instead of drawing an empty axis.
    expect(within(card).getByText('no data')).toBeInTheDocument();
    expect(within(card).getByText('INP p75')).toBeInTheDocument();
  });

  it('summarises each chart for assistive technology and gives every point its value and sample', () => {
    renderView();
    const card = screen.getByTestId('rollout-chart-mf-research');
    const errors = within(card).getByRole('img', {
      name: 'Error rate, latest: stable 0.4 % (90 visitors), canary 5.2 % (48 visitors)',
    });
    expect(errors).toHaveAccessibleDescription(/scale 0 to 10\.0 %/);
    const titles = [...errors.querySelectorAll('[data-track="canary"] circle title')].map(
      (t) => t.textContent,
    );
    expect(titles).toHaveLength(3);
    expect(titles[2]).toMatch(new RegExp(`^\\d\\d:\\d\\d · canary ${CANARY} · 5\\.2 % of 48 visitors$`));
    // The canary's missing 12:05 bucket is a break in its line: two runs.
    const path = errors.querySelector('[data-track="canary"] path')?.getAttribute('d') ?? '';
    expect(path.match(/M/g)).toHaveLength(2);
    // CLS: the canary has no value at all, so only stable's line is there to read.
    expect(
      within(card).getByRole('img', { name: /^CLS p75, latest: stable 0\.010 .*canary no data$/ }),
    ).toBeVisible();
  });

  it("gives each track's sample size in the legend", () => {
    renderView();
    const legend = within(screen.getByTestId('rollout-chart-mf-research')).getByRole('list', {
      name: 'Tracks and their samples',
    });
    const items = within(legend).getAllByRole('listitem');
    expect(items[0]).toHaveTextContent(`stable ${STABLE} · 312 visitors`);
    expect(items[1]).toHaveTextContent(`canary ${CANARY} · 48 visitors`);
  });

  it("says why the remote's last decision was taken", () => {
    renderView();
    const card = screen.getByTestId('rollout-chart-mf-research');
    const decision = within(card).getByText('Last decision:').closest('p');
    expect(decision).toHaveTextContent('watch-rollback');
    expect(decision).toHaveTextContent(
      'errors: canary 5.2 % of 48 visitors, stable 0.4 % of 312 visitors (allowed 2.4 %)',
    );
    expect(decision).not.toHaveTextContent('all signals within');
  });

  it('counts refused health reports, and says when nobody tried', () => {
    const { unmount } = renderView();
    const line = screen.getByText('Refused reports (24 h):').closest('p');
    expect(line).toHaveTextContent('forged 3 · replayed 1');
    expect(line).not.toHaveTextContent('expired');
    unmount();
    renderView({ ...DATA, refusals: [] });
    expect(screen.getByText('Refused reports (24 h):').closest('p')).toHaveTextContent('nobody tried');
  });

  it("shows the environment's preview links", () => {
    const { unmount } = renderView();
    const section = screen.getByRole('region', { name: 'Preview links' });
    expect(section).toHaveTextContent('No preview links in this environment in the last week.');
    unmount();
    renderView({
      ...DATA,
      previews: [
        {
          id: 'aaaaaaaaaaaa',
          environment: 'local',
          remote: 'mf-research',
          version: CANARY,
          createdAt: at(1),
          createdBy: 'ci',
          expiresAt: at(40),
          revokedAt: null,
          revokedBy: null,
          status: 'active',
        },
      ],
    });
    const table = screen.getByRole('table', { name: 'Preview links in local' });
    expect(within(table).getByRole('row', { name: /mf-research/ })).toHaveTextContent(CANARY);
  });

  it("shows the environment's compatibility table", () => {
    renderView();
    const section = screen.getByRole('region', { name: 'Compatibility' });
    const table = within(section).getByRole('table', { name: /^Compatibility in local/ });
    expect(within(table).getByRole('row', { name: /mf-research/ })).toHaveTextContent(
      `${STABLE}stable@app/ui`,
    );
    expect(section).toHaveTextContent('All 1 checks are ok.');
  });

  it('keeps the audit log', () => {
    renderView();
    const log = screen.getByRole('heading', { name: 'Audit log' }).closest('article')!;
    expect(within(log).getAllByRole('row')).toHaveLength(DATA.audit.length + 1);
  });
});

describe("the gate's answer", () => {
  const INCONCLUSIVE =
    'inconclusive: not enough visitors in the window (3 of 50 canary visitors this step, 0 of 50 canary renders); errors: canary 0.0 % of 3 visitors, stable 0.4 % of 312 visitors (allowed 2.4 %)';

  it('shows "inconclusive" with its reason under a running canary', () => {
    renderView({
      ...DATA,
      gates: [
        {
          remote: 'mf-account',
          version: '2.1.0-9876543210',
          percent: 25,
          answer: 'inconclusive',
          reason: INCONCLUSIVE,
        },
      ],
    });
    const gate = screen.getByTestId('gate-mf-account');
    expect(gate).toHaveTextContent(`inconclusive ${INCONCLUSIVE}`);
    const table = screen.getByRole('table', { name: /Environment local/ });
    expect(
      within(table)
        .getAllByRole('row')
        .find((row) => row.contains(gate)),
    ).toHaveTextContent(/^gate/);
  });

  it('says when the API is too old to compute it, and shows no gate for a remote without a canary', () => {
    renderView();
    expect(screen.getByText('not computed (an API older than issue 48)')).toBeInTheDocument();
    expect(screen.queryByTestId('gate-mf-research')).not.toBeInTheDocument();
  });
});

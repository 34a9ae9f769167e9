import { errorMessage, isStatus } from '@app/api-client';
import type { DashboardDetail } from '@app/contracts';
import { Link, useParams } from '@app/router';
import { useServerState } from '@app/server-state';
import { Alert, ArrowLeftIcon, Container, Skeleton, usePageTitle, visuallyHiddenStyles } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { balancedGridStyles } from '../../../lib/balanced-grid';
import { muted } from '../../../lib/styles';
import { getDashboard } from '../api/get-dashboard';
import { formatPeriod } from '../lib/format';
import { IndicatorCard } from './indicator-card';
import { CHART_HEIGHT } from './line-chart';

export const DASHBOARD_LOAD_FAILED = 'Error loading dashboard';
export const DASHBOARD_NOT_FOUND = 'Dashboard not found';
/** Three indicators a row at most: narrower cards would squeeze the month labels. */
const CARD_MIN_WIDTH = 300;
const MAX_COLUMNS = 3;
const SKELETONS = 3;

function BackLink() {
  return (
    <Link
      to="/"
      css={(t: Theme) => css`
        display: inline-flex;
        align-items: center;
        gap: ${t.space(1)};
        min-height: 24px;
        color: ${t.color.primary};
        font-weight: 600;
        text-decoration: none;
        &:hover { text-decoration: underline; }
      `}
    >
      <ArrowLeftIcon size={16} /> Back to Home
    </Link>
  );
}

/** The months the series cover, from the first indicator that has data. */
function coverage(dashboard: DashboardDetail): string | null {
  const points = dashboard.indicators.find((i) => i.points.length > 0)?.points;
  const first = points?.[0];
  const last = points?.at(-1);
  return first && last ? `${formatPeriod(first.period)} to ${formatPeriod(last.period)}` : null;
}

function Dashboard({ dashboard }: { dashboard: DashboardDetail }) {
  usePageTitle(dashboard.title);
  const months = coverage(dashboard);
  return (
    <>
      <h1 css={(t: Theme) => css`margin: ${t.space(4)} 0 ${t.space(2)};`}>{dashboard.title}</h1>
      <p css={(t: Theme) => css`${muted(t)}; margin: 0; max-width: 65ch; font-size: 1.1rem;`}>
        {dashboard.description}
      </p>
      {/* Honest about the numbers: they illustrate the product, they are not live market data. */}
      <p
        css={(t: Theme) =>
          css`${muted(t)}; margin: ${t.space(2)} 0 ${t.space(6)}; font-size: ${t.font.small};`
        }
      >
        Demo data{months ? `, monthly from ${months}` : ''}.
      </p>
      {dashboard.indicators.length === 0 ? (
        <p>This dashboard has no indicators yet.</p>
      ) : (
        <div css={balancedGridStyles(dashboard.indicators.length, CARD_MIN_WIDTH, MAX_COLUMNS)}>
          {dashboard.indicators.map((indicator) => (
            <IndicatorCard key={indicator.id} indicator={indicator} />
          ))}
        </div>
      )}
    </>
  );
}

function Loading() {
  usePageTitle('Dashboard');
  return (
    <div aria-busy="true">
      <p role="status" css={visuallyHiddenStyles}>
        Loading dashboard...
      </p>
      <Skeleton width="45%" height="40px" />
      <div css={(t: Theme) => css`height: ${t.space(4)};`} />
      <Skeleton width="70%" height="20px" />
      <div
        css={(t: Theme) =>
          css`${balancedGridStyles(SKELETONS, CARD_MIN_WIDTH, MAX_COLUMNS)(t)}; margin-top: ${t.space(10)};`
        }
      >
        {Array.from({ length: SKELETONS }, (_, i) => (
          <Skeleton key={i} height={`${CHART_HEIGHT + 180}px`} />
        ))}
      </div>
    </div>
  );
}

function Failure({ error }: { error: unknown }) {
  const missing = isStatus(error, 404);
  usePageTitle(missing ? DASHBOARD_NOT_FOUND : DASHBOARD_LOAD_FAILED);
  if (!missing) return <Alert tone="error">{errorMessage(error, DASHBOARD_LOAD_FAILED)}</Alert>;
  return (
    <>
      <h1 css={(t: Theme) => css`margin: ${t.space(4)} 0 ${t.space(2)};`}>{DASHBOARD_NOT_FOUND}</h1>
      <p css={muted}>
        There is no dashboard at this address. It may have been renamed or retired; Home lists the dashboards
        available today.
      </p>
    </>
  );
}

function DashboardView({ slug }: { slug: string }) {
  const state = useServerState((signal) => getDashboard(slug, signal), [slug]);
  return (
    <Container>
      <BackLink />
      {state.status === 'loading' && <Loading />}
      {state.status === 'error' && <Failure error={state.error} />}
      {state.status === 'done' && <Dashboard dashboard={state.data} />}
    </Container>
  );
}

/** /dashboards/{slug}: one dashboard with its indicators charted. Loaded on demand, so Home stays small. */
export default function DashboardPage() {
  const { slug = '' } = useParams();
  // A new slug is a new page: remounting starts it afresh, without the previous dashboard's data.
  return <DashboardView key={slug} slug={slug} />;
}

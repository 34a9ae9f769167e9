import type { Dashboard } from '@app/contracts';
import { Link } from '@app/router';
import { ArrowRightIcon, Card, Skeleton } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { balancedGridStyles } from '../../../lib/balanced-grid';
import { CardOutline, HomeSection } from './home-section';

const CARD_HEIGHT = '168px';
/** Narrow enough for four across in the 1120 px page, wide enough for a two-line description. */
const CARD_MIN_WIDTH = 220;
/** Four skeletons, as many as the seeded dashboards, so the grid does not reflow when they arrive. */
const SKELETONS = 4;
export const NO_DASHBOARDS = 'No dashboards available at the moment';

export const dashboardPath = (slug: string) => `/dashboards/${encodeURIComponent(slug)}`;

function DashboardCard({ dashboard }: { dashboard: Dashboard }) {
  return (
    <Card
      css={(t: Theme) => css`
        position: relative;
        min-height: ${CARD_HEIGHT};
        border-top: 4px solid ${t.color.accent};
        transition: border-color 0.15s;
        &:hover, &:focus-within { border-color: ${t.color.primary}; }
      `}
    >
      <h3 css={css`margin: 0; font-size: 1.1rem;`}>
        {/* The link covers the whole card (::after), so the card is one target with one accessible name. */}
        <Link
          to={dashboardPath(dashboard.slug)}
          css={(t: Theme) => css`
            color: ${t.color.text};
            text-decoration: none;
            &::after { content: ''; position: absolute; inset: 0; border-radius: inherit; }
            &:hover { color: ${t.color.primary}; }
          `}
        >
          {dashboard.title}
        </Link>
      </h3>
      <p css={(t: Theme) => css`margin: 0; color: ${t.color.textMuted}; flex: 1;`}>{dashboard.description}</p>
      <span
        aria-hidden="true"
        css={(t: Theme) => css`
          display: inline-flex;
          align-items: center;
          gap: ${t.space(1)};
          color: ${t.color.primary};
          font-weight: 600;
          font-size: ${t.font.small};
        `}
      >
        View dashboard <ArrowRightIcon size={16} />
      </span>
    </Card>
  );
}

/** SPEC §2: the available dashboards, title and description; each opens its page with the indicators charted. */
export function DashboardsSection({
  dashboards,
  loading,
}: {
  dashboards: readonly Dashboard[];
  loading: boolean;
}) {
  return (
    <HomeSection
      id="dashboards"
      title="Available Dashboards"
      intro="Live views of the indicators that matter to small and mid-sized businesses, updated by our research team."
      busy={loading}
    >
      {loading ? (
        <div css={balancedGridStyles(SKELETONS, CARD_MIN_WIDTH)}>
          {Array.from({ length: SKELETONS }, (_, i) => (
            <CardOutline key={i} height={CARD_HEIGHT}>
              <Skeleton width="60%" height="22px" />
              <Skeleton height="16px" />
              <Skeleton width="80%" height="16px" />
            </CardOutline>
          ))}
        </div>
      ) : dashboards.length === 0 ? (
        <p css={(t: Theme) => css`margin: 0; color: ${t.color.textMuted};`}>{NO_DASHBOARDS}</p>
      ) : (
        <ul
          css={(t: Theme) => css`
            ${balancedGridStyles(dashboards.length, CARD_MIN_WIDTH)(t)};
            list-style: none;
            margin: 0;
            padding: 0;
          `}
        >
          {dashboards.map((d) => (
            <li key={d.slug} css={css`display: grid;`}>
              <DashboardCard dashboard={d} />
            </li>
          ))}
        </ul>
      )}
    </HomeSection>
  );
}

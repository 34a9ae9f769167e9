import type { Dashboard } from '@app/contracts';
import { Card, gridStyles, Skeleton } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { SectionHeading, sectionCss } from './section-heading';

const CARD_HEIGHT = '132px';
export const NO_DASHBOARDS = 'No dashboards available at the moment';

/** SPEC §2: the available dashboards, title and description. */
export function DashboardsSection({
  dashboards,
  loading,
}: {
  dashboards: readonly Dashboard[];
  loading: boolean;
}) {
  return (
    <section aria-labelledby="home-dashboards-title" aria-busy={loading} css={sectionCss}>
      <SectionHeading
        id="home-dashboards-title"
        title="Available Dashboards"
        intro="Live views of the indicators that matter to small and mid-sized businesses, updated by our research team."
      />
      {loading ? (
        <div css={gridStyles('260px')}>
          {[0, 1, 2].map((i) => (
            <div
              key={i}
              css={(t: Theme) => css`
                height: ${CARD_HEIGHT};
                padding: ${t.space(5)};
                border: 1px solid ${t.color.border};
                border-radius: ${t.radius.md};
                display: grid;
                align-content: start;
                gap: ${t.space(3)};
              `}
            >
              <Skeleton width="60%" height="22px" />
              <Skeleton height="16px" />
              <Skeleton width="80%" height="16px" />
            </div>
          ))}
        </div>
      ) : dashboards.length === 0 ? (
        <p css={(t: Theme) => css`margin: 0; color: ${t.color.textMuted};`}>{NO_DASHBOARDS}</p>
      ) : (
        <ul css={(t: Theme) => css`${gridStyles('260px')(t)}; list-style: none; margin: 0; padding: 0;`}>
          {dashboards.map((d) => (
            <li key={d.slug} css={css`display: grid;`}>
              <Card
                css={(t: Theme) => css`min-height: ${CARD_HEIGHT}; border-top: 4px solid ${t.color.accent};`}
              >
                <h3 css={css`margin: 0; font-size: 1.1rem;`}>{d.title}</h3>
                <p css={(t: Theme) => css`margin: 0; color: ${t.color.textMuted};`}>{d.description}</p>
              </Card>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

import {
  ACCESS_LEVEL_TEXT,
  CONTENT_TYPES,
  type ContentType,
  formatCount,
  formatDate,
  MESSAGES,
} from '@app/contracts';
import { useServerState } from '@app/server-state';
import { useSession } from '@app/session';
import { Card, LoadErrorAlert, Skeleton } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { fetchStats } from '../api/research-api';

/** The four content types Analytics counts (docs/decisions/0006-analytics-categories.md). */
export const ANALYTICS_CATEGORIES: readonly ContentType[] = [
  'research_report',
  'threat_intel',
  'market_analysis',
  'osint',
];

const statCss = (t: Theme) => css`
  gap: ${t.space(1)};
  dt { color: ${t.color.textMuted}; font-size: ${t.font.small}; font-weight: 600; }
  dd { margin: 0; font-size: ${t.font.h2}; font-weight: 700; }
`;

/** Four cards in one row on wide screens, two by two on narrow ones: never a row with a hole. */
const statGridCss = (t: Theme) => css`
  display: grid;
  grid-template-columns: repeat(2, minmax(0, 1fr));
  gap: ${t.space(4)};
  @media (min-width: 720px) {
    grid-template-columns: repeat(4, minmax(0, 1fr));
    gap: ${t.space(5)};
  }
`;

function Stat({ label, value }: { label: string; value: number | null }) {
  return (
    <Card>
      <dl css={statCss}>
        <dt>{label}</dt>
        <dd>{value === null ? <Skeleton width="3ch" height="2rem" /> : formatCount(value)}</dd>
      </dl>
    </Card>
  );
}

/** Analytics: the caller's own totals (GET /api/stats), four categories and account info (SPEC §2). */
export function AnalyticsTab() {
  const session = useSession();
  const stats = useServerState((signal) => fetchStats(signal), [session.token]);
  const data = stats.data;
  const profile = session.profile;

  return (
    <div css={(t: Theme) => css`display: flex; flex-direction: column; gap: ${t.space(6)};`}>
      <LoadErrorAlert error={stats.error} fallback={MESSAGES.research.loadFailed} onRetry={stats.reload} />
      <section aria-labelledby="analytics-overview">
        <h2 id="analytics-overview">Overview</h2>
        <div css={statGridCss}>
          <Stat label="Total Reports" value={data?.total ?? null} />
          <Stat label="Published" value={data?.published ?? null} />
          <Stat label="Drafts" value={data?.drafts ?? null} />
          <Stat label="Total Views" value={data?.views ?? null} />
        </div>
      </section>
      <section aria-labelledby="analytics-categories">
        <h2 id="analytics-categories">By Category</h2>
        <div css={statGridCss}>
          {ANALYTICS_CATEGORIES.map((type) => (
            <Stat
              key={type}
              label={CONTENT_TYPES.labels[type]}
              value={data ? (data.by_content_type[type] ?? 0) : null}
            />
          ))}
        </div>
      </section>
      <section aria-labelledby="analytics-account">
        <h2 id="analytics-account">Account</h2>
        <Card>
          <dl
            css={(t: Theme) => css`
              display: grid;
              grid-template-columns: max-content 1fr;
              gap: ${t.space(2)} ${t.space(6)};
              margin: 0;
              dt { font-weight: 600; color: ${t.color.textMuted}; }
              dd { margin: 0; overflow-wrap: anywhere; }
            `}
          >
            <dt>Tier</dt>
            <dd>{session.tierLabel}</dd>
            <dt>Access level</dt>
            <dd>{ACCESS_LEVEL_TEXT[session.tier]}</dd>
            <dt>Member since</dt>
            <dd>{profile ? formatDate(profile.created_at) : '—'}</dd>
            <dt>Email</dt>
            <dd>{profile?.email ?? '—'}</dd>
          </dl>
        </Card>
      </section>
    </div>
  );
}

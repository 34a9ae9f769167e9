import { MESSAGES } from '@app/contracts';
import { Link, useSearchParams } from '@app/router';
import { useSession } from '@app/session';
import {
  Alert,
  Badge,
  buttonStyles,
  Container,
  inlineLinkStyles,
  SessionExpiredNotice,
  type TabItem,
  Tabs,
  usePageTitle,
} from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { fetchMyPosts } from '../api/research-api';
import { usePagedList } from '../hooks/use-paged-list';
import { AnalyticsTab } from './analytics-tab';
import { ExploreTab } from './explore-tab';
import { MyResearchTab } from './my-research-tab';

type TabId = 'explore' | 'my' | 'analytics';
const TAB_IDS: readonly TabId[] = ['explore', 'my', 'analytics'];
const TAB_TITLES: Record<TabId, string> = {
  explore: 'Research Center',
  my: 'My Research',
  analytics: 'Research Analytics',
};

/**
 * The Research Center (SPEC §2, /research-center and /research). The tab lives in ?tab= so it can be linked,
 * and each switch is a history entry, so Back returns to the previous tab.
 */
export function ResearchCenterPage() {
  const session = useSession();
  const [params, setParams] = useSearchParams();
  const asked = params.get('tab');
  const requested: TabId = TAB_IDS.includes(asked as TabId) ? (asked as TabId) : 'explore';
  const tab: TabId = session.isLoggedIn ? requested : 'explore';
  // Kept across the switch to the guest view that a 401 causes (the token is already cleared by then).
  const expired = session.sessionExpired;
  usePageTitle(TAB_TITLES[tab]);

  const mine = usePagedList(
    (cursor, signal) => fetchMyPosts(cursor, signal),
    [session.token],
    session.isLoggedIn,
  );

  const select = (id: string) => {
    if (id !== tab) setParams(id === 'explore' ? {} : { tab: id });
  };
  // The badge counts what is loaded; '100+' while more pages exist (the API sends no total).
  const loaded = session.isLoggedIn ? mine.items?.length : undefined;
  const count = loaded === undefined ? undefined : `${loaded}${mine.hasMore ? '+' : ''}`;
  const items: TabItem[] = session.isLoggedIn
    ? [
        { id: 'explore', label: 'Explore Research' },
        {
          id: 'my',
          label: (
            <>
              My Research
              <Badge
                tone="info"
                aria-label={
                  count === undefined ? 'loading count' : `${count} ${count === '1' ? 'report' : 'reports'}`
                }
              >
                {count ?? '…'}
              </Badge>
            </>
          ),
        },
        { id: 'analytics', label: 'Analytics' },
      ]
    : [{ id: 'explore', label: 'Explore Research' }];

  return (
    <Container>
      <header
        css={(t: Theme) => css`
          display: flex;
          flex-wrap: wrap;
          gap: ${t.space(3)};
          align-items: center;
          justify-content: space-between;
          margin-bottom: ${t.space(4)};
          h1 { margin: 0; }
        `}
      >
        <div
          css={(t: Theme) => css`display: flex; flex-wrap: wrap; gap: ${t.space(3)}; align-items: center;`}
        >
          <h1>Research Center</h1>
          <Badge
            tone={session.isLoggedIn ? 'success' : 'neutral'}
            aria-label={`Your tier: ${session.tierLabel}`}
          >
            {session.tierLabel}
          </Badge>
        </div>
        {session.isLoggedIn && (
          <Link to="/create-post" css={buttonStyles('primary')}>
            New Research
          </Link>
        )}
      </header>
      <p css={(t: Theme) => css`margin: 0 0 ${t.space(4)}; color: ${t.color.textMuted};`}>
        Risk and opportunity intelligence from analysts and members.
      </p>
      {expired && <SessionExpiredNotice />}
      {!session.isLoggedIn && requested !== 'explore' && !expired && (
        <Alert tone="info">
          <span>{MESSAGES.research.loginToView}</span>{' '}
          <Link to="/login" css={inlineLinkStyles}>
            Log In
          </Link>
        </Alert>
      )}
      <Tabs items={items} selected={tab} onSelect={select} label="Research sections">
        {tab === 'explore' && <ExploreTab />}
        {tab === 'my' && <MyResearchTab list={mine} />}
        {tab === 'analytics' && <AnalyticsTab />}
      </Tabs>
    </Container>
  );
}

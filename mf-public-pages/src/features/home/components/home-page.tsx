import { useServerState } from '@app/server-state';
import { Alert, Container, usePageTitle } from '@app/ui';
import { loadHome, peekHome } from '../api/load-home';
import { DashboardsSection } from './dashboards-section';
import { Hero } from './hero';
import { InsightsSection } from './insights-section';
import { PremiumAssessments } from './premium-assessments';
import { ResearchPromo } from './research-promo';
import { ValueCards } from './value-cards';

/**
 * SPEC §2 Home. Only the articles and dashboards come from the API; everything else is always there. A
 * guest's first visit starts from the answers the edge rendered the page from (peekHome).
 */
export function HomePage() {
  usePageTitle('Home');
  const state = useServerState(loadHome, [], true, peekHome);
  const loading = state.status === 'loading';
  const data = state.status === 'done' ? state.data : null;
  return (
    <Container>
      <Hero />
      {data?.error && <Alert tone="error">{data.error}</Alert>}
      <ValueCards />
      <InsightsSection posts={data?.posts ?? []} loading={loading} />
      <PremiumAssessments />
      <DashboardsSection dashboards={data?.dashboards ?? []} loading={loading} />
      <ResearchPromo />
    </Container>
  );
}

import { MESSAGES } from '@app/contracts';
import type { RemoteAppProps } from '@app/federation';
import { Route, Routes } from '@app/router';
import { registerReactCopy } from '@app/session';
import { Container } from '@app/ui';
import * as React from 'react';
import { lazy, Suspense } from 'react';
import { AboutPage } from './features/about/components/about-page';
import { ContactPage } from './features/contact/components/contact-page';
import { HomePage } from './features/home/components/home-page';
import { ImpressumPage } from './features/impressum/components/impressum-page';
import { PlansPage } from './features/plans/components/plans-page';

// Charts are only for this page: its code loads when a visitor opens a dashboard, never with Home.
const DashboardPage = lazy(() => import('./features/dashboards/components/dashboard-page'));

registerReactCopy(React);

/** While the dashboard's code arrives: the page's frame, so the footer does not jump up and back. */
function DashboardFallback() {
  return (
    <Container>
      <p role="status">{MESSAGES.app.loading}</p>
    </Container>
  );
}

/** The remote's one exposed module: it renders its own routes (absolute paths, see the shell's route table). */
export default function App(_props: RemoteAppProps) {
  return (
    <Routes>
      <Route path="/" element={<HomePage />} />
      <Route path="/about" element={<AboutPage />} />
      <Route path="/contact" element={<ContactPage />} />
      <Route path="/impressum" element={<ImpressumPage />} />
      <Route path="/plans" element={<PlansPage />} />
      <Route
        path="/dashboards/:slug"
        element={
          <Suspense fallback={<DashboardFallback />}>
            <DashboardPage />
          </Suspense>
        }
      />
    </Routes>
  );
}

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
import { PlansPage } from './features/plans/components/plans-page';

// Loaded when visited, never with Home (the size budget counts the pages bundled eagerly): the dashboard
// page with its charts, and the legal page, which few visitors open and which shows Loading... anyway.
const DashboardPage = lazy(() => import('./features/dashboards/components/dashboard-page'));
const ImpressumPage = lazy(() =>
  import('./features/impressum/components/impressum-page').then((m) => ({ default: m.ImpressumPage })),
);

registerReactCopy(React);

/** While a lazy page's code arrives: the page's frame, so the footer does not jump up and back. */
function PageFallback() {
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
      <Route
        path="/impressum"
        element={
          <Suspense fallback={<PageFallback />}>
            <ImpressumPage />
          </Suspense>
        }
      />
      <Route path="/plans" element={<PlansPage />} />
      <Route
        path="/dashboards/:slug"
        element={
          <Suspense fallback={<PageFallback />}>
            <DashboardPage />
          </Suspense>
        }
      />
    </Routes>
  );
}

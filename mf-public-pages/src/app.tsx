import { MESSAGES } from '@app/contracts';
import type { RemoteAppProps } from '@app/federation';
import { Route, Routes } from '@app/router';
import { Container } from '@app/ui';
import { lazy, Suspense } from 'react';
import { AboutPage } from './features/about/components/about-page';
import { ContactPage } from './features/contact/components/contact-page';
import { HomePage } from './features/home/components/home-page';

// Loaded when visited, never with Home (the size budget counts the pages bundled eagerly): the dashboard
// page with its charts, the legal page, which few visitors open and which shows Loading... anyway, and the
// Plans page, reached from Upgrade on a locked post.
const DashboardPage = lazy(() => import('./features/dashboards/components/dashboard-page'));
const ImpressumPage = lazy(() =>
  import('./features/impressum/components/impressum-page').then((m) => ({ default: m.ImpressumPage })),
);

// Issue 34: administrators only, so no visitor's page carries its code.
const AdminCompanyPage = lazy(() => import('./features/admin-company/components/admin-company-page'));

const PlansPage = lazy(() =>
  import('./features/plans/components/plans-page').then((m) => ({ default: m.PlansPage })),
);

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
      <Route
        path="/plans"
        element={
          <Suspense fallback={<PageFallback />}>
            <PlansPage />
          </Suspense>
        }
      />
      <Route
        path="/admin/company"
        element={
          <Suspense fallback={<PageFallback />}>
            <AdminCompanyPage />
          </Suspense>
        }
      />
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

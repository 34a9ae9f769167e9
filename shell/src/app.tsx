import { BrowserRouter, Navigate, Route, Routes, useLocation } from '@app/router';
import { LOGIN_PATH, RequireLogin, RoutedSessionProvider, useSession } from '@app/session';
import { ShellActionsProvider } from '@app/shell-actions';
import { AppThemeProvider } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { lazy, type ReactNode, Suspense, useEffect, useMemo, useState } from 'react';
import { AdminFactorGate } from './admin/admin-factor-gate';
import { OUTBOX_PATH } from './admin/outbox-path';
import { ROLLOUTS_PATH } from './admin/rollouts-path';
import { StepUpHost } from './admin/step-up-host';
import type { RuntimeConfig } from './config/runtime-config';
import { AppErrorBoundary } from './errors/app-error-boundary';
import { CrashTestRoute, NotFound } from './errors/not-found';
import { forgetPrerenderedRegion, prerenderedFallback } from './federation/prerendered-region';
import { RegionSkeleton, RemoteRegion } from './federation/remote-region';
import { Footer } from './frame/footer';
import { Nav } from './frame/nav';
import { isPerformanceMonitorOn, PerformanceMonitor } from './perf/performance-monitor';
import { RolloutIdentitySync } from './rollout/identity-sync';
import { overrideState } from './rollout/override-status';
import type { PreviewState } from './rollout/preview';
import { PreviewBanner } from './rollout/preview-banner';
import { findRoute, REDIRECTS } from './routes/route-table';
import { SESSION_EXPIRY_POLICY } from './routes/session-expiry';
import { SurveyHost } from './survey/survey-host';

export const CRASH_TEST_PATH = '/__crash-test';

// The shell's own admin pages, split out: visitors never download them.
const SHELL_PAGES: Record<string, ReturnType<typeof lazy>> = {
  [ROLLOUTS_PATH]: lazy(() => import('./admin/rollouts-page')),
  [OUTBOX_PATH]: lazy(() => import('./admin/outbox-page')),
};

// Only pages under a dev override (or a refused override link) download the banner (issue 47).
const OverrideBanner = lazy(() => import('./rollout/override-banner'));

function DevOverrideBanner() {
  const state = overrideState();
  if (state.status === 'none') return null;
  return (
    <Suspense fallback={null}>
      <OverrideBanner state={state} />
    </Suspense>
  );
}

/** Picks the region for the current path from the route table; the remote renders the page itself. */
function RouteRegion({ crashTestRoute }: { crashTestRoute: boolean }) {
  const { pathname } = useLocation();
  const { isLoggedIn } = useSession();
  if (crashTestRoute && pathname === CRASH_TEST_PATH) return <CrashTestRoute />;
  const redirect = REDIRECTS[pathname];
  if (redirect) return <Navigate to={redirect} replace />;
  // Issue 46: an administrator without a second factor is sent to set one up before any admin screen.
  const adminGate = (page: ReactNode) =>
    pathname.startsWith('/admin/') ? <AdminFactorGate>{page}</AdminFactorGate> : page;
  const ShellPage = SHELL_PAGES[pathname];
  if (ShellPage) {
    if (!isLoggedIn) return <Navigate to={LOGIN_PATH} replace />;
    return adminGate(
      <Suspense fallback={<RegionSkeleton />}>
        <ShellPage />
      </Suspense>,
    );
  }
  const entry = findRoute(pathname);
  if (!entry) return <NotFound />;
  // Keyed by remote: moving between two pages of one remote keeps it mounted (the guard is always there).
  // On a first visit the server's pre-rendered screen (if any) stays up until the remote has rendered it live.
  return (
    <RequireLogin when={entry.requiresToken === true}>
      {adminGate(
        <RemoteRegion
          key={entry.remote}
          name={entry.remote}
          props={{}}
          fallback={prerenderedFallback(entry.remote, pathname)}
          onRendered={forgetPrerenderedRegion}
        />,
      )}
    </RequireLogin>
  );
}

/** A new page starts at the top: keyed by the path, so each navigation mounts it afresh. */
function ScrollToTop() {
  const { pathname } = useLocation();
  return <ScrollReset key={pathname} />;
}

function ScrollReset() {
  // A block body: Chromium's scrollTo now returns a promise, which React would take for a cleanup function.
  useEffect(() => {
    window.scrollTo(0, 0);
  }, []);
  return null;
}

/** The page around every region: header, main, footer. Exported for the pre-rendered frame (prerender.tsx). */
export function Frame({ children }: { children: ReactNode }) {
  // While the mobile menu is open the page behind it is inert: not focusable, not read by screen readers.
  const [menuOpen, setMenuOpen] = useState(false);
  return (
    <div css={css`min-height: 100vh; display: flex; flex-direction: column;`}>
      <a
        href="#main"
        css={(t: Theme) => css`
          position: absolute;
          left: -9999px;
          &:focus { left: 8px; top: 8px; z-index: 100; background: ${t.color.surface}; padding: 8px 12px; }
        `}
      >
        Skip to content
      </a>
      <Nav onMenuOpenChange={setMenuOpen} />
      {/* At least a screen tall, so the footer starts below the fold and never jumps when a remote arrives
          (a region's content is rarely the skeleton's height). */}
      <main id="main" tabIndex={-1} inert={menuOpen} css={css`flex: 1; min-height: 100vh; outline: none;`}>
        {children}
      </main>
      <Footer inert={menuOpen} />
    </div>
  );
}

export function App({ config, preview }: { config: RuntimeConfig; preview: PreviewState }) {
  const [surveyOpen, setSurveyOpen] = useState(false);
  const actions = useMemo(() => ({ openSurvey: () => setSurveyOpen(true) }), []);
  const app = (
    <BrowserRouter>
      <RoutedSessionProvider policy={SESSION_EXPIRY_POLICY}>
        <ShellActionsProvider value={actions}>
          <ScrollToTop />
          <RolloutIdentitySync />
          <PreviewBanner state={preview} />
          <DevOverrideBanner />
          <Frame>
            <Routes>
              <Route path="*" element={<RouteRegion crashTestRoute={config.features.crashTestRoute} />} />
            </Routes>
          </Frame>
          <SurveyHost open={surveyOpen} onClose={() => setSurveyOpen(false)} />
          <StepUpHost />
        </ShellActionsProvider>
      </RoutedSessionProvider>
    </BrowserRouter>
  );
  return (
    <AppThemeProvider>
      <AppErrorBoundary>
        {isPerformanceMonitorOn(config.features.performanceMonitor) ? (
          <PerformanceMonitor>{app}</PerformanceMonitor>
        ) : (
          app
        )}
      </AppErrorBoundary>
    </AppThemeProvider>
  );
}

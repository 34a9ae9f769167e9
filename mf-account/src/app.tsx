import { MESSAGES } from '@app/contracts';
import type { RemoteAppProps } from '@app/federation';
import { Route, Routes } from '@app/router';
import { Container } from '@app/ui';
import { lazy, Suspense } from 'react';
import { LoginPage } from './features/login/components/login-page';
import { ProfilePage } from './features/profile/components/profile-page';
import { RegisterPage } from './features/register/components/register-page';

// Loaded when visited (issue 34), never with Login: few visitors open them, and the size budget counts the
// screens bundled eagerly (both eagerly: 1.1 KiB gzip over mf-account's budget).
const ForgotPasswordPage = lazy(() =>
  import('./features/password-reset/components/forgot-password-page').then((m) => ({
    default: m.ForgotPasswordPage,
  })),
);
const ConfirmEmailPage = lazy(() =>
  import('./features/email-change/components/email-link-page').then((m) => ({ default: m.ConfirmEmailPage })),
);
const UndoEmailChangePage = lazy(() =>
  import('./features/email-change/components/email-link-page').then((m) => ({
    default: m.UndoEmailChangePage,
  })),
);
const ResetPasswordPage = lazy(() =>
  import('./features/password-reset/components/reset-password-page').then((m) => ({
    default: m.ResetPasswordPage,
  })),
);

// Issue 34: only administrators open it; its table, dialogs and contracts stay out of every visitor's JS.
const MembersPage = lazy(() =>
  import('./features/admin-members/components/members-page').then((m) => ({ default: m.MembersPage })),
);

/** While a lazy screen's code arrives. */
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
      <Route path="/login" element={<LoginPage />} />
      <Route path="/register" element={<RegisterPage />} />
      <Route
        path="/forgot-password"
        element={
          <Suspense fallback={<PageFallback />}>
            <ForgotPasswordPage />
          </Suspense>
        }
      />
      <Route
        path="/reset-password"
        element={
          <Suspense fallback={<PageFallback />}>
            <ResetPasswordPage />
          </Suspense>
        }
      />
      <Route
        path="/confirm-email"
        element={
          <Suspense fallback={<PageFallback />}>
            <ConfirmEmailPage />
          </Suspense>
        }
      />
      <Route
        path="/undo-email-change"
        element={
          <Suspense fallback={<PageFallback />}>
            <UndoEmailChangePage />
          </Suspense>
        }
      />
      <Route path="/profile" element={<ProfilePage />} />
      <Route
        path="/admin/members"
        element={
          <Suspense fallback={<PageFallback />}>
            <MembersPage />
          </Suspense>
        }
      />
    </Routes>
  );
}

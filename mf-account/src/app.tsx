import type { RemoteAppProps } from '@app/federation';
import { Route, Routes } from '@app/router';
import { LoginPage } from './features/login/components/login-page';
import { ForgotPasswordPage } from './features/password-reset/components/forgot-password-page';
import { ResetPasswordPage } from './features/password-reset/components/reset-password-page';
import { ProfilePage } from './features/profile/components/profile-page';
import { RegisterPage } from './features/register/components/register-page';

/** The remote's one exposed module: it renders its own routes (absolute paths, see the shell's route table). */
export default function App(_props: RemoteAppProps) {
  return (
    <Routes>
      <Route path="/login" element={<LoginPage />} />
      <Route path="/register" element={<RegisterPage />} />
      <Route path="/forgot-password" element={<ForgotPasswordPage />} />
      <Route path="/reset-password" element={<ResetPasswordPage />} />
      <Route path="/profile" element={<ProfilePage />} />
    </Routes>
  );
}

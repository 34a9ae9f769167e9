export {
  LOGIN_PATH,
  RequireLogin,
  RoutedSessionProvider,
  type SessionExpiryPolicy,
} from './expiry-redirect';
export {
  LOGIN_NOTICE_TEXT,
  LOGIN_NOTICES,
  type LoginNotice,
  type LoginRedirect,
  loginRedirect,
  readLoginNotice,
} from './login-redirect';
export { type ProfileStatus, type Session, SessionProvider, useSession } from './session-context';

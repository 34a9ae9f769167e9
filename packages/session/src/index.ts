export {
  LOGIN_ON_EXPIRY,
  LOGIN_PATH,
  RequireLogin,
  RoutedSessionProvider,
  type SessionExpiryPolicy,
  STAY_ON_EXPIRY,
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

export { type ProfileStatus, type Session, SessionProvider, useSession } from './session-context';

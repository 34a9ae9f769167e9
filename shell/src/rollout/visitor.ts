import { cohortOf, visitorIdentifier } from '@app/rollout';

/**
 * The visitor a cohort is drawn for: the user id when logged in (so a member gets the same versions on every
 * device), otherwise a random id kept in this browser. The user id is remembered here once the profile has
 * been seen, so the next page load can decide before any request.
 */
export const VISITOR_ID_KEY = 'rollout-visitor-id';
export const USER_ID_KEY = 'rollout-user-id';

type Store = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

function safeStorage(): Store | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

function randomId(): string {
  if (typeof crypto !== 'undefined' && 'randomUUID' in crypto) return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

export function anonymousId(storage: Store | null = safeStorage()): string {
  const stored = storage?.getItem(VISITOR_ID_KEY);
  if (stored && /^[\w-]{8,64}$/.test(stored)) return stored;
  const id = randomId();
  storage?.setItem(VISITOR_ID_KEY, id);
  return id;
}

export function rememberedUserId(storage: Store | null = safeStorage()): string | null {
  const stored = storage?.getItem(USER_ID_KEY);
  return stored && /^\d{1,12}$/.test(stored) ? stored : null;
}

export function rememberUserId(userId: number | null, storage: Store | null = safeStorage()): void {
  if (userId === null) storage?.removeItem(USER_ID_KEY);
  else storage?.setItem(USER_ID_KEY, String(userId));
}

/** 0-99; without storage every load is a new anonymous visitor, which still splits fairly. */
export function visitorCohort(userId: string | null, storage: Store | null = safeStorage()): number {
  return cohortOf(visitorIdentifier(userId, anonymousId(storage)));
}

import { api } from '@app/api-client';
import {
  API_PATHS,
  type ChangePassword,
  type Preferences,
  PreferencesSchema,
  type Profile,
  ProfileSchema,
  type ProfileUpdate,
  type SessionInfo,
  SessionListSchema,
} from '@app/contracts';

// A 401 to any of these ends the session; the shell then sends the visitor to /login saying so (@app/session).
export const fetchProfile = (signal?: AbortSignal): Promise<Profile> =>
  api.get(API_PATHS.profile, ProfileSchema, { signal });

export const fetchPreferences = (signal?: AbortSignal): Promise<Preferences> =>
  api.get(API_PATHS.preferences, PreferencesSchema, { signal });

export const updateProfile = (update: ProfileUpdate): Promise<Profile> =>
  api.put(API_PATHS.profile, update, ProfileSchema);

/** SPEC §3: the whole preferences object is sent back. The API answers with what it stored. */
export const savePreferences = (preferences: Preferences): Promise<Preferences> =>
  api.put(API_PATHS.preferences, preferences, PreferencesSchema);

/** PUT, the first reading of SPEC §7 (the API accepts PUT and POST). */
export const changePassword = (body: ChangePassword): Promise<unknown> =>
  api.put(API_PATHS.changePassword, body, null);

/** DELETE, the first reading of SPEC §7 (the API accepts DELETE and POST). */
export const deleteAccount = (): Promise<unknown> => api.delete(API_PATHS.deleteAccount, null);

/** Issue 46: where the member is signed in, this session first. */
export const fetchSessions = (signal?: AbortSignal): Promise<SessionInfo[]> =>
  api.get(API_PATHS.sessions, SessionListSchema, { signal });

/** Ends one session by its public id. */
export const endSession = (id: string): Promise<unknown> => api.delete(API_PATHS.session(id), null);

/** Ends every session but this one. */
export const endOtherSessions = (): Promise<unknown> => api.delete(API_PATHS.sessions, null);

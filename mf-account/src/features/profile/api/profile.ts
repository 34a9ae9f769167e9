import { api, type CallOptions } from '@app/api-client';
import {
  API_PATHS,
  type ChangePassword,
  type Preferences,
  PreferencesSchema,
  type Profile,
  ProfileSchema,
  type ProfileUpdate,
} from '@app/contracts';

/**
 * Profile calls never use the global 401 redirect: the screen first says 'Session expired or unauthorized'
 * and then goes to /login itself (SPEC §8). The api-client still clears the token on a 401.
 */
const OWN_401: CallOptions = { redirectOn401: false };

export const fetchProfile = (signal?: AbortSignal): Promise<Profile> =>
  api.get(API_PATHS.profile, ProfileSchema, { ...OWN_401, signal });

export const fetchPreferences = (signal?: AbortSignal): Promise<Preferences> =>
  api.get(API_PATHS.preferences, PreferencesSchema, { ...OWN_401, signal });

export const updateProfile = (update: ProfileUpdate): Promise<Profile> =>
  api.put(API_PATHS.profile, update, ProfileSchema, OWN_401);

/** SPEC §3: the whole preferences object is sent back. The API answers with what it stored. */
export const savePreferences = (preferences: Preferences): Promise<Preferences> =>
  api.put(API_PATHS.preferences, preferences, PreferencesSchema, OWN_401);

/** PUT, the first reading of SPEC §7 (the API accepts PUT and POST). */
export const changePassword = (body: ChangePassword): Promise<unknown> =>
  api.put(API_PATHS.changePassword, body, null, OWN_401);

/** DELETE, the first reading of SPEC §7 (the API accepts DELETE and POST). */
export const deleteAccount = (): Promise<unknown> => api.delete(API_PATHS.deleteAccount, null, OWN_401);

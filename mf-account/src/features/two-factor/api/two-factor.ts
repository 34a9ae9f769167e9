import { api } from '@app/api-client';
import {
  API_PATHS,
  MessageResponseSchema,
  type RecoveryCodes,
  RecoveryCodesSchema,
  type TwoFactorDisable,
  type TwoFactorSetup,
  type TwoFactorSetupRequest,
  TwoFactorSetupSchema,
  type TwoFactorStatus,
  TwoFactorStatusSchema,
} from '@app/contracts';

// Issue 46: the profile's two-factor section. Wrong passwords and codes come back as 400s with the words.

export const fetchTwoFactor = (signal?: AbortSignal): Promise<TwoFactorStatus> =>
  api.get(API_PATHS.twoFactor, TwoFactorStatusSchema, { signal });

/** A new secret, pending until confirmed: the password always, the current code when one is replaced. */
export const startSetup = (body: TwoFactorSetupRequest): Promise<TwoFactorSetup> =>
  api.post(API_PATHS.twoFactorSetup, body, TwoFactorSetupSchema);

/** A code from the new secret turns it on; the answer holds the recovery codes, shown this once. */
export const confirmSetup = (code: string): Promise<RecoveryCodes> =>
  api.post(API_PATHS.twoFactorConfirm, { code }, RecoveryCodesSchema);

export const disableTwoFactor = (body: TwoFactorDisable): Promise<{ message: string }> =>
  api.post(API_PATHS.twoFactorDisable, body, MessageResponseSchema);

import * as v from 'valibot';
import { MESSAGES } from './messages';

// Issue 46: the second factor (TOTP) of an account, as the Profile screen and the step-up dialog use it.

const T = MESSAGES.twoFactor;

/** A code as typed: six digits from the authenticator, or a recovery code (spaces and dashes allowed). */
export const TwoFactorCodeSchema = v.pipe(
  v.string(),
  v.trim(),
  v.nonEmpty(T.codeMissing),
  v.maxLength(40, T.codeWrong),
);

const CurrentPasswordSchema = v.pipe(v.string(), v.nonEmpty(T.passwordRequired), v.maxLength(256));

/** GET twoFactor. `required`: an administrator, who must have it and cannot turn it off (only replace it). */
export const TwoFactorStatusSchema = v.object({
  enabled: v.boolean(),
  required: v.boolean(),
  /** A setup started and not yet confirmed with a code. */
  pending: v.boolean(),
  recoveryCodesLeft: v.number(),
});
export type TwoFactorStatus = v.InferOutput<typeof TwoFactorStatusSchema>;

/** POST twoFactorSetup: the password always; the current code too when an authenticator is replaced. */
export const TwoFactorSetupRequestSchema = v.object({
  password: CurrentPasswordSchema,
  code: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(40, T.codeWrong))),
});
export type TwoFactorSetupRequest = v.InferInput<typeof TwoFactorSetupRequestSchema>;

/** The new secret, pending until confirmed: as text, as an otpauth:// URI and as a QR code (an SVG data URL). */
export const TwoFactorSetupSchema = v.object({
  secret: v.string(),
  otpauthUrl: v.string(),
  qrCode: v.string(),
});
export type TwoFactorSetup = v.InferOutput<typeof TwoFactorSetupSchema>;

/** POST twoFactorConfirm and twoFactorVerify: one code. */
export const TwoFactorCodeRequestSchema = v.object({ code: TwoFactorCodeSchema });
export type TwoFactorCodeRequest = v.InferInput<typeof TwoFactorCodeRequestSchema>;

/** The answer to a confirmed setup: ten one-time recovery codes, shown this once (only hashes are kept). */
export const RecoveryCodesSchema = v.object({ message: v.string(), recoveryCodes: v.array(v.string()) });
export type RecoveryCodes = v.InferOutput<typeof RecoveryCodesSchema>;

/** POST twoFactorDisable (members only): the password and a code (or a recovery code). */
export const TwoFactorDisableSchema = v.object({
  password: CurrentPasswordSchema,
  code: TwoFactorCodeSchema,
});
export type TwoFactorDisable = v.InferInput<typeof TwoFactorDisableSchema>;

/** The answer to POST twoFactorVerify: until when (ms since the epoch) this session may take sensitive actions. */
export const StepUpResponseSchema = v.object({ message: v.string(), verifiedUntil: v.number() });
export type StepUpResponse = v.InferOutput<typeof StepUpResponseSchema>;

import * as v from 'valibot';

// The error body every API failure shares (SPEC §8).

/** Every 4xx/5xx body of the API. Register may add username/email/password keys for field errors. */
export const ApiErrorBodySchema = v.looseObject({
  error: v.optional(v.string()),
  message: v.optional(v.string()),
  username: v.optional(v.string()),
  email: v.optional(v.string()),
  password: v.optional(v.string()),
  /** Issue 46: login needs the authenticator's code (or a recovery code) besides the password. */
  twoFactorRequired: v.optional(v.boolean()),
  /** Issue 46: an administrator without a second factor: the admin API refuses until it is set up. */
  twoFactorSetupRequired: v.optional(v.boolean()),
  /** Issue 46: a sensitive admin action needs a code verified in this session recently (POST twoFactorVerify). */
  stepUpRequired: v.optional(v.boolean()),
});
export type ApiErrorBody = v.InferOutput<typeof ApiErrorBodySchema>;

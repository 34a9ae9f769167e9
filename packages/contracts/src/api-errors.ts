import * as v from 'valibot';

// The error body every API failure shares (SPEC §8).

/** Every 4xx/5xx body of the API. Register may add username/email/password keys for field errors. */
export const ApiErrorBodySchema = v.looseObject({
  error: v.optional(v.string()),
  message: v.optional(v.string()),
  username: v.optional(v.string()),
  email: v.optional(v.string()),
  password: v.optional(v.string()),
});
export type ApiErrorBody = v.InferOutput<typeof ApiErrorBodySchema>;

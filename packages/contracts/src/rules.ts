import * as v from 'valibot';
import { MESSAGES } from './messages';

/**
 * Field rules shared by the Register form and the API (SPEC §5, §9). Each pipe lists its checks in the order
 * a user should read them; callers show the first message of a field.
 */
export const LIMITS = {
  usernameMin: 3,
  passwordMin: 8,
  firstNameMin: 2,
  streetMin: 5,
  excerptLength: 120,
  homeArticles: 6,
  httpTimeoutMs: 10_000,
  lazyLoadTimeoutMs: 120_000,
  profileSuccessMs: 3_000,
  registerRedirectMs: 3_000,
} as const;

/** '{something}@{something}.{something}' with no spaces: the "simple address shape" of §5. */
export const SIMPLE_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const USERNAME_CHARS = /^[A-Za-z0-9_-]+$/;
const R = MESSAGES.register;

export const UsernameSchema = v.pipe(
  v.string(),
  v.nonEmpty(R.usernameRequired),
  v.minLength(LIMITS.usernameMin, R.usernameMin),
  v.maxLength(50, R.usernameMax),
  v.regex(USERNAME_CHARS, R.usernameChars),
);

export const PasswordSchema = v.pipe(
  v.string(),
  v.nonEmpty(R.passwordRequired),
  v.minLength(LIMITS.passwordMin, R.passwordMin),
  v.maxLength(256, R.passwordMax),
  v.regex(/[a-z]/, R.passwordLower),
  v.regex(/[A-Z]/, R.passwordUpper),
  v.regex(/[0-9]/, R.passwordDigit),
);

export const FirstNameSchema = v.pipe(
  v.string(),
  v.trim(),
  v.nonEmpty(R.firstNameRequired),
  v.minLength(LIMITS.firstNameMin, R.firstNameMin),
  v.maxLength(100, R.tooLong),
);

export const EmailSchema = v.pipe(
  v.string(),
  v.trim(),
  v.nonEmpty(R.emailRequired),
  v.regex(SIMPLE_EMAIL, R.emailInvalid),
  v.maxLength(254, R.tooLong),
  v.toLowerCase(),
);

export const StreetSchema = v.pipe(
  v.string(),
  v.trim(),
  v.nonEmpty(R.streetRequired),
  v.minLength(LIMITS.streetMin, R.streetMin),
  v.maxLength(200, R.tooLong),
);

export const OptionalTextSchema = v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200, R.tooLong)), '');

/** First message per field from a failed valibot parse, keyed by the dotted path. */
export function fieldErrors(issues: readonly v.BaseIssue<unknown>[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of issues) {
    const key = v.getDotPath(issue) ?? '';
    if (!(key in out)) out[key] = issue.message;
  }
  return out;
}

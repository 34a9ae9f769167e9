import * as v from 'valibot';
import { MESSAGES } from './messages';
import {
  EmailSchema,
  FirstNameSchema,
  OptionalTextSchema,
  PasswordSchema,
  StreetSchema,
  UsernameSchema,
} from './rules';
import { NullableString } from './schema-parts';

// Login, registration, the profile and its settings: what mf-account sends and the API answers.

export const LoginRequestSchema = v.object({
  username: v.pipe(v.string(), v.trim(), v.nonEmpty(MESSAGES.login.required), v.maxLength(254)),
  password: v.pipe(v.string(), v.nonEmpty(MESSAGES.login.required), v.maxLength(256)),
  /** Issue 46: the authenticator's code or a recovery code, when the account has a second factor. */
  code: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(40, MESSAGES.twoFactor.codeWrong))),
  /** Issue 46: the device token an earlier login of this browser was given (LOGIN_DEVICE_KEY). */
  device: v.optional(v.pipe(v.string(), v.maxLength(200))),
});
export type LoginRequest = v.InferInput<typeof LoginRequestSchema>;
/** `device`: the token this browser sends with its next logins (issue 46, LOGIN_DEVICE_KEY). */
export const LoginResponseSchema = v.object({ token: v.string(), device: v.optional(v.string()) });

const NameObjectSchema = v.object({ first: v.string(), last: v.optional(NullableString, '') });
const AddressObjectSchema = v.object({
  street: v.optional(NullableString, ''),
  city: v.optional(NullableString, ''),
  postal_code: v.optional(NullableString, ''),
  country: v.optional(NullableString, ''),
});

export const ProfileSchema = v.object({
  id: v.optional(v.number()),
  username: v.string(),
  // SPEC §3: a plain string is tolerated for the name and (as the street) for the address.
  name: v.union([NameObjectSchema, v.string()]),
  email: v.string(),
  address: v.union([AddressObjectSchema, v.string()]),
  roles: v.array(v.string()),
  is_active: v.boolean(),
  created_at: v.string(),
  last_login: v.optional(NullableString, null),
  /** Issue 46: a new email waiting for its confirmation link to be followed. */
  pending_email: v.optional(NullableString, null),
});
export type Profile = v.InferOutput<typeof ProfileSchema>;

export interface NormalizedName {
  first: string;
  last: string;
}
export interface NormalizedAddress {
  street: string;
  city: string;
  postal_code: string;
  country: string;
}
export function normalizeName(name: Profile['name']): NormalizedName {
  return typeof name === 'string' ? { first: name, last: '' } : { first: name.first, last: name.last ?? '' };
}
export function normalizeAddress(address: Profile['address']): NormalizedAddress {
  if (typeof address === 'string') return { street: address, city: '', postal_code: '', country: '' };
  return {
    street: address.street ?? '',
    city: address.city ?? '',
    postal_code: address.postal_code ?? '',
    country: address.country ?? '',
  };
}

const AddressInputSchema = v.object({
  street: StreetSchema,
  city: OptionalTextSchema,
  postal_code: OptionalTextSchema,
  country: OptionalTextSchema,
});

export const ProfileUpdateSchema = v.object({
  name: v.object({ first: FirstNameSchema, last: OptionalTextSchema }),
  email: EmailSchema,
  address: AddressInputSchema,
  /** Issue 46: required when the email changes, as for a password change. */
  current_password: v.optional(v.pipe(v.string(), v.maxLength(1000))),
});
export type ProfileUpdate = v.InferInput<typeof ProfileUpdateSchema>;

export const RegistrationPayloadSchema = v.object({
  username: UsernameSchema,
  password: PasswordSchema,
  name: v.object({ first: FirstNameSchema, last: OptionalTextSchema }),
  email: EmailSchema,
  address: AddressInputSchema,
});
export type RegistrationPayload = v.InferOutput<typeof RegistrationPayloadSchema>;

/** The Register form (confirmPassword is client-only). Same field rules as the payload the API checks. */
export const RegistrationFormSchema = v.pipe(
  v.object({
    username: UsernameSchema,
    password: PasswordSchema,
    confirmPassword: v.pipe(v.string(), v.nonEmpty(MESSAGES.register.confirmRequired)),
    firstName: FirstNameSchema,
    lastName: OptionalTextSchema,
    email: EmailSchema,
    street: StreetSchema,
    city: OptionalTextSchema,
    postalCode: OptionalTextSchema,
    country: OptionalTextSchema,
  }),
  v.forward(
    v.partialCheck(
      [['password'], ['confirmPassword']],
      (input) => input.confirmPassword === '' || input.password === input.confirmPassword,
      MESSAGES.register.confirmMismatch,
    ),
    ['confirmPassword'],
  ),
);
export type RegistrationForm = v.InferInput<typeof RegistrationFormSchema>;

export function toRegistrationPayload(
  form: v.InferOutput<typeof RegistrationFormSchema>,
): RegistrationPayload {
  return {
    username: form.username,
    password: form.password,
    name: { first: form.firstName, last: form.lastName },
    email: form.email.trim().toLowerCase(),
    address: { street: form.street, city: form.city, postal_code: form.postalCode, country: form.country },
  };
}

export const RegistrationResponseSchema = v.object({ message: v.string(), requires_activation: v.boolean() });
export type RegistrationResponse = v.InferOutput<typeof RegistrationResponseSchema>;

export const ChangePasswordSchema = v.object({
  currentPassword: v.pipe(v.string(), v.nonEmpty('Current password is required'), v.maxLength(256)),
  newPassword: v.pipe(
    v.string(),
    v.minLength(8, 'New password must be at least 8 characters'),
    v.maxLength(256, MESSAGES.register.passwordMax),
  ),
});
export type ChangePassword = v.InferOutput<typeof ChangePasswordSchema>;

/** Forgot password (issue 34): the address; the answer is the same whether or not it has an account. */
export const ForgotPasswordSchema = v.object({ email: EmailSchema });
export type ForgotPassword = v.InferOutput<typeof ForgotPasswordSchema>;

/** Reset password: the token from the mail's link and a new password under registration's rule. */
export const ResetPasswordSchema = v.object({
  token: v.pipe(
    v.string(),
    v.nonEmpty(MESSAGES.passwordReset.missingToken),
    v.maxLength(200, MESSAGES.passwordReset.invalidToken),
  ),
  password: PasswordSchema,
});
export type ResetPassword = v.InferOutput<typeof ResetPasswordSchema>;

export const PreferencesSchema = v.object({
  emailOptIn: v.boolean(),
  notifications: v.array(v.pipe(v.string(), v.maxLength(50))),
  theme: v.optional(v.pipe(v.string(), v.maxLength(20)), 'system'),
});
export type Preferences = v.InferOutput<typeof PreferencesSchema>;

export const MessageResponseSchema = v.object({ message: v.string() });

/**
 * Issue 46: one of the member's sessions as the profile lists it (never its token or the token's hash):
 * an opaque id to end it with, the browser and system from the User-Agent at login ("Firefox on Linux",
 * '' when unknown), when it began and was last used, and whether it is the one this request came with.
 */
export const SessionInfoSchema = v.object({
  id: v.string(),
  device: v.string(),
  created_at: v.string(),
  last_seen_at: v.string(),
  current: v.boolean(),
});
export type SessionInfo = v.InferOutput<typeof SessionInfoSchema>;
export const SessionListSchema = v.array(SessionInfoSchema);

/** Issue 46: the token of an email change's confirmation or undo link. */
export const EmailChangeTokenSchema = v.object({
  token: v.pipe(v.string(), v.nonEmpty(MESSAGES.emailChange.missingToken), v.maxLength(200)),
});

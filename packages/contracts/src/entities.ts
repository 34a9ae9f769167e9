import * as v from 'valibot';
import {
  BUSINESS_ROLES,
  CHALLENGES,
  COMMUNICATION_METHODS,
  COMPANY_SIZES,
  ContentTypeSchema,
  GROWTH_GOALS,
  INDUSTRIES,
  INTELLIGENCE_TOPICS,
  PostStatusSchema,
  REPORT_FREQUENCIES,
  RISK_CONCERNS,
  RoleSchema,
  URGENCIES,
  VisibilitySchema,
  YEARS_IN_ROLE,
} from './enums';
import { MESSAGES } from './messages';
import {
  EmailSchema,
  FirstNameSchema,
  OptionalTextSchema,
  PasswordSchema,
  SIMPLE_EMAIL,
  StreetSchema,
  UsernameSchema,
} from './rules';

const NullableString = v.nullable(v.string());

// --- Errors ---

/** Every 4xx/5xx body of the API. Register may add username/email/password keys for field errors. */
export const ApiErrorBodySchema = v.looseObject({
  error: v.optional(v.string()),
  message: v.optional(v.string()),
  username: v.optional(v.string()),
  email: v.optional(v.string()),
  password: v.optional(v.string()),
});
export type ApiErrorBody = v.InferOutput<typeof ApiErrorBodySchema>;

// --- Posts ---

export const AuthorSchema = v.object({ id: v.optional(v.nullable(v.number())), name: NullableString });

export const PostSchema = v.object({
  id: v.number(),
  _id: v.string(),
  title: v.string(),
  summary: v.string(),
  content: v.string(),
  excerpt: NullableString,
  status: PostStatusSchema,
  visibility: VisibilitySchema,
  content_type: ContentTypeSchema,
  published_at: NullableString,
  created_at: v.string(),
  updated_at: v.optional(v.string()),
  views: v.number(),
  likes: v.optional(v.number(), 0),
  liked: v.optional(v.boolean(), false),
  comment_count: v.optional(v.number(), 0),
  author: AuthorSchema,
  slug: v.string(),
  tags: v.array(v.string()),
  categories: v.array(v.string()),
});
export type Post = v.InferOutput<typeof PostSchema>;
export const PostListSchema = v.array(PostSchema);

/**
 * A published post above the caller's tier, as the API sends it instead of the post: enough to sell it
 * (title, type, summary, the tier that opens it), never its content or excerpt (the excerpt is cut from the
 * content). Private posts and drafts are never teased. `required_tier` is the lowest tier that opens it.
 */
export const PostTeaserSchema = v.object({
  id: v.number(),
  _id: v.string(),
  slug: v.string(),
  title: v.string(),
  summary: v.string(),
  status: v.literal('published'),
  visibility: v.picklist(['members_only', 'paid-tier-1', 'paid-tier-2']),
  content_type: ContentTypeSchema,
  published_at: NullableString,
  created_at: v.string(),
  author: AuthorSchema,
  locked: v.literal(true),
  required_tier: v.picklist(['basic', 'premium', 'premium_pro']),
});
export type PostTeaser = v.InferOutput<typeof PostTeaserSchema>;
/** What a list asked with `teasers=1` or a single read returns: the post, or its teaser when locked. */
export const PostOrTeaserSchema = v.union([PostTeaserSchema, PostSchema]);
export type PostOrTeaser = Post | PostTeaser;
export const PostOrTeaserListSchema = v.array(PostOrTeaserSchema);
export const isTeaser = (post: PostCard | PostTeaser): post is PostTeaser => 'locked' in post && post.locked;

/**
 * What a list (/api/posts, /my, /search) shows on a card: the post without its content. The card's text is
 * the plain-text `excerpt` (at most 120 characters) the server computes when the post is written.
 */
export const PostCardSchema = v.omit(PostSchema, ['content']);
export type PostCard = v.InferOutput<typeof PostCardSchema>;
export const PostCardListSchema = v.array(PostCardSchema);
export const PostCardOrTeaserListSchema = v.array(v.union([PostTeaserSchema, PostCardSchema]));
export type PostCardOrTeaser = PostCard | PostTeaser;
/** Lists answer one page; this header carries the cursor of the next (absent on the last page). */
export const NEXT_CURSOR_HEADER = 'X-Next-Cursor';

const TagSchema = v.pipe(
  v.string(),
  v.trim(),
  v.nonEmpty('Tags cannot be empty'),
  v.maxLength(40, 'Tags are at most 40 characters'),
);

/** What an author sends to create or update a post. */
export const PostInputSchema = v.object({
  title: v.pipe(
    v.string(),
    v.trim(),
    v.nonEmpty('Title is required'),
    v.maxLength(200, 'Title must be at most 200 characters'),
  ),
  summary: v.optional(
    v.pipe(v.string(), v.trim(), v.maxLength(500, 'Summary must be at most 500 characters')),
    '',
  ),
  content: v.pipe(
    v.string(),
    v.nonEmpty('Content is required'),
    v.maxLength(100_000, 'Content must be at most 100,000 characters'),
  ),
  content_type: v.optional(ContentTypeSchema, 'research_report'),
  visibility: v.optional(VisibilitySchema, 'public'),
  status: v.optional(PostStatusSchema, 'draft'),
  tags: v.optional(v.pipe(v.array(TagSchema), v.maxLength(10, 'At most 10 tags')), []),
  categories: v.optional(v.pipe(v.array(TagSchema), v.maxLength(10, 'At most 10 categories')), []),
});
export type PostInput = v.InferInput<typeof PostInputSchema>;
export const PostUpdateSchema = v.partial(PostInputSchema);
export type PostUpdate = v.InferInput<typeof PostUpdateSchema>;

export const VisibilityChangeSchema = v.object({ visibility: VisibilitySchema });

export const LikeResultSchema = v.object({ liked: v.boolean(), likes: v.number() });
export type LikeResult = v.InferOutput<typeof LikeResultSchema>;

export const CommentSchema = v.object({
  id: v.number(),
  post_id: v.number(),
  content: v.string(),
  author: AuthorSchema,
  created_at: v.string(),
  updated_at: v.string(),
  likes: v.optional(v.number(), 0),
  liked: v.optional(v.boolean(), false),
});
export type Comment = v.InferOutput<typeof CommentSchema>;
export const CommentListSchema = v.array(CommentSchema);
export const CommentInputSchema = v.object({
  content: v.pipe(
    v.string(),
    v.trim(),
    v.nonEmpty('Comment cannot be empty'),
    v.maxLength(5000, 'Comment must be at most 5,000 characters'),
  ),
});

export const NamedCountSchema = v.object({ name: v.string(), count: v.number() });
export const NamedCountListSchema = v.array(NamedCountSchema);

/** GET /api/stats: the caller's own research, for Analytics. */
export const StatsSchema = v.object({
  total: v.number(),
  published: v.number(),
  drafts: v.number(),
  views: v.number(),
  by_content_type: v.record(v.string(), v.number()),
});
export type Stats = v.InferOutput<typeof StatsSchema>;

/** GET /api/report: published research the caller may open, counted by type and visibility. */
export const ReportSchema = v.object({
  generated_at: v.string(),
  published: v.number(),
  by_content_type: v.record(v.string(), v.number()),
  by_visibility: v.record(v.string(), v.number()),
  top_posts: v.array(v.object({ id: v.number(), title: v.string(), views: v.number() })),
});
export type Report = v.InferOutput<typeof ReportSchema>;

// --- Accounts ---

export const LoginRequestSchema = v.object({
  username: v.pipe(v.string(), v.trim(), v.nonEmpty(MESSAGES.login.required), v.maxLength(254)),
  password: v.pipe(v.string(), v.nonEmpty(MESSAGES.login.required), v.maxLength(256)),
});
export const LoginResponseSchema = v.object({ token: v.string() });

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

export const PreferencesSchema = v.object({
  emailOptIn: v.boolean(),
  notifications: v.array(v.pipe(v.string(), v.maxLength(50))),
  theme: v.optional(v.pipe(v.string(), v.maxLength(20)), 'system'),
});
export type Preferences = v.InferOutput<typeof PreferencesSchema>;

export const MessageResponseSchema = v.object({ message: v.string() });

// --- Admin ---

export const AdminUserSchema = v.object({
  id: v.number(),
  username: v.string(),
  email: v.string(),
  is_active: v.boolean(),
  roles: v.array(v.string()),
  created_at: v.string(),
});
export type AdminUser = v.InferOutput<typeof AdminUserSchema>;
/** A role to grant or revoke: one of ROLES (enums.ts), the one list of roles. */
export const RoleChangeSchema = v.object({ role: RoleSchema });

// --- Public pages ---

export const DashboardSchema = v.object({ slug: v.string(), title: v.string(), description: v.string() });
export type Dashboard = v.InferOutput<typeof DashboardSchema>;
export const DashboardListSchema = v.array(DashboardSchema);

/** One month of an indicator: period is `YYYY-MM`. */
export const DashboardPointSchema = v.object({ period: v.string(), value: v.number() });
export type DashboardPoint = v.InferOutput<typeof DashboardPointSchema>;
export const DashboardIndicatorSchema = v.object({
  id: v.string(),
  title: v.string(),
  /** Shown after each value: '%' directly, any other unit after a space ('days', 'USD'); '' for a plain index. */
  unit: v.string(),
  description: v.string(),
  points: v.array(DashboardPointSchema),
});
export type DashboardIndicator = v.InferOutput<typeof DashboardIndicatorSchema>;
/** GET /api/dashboards/{slug}: the dashboard and its indicators' series (demo data). */
export const DashboardDetailSchema = v.object({
  ...DashboardSchema.entries,
  indicators: v.array(DashboardIndicatorSchema),
});
export type DashboardDetail = v.InferOutput<typeof DashboardDetailSchema>;

export const ImpressumSchema = v.object({
  name: NullableString,
  street: NullableString,
  city: NullableString,
  country: NullableString,
  representative: NullableString,
  email: NullableString,
  phone: NullableString,
  register: NullableString,
  vatId: NullableString,
});
export type Impressum = v.InferOutput<typeof ImpressumSchema>;

export const ContactSchema = v.object({
  email: NullableString,
  phone: NullableString,
  address: NullableString,
});
export type Contact = v.InferOutput<typeof ContactSchema>;

// --- Market assessment (SPEC §3, validated per step with §5's messages) ---

const S = MESSAGES.survey;
const optionalPick = <T extends readonly [string, ...string[]]>(values: T) =>
  v.optional(v.union([v.picklist(values), v.literal('')]), '');
const list = <T extends readonly [string, ...string[]]>(values: T) =>
  v.pipe(v.array(v.picklist(values)), v.maxLength(values.length));
const optionalText = (max: number) => v.optional(v.pipe(v.string(), v.trim(), v.maxLength(max)), '');

export const SurveyStep1Schema = v.object({
  companySize: v.pipe(
    v.string(),
    v.nonEmpty(S.companySizeRequired),
    v.picklist(COMPANY_SIZES.values, S.companySizeRequired),
  ),
  industry: v.pipe(
    v.string(),
    v.nonEmpty(S.industryRequired),
    v.picklist(INDUSTRIES.values, S.industryRequired),
  ),
  role: v.pipe(v.string(), v.nonEmpty(S.roleRequired), v.picklist(BUSINESS_ROLES.values, S.roleRequired)),
  yearsInRole: optionalPick(YEARS_IN_ROLE.values),
});
export const SurveyStep2Schema = v.object({
  primaryChallenges: v.pipe(list(CHALLENGES.values), v.minLength(1, S.challengeRequired)),
  riskConcerns: list(RISK_CONCERNS.values),
  growthGoals: list(GROWTH_GOALS.values),
});
export const SurveyStep3Schema = v.object({
  intelligenceTopics: v.pipe(list(INTELLIGENCE_TOPICS.values), v.minLength(1, S.topicRequired)),
  reportFrequency: optionalPick(REPORT_FREQUENCIES.values),
  urgency: optionalPick(URGENCIES.values),
});
export const SurveyStep4Schema = v.object({
  email: v.pipe(
    v.string(),
    v.trim(),
    v.nonEmpty(S.emailRequired),
    v.regex(SIMPLE_EMAIL, S.emailInvalid),
    v.maxLength(254, S.emailInvalid),
  ),
  firstName: optionalText(100),
  lastName: optionalText(100),
  company: optionalText(200),
  phone: optionalText(50),
  communicationMethod: optionalPick(COMMUNICATION_METHODS.values),
  consultationInterest: v.optional(v.boolean(), false),
});
export const SURVEY_STEP_SCHEMAS = [
  SurveyStep1Schema,
  SurveyStep2Schema,
  SurveyStep3Schema,
  SurveyStep4Schema,
] as const;

export const MarketAssessmentSchema = v.object({
  ...SurveyStep1Schema.entries,
  ...SurveyStep2Schema.entries,
  ...SurveyStep3Schema.entries,
  ...SurveyStep4Schema.entries,
});
export type MarketAssessment = v.InferInput<typeof MarketAssessmentSchema>;
export const MarketAssessmentResponseSchema = v.object({ id: v.number(), message: v.string() });

import { OVERRIDE_TOKEN_PATTERN } from '@app/rollout/dev-override';
import * as v from 'valibot';

/**
 * What an edge reports of a dev override link's use (issue 47, docs/decisions/0042-dev-overrides.md), at
 * POST DEPLOY_PATHS.overrideUses(env). The link's token is the proof: the edge holds no credential to the API,
 * and whoever holds the token could open the link anyway. `open`: a browser opened the link (the edge set
 * its cookie); `views`: pages the edge served under it since the last report; `exit`: Exit in the banner,
 * with the views not yet reported. `address` is the visitor's client address as the edge saw it and
 * `userAgent` their browser's User-Agent (the API names the device from it), both for the audit's words.
 */
const Token = v.pipe(
  v.string('token is required'),
  v.maxLength(100, 'token is not an override token'),
  v.regex(OVERRIDE_TOKEN_PATTERN, 'token is not an override token'),
);
/** At most this many page views a report: an edge reports every ~10 s, so far more than a browser makes. */
export const OVERRIDE_USE_MAX_VIEWS = 10_000;
const Views = v.pipe(
  v.number('views must be a number'),
  v.integer('views must be a whole number'),
  v.minValue(1, 'views must be at least 1'),
  v.maxValue(OVERRIDE_USE_MAX_VIEWS, `views must be at most ${OVERRIDE_USE_MAX_VIEWS}`),
);
const Address = v.pipe(
  v.string('address must be a string'),
  v.maxLength(64),
  v.ip('address must be an IP address'),
);
const UserAgent = v.pipe(v.string('userAgent must be a string'), v.maxLength(512, 'userAgent is too long'));

export const OverrideUseSchema = v.variant(
  'event',
  [
    v.strictObject({
      token: Token,
      event: v.literal('open'),
      address: v.optional(Address),
      userAgent: v.optional(UserAgent),
    }),
    v.strictObject({ token: Token, event: v.literal('views'), views: Views }),
    v.strictObject({
      token: Token,
      event: v.literal('exit'),
      views: v.optional(Views),
      address: v.optional(Address),
      userAgent: v.optional(UserAgent),
    }),
  ],
  'event must be open, views or exit',
);
export type OverrideUse = v.InferOutput<typeof OverrideUseSchema>;

/** The answer: the link's counts after this report, and whether it wrote an audit row (opens are debounced). */
export interface OverrideUseAnswer {
  audited: boolean;
  opens: number;
  pageViews: number;
}

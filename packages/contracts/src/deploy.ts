import {
  DeploymentManifestSchema,
  EnvironmentNameSchema,
  type FeedPreview,
  IntegritySchema,
  PercentSchema,
  PREVIEW_TOKEN_PATTERN,
  REMOTE_PACKAGES,
  VersionIdSchema,
} from '@app/rollout';
import { type FeedOverride, OVERRIDE_MAX_HOURS, OVERRIDE_TOKEN_PATTERN } from '@app/rollout/dev-override';
import * as v from 'valibot';
import { AuditEntrySchema } from './rollout';
import { DeployPreviewSchema } from './rollouts-admin';

/**
 * The deploy API (docs/decisions/0030-deploy-control-plane.md): how a team's pipeline ships its remote from
 * any machine. Every call but the public feed carries `Authorization: Bearer <deploy token>`; a token names
 * the remotes and environments it may change (an admin token: all of them). Every change of a deployment
 * sends `If-Match: "<revision>"` and gets 412 when the deployment moved on meanwhile (428 without one).
 */
const Remote = v.picklist(REMOTE_PACKAGES, 'Unknown remote');
const Iso = v.pipe(v.string(), v.isoTimestamp());

/** The commands a deployment understands: each is `POST DEPLOY_PATHS.command(env, remote, verb)`. */
export const DEPLOY_VERBS = [
  'start',
  'set',
  'promote',
  'abort',
  'rollback',
  'adopt',
  'bootstrap',
  'watch',
] as const;
export type DeployVerb = (typeof DEPLOY_VERBS)[number];

export const DEPLOY_PATHS = {
  /** GET: every environment this install knows (DEPLOY_ENVIRONMENTS), with its revision. */
  environments: '/api/deploy/environments',
  /** GET: one environment's manifest and revision (ETag: "<revision>"). */
  environment: (env: string) => `/api/deploy/environments/${env}`,
  /** POST with If-Match: one change of one remote's deployment. */
  command: (env: string, remote: string, verb: DeployVerb) =>
    `/api/deploy/environments/${env}/remotes/${remote}/${verb}`,
  /** GET ?limit=N: the remote's audit entries in that environment, newest first. */
  history: (env: string, remote: string) => `/api/deploy/environments/${env}/remotes/${remote}/history`,
  /** GET ?version=V&since=ISO: what each visitor of that version felt (the gate's input, per visitor). */
  health: (env: string, remote: string) => `/api/deploy/environments/${env}/remotes/${remote}/health`,
  /** GET ?version=V&since=ISO: the edges' server renders of that version (the gate's server signals). */
  renders: (env: string, remote: string) => `/api/deploy/environments/${env}/remotes/${remote}/renders`,
  /** POST: a new preview link for a released version (its token is answered once). */
  preview: (env: string, remote: string) => `/api/deploy/environments/${env}/remotes/${remote}/preview`,
  /** GET ?remote=R: the environment's preview links (those of the remotes the token may change). */
  previews: (env: string) => `/api/deploy/environments/${env}/previews`,
  /** DELETE: revokes one preview link (answers it, revoked; again: the same answer). */
  previewLink: (env: string, id: string) => `/api/deploy/environments/${env}/previews/${id}`,
  /** POST: a new dev override link for a remote (issue 47; its token is answered once). */
  override: (env: string, remote: string) => `/api/deploy/environments/${env}/remotes/${remote}/override`,
  /** DELETE: revokes one dev override link (answers it, revoked; again: the same answer). */
  overrideLink: (env: string, id: string) => `/api/deploy/environments/${env}/overrides/${id}`,
  /** GET: the remote's releases, newest first. */
  releases: (remote: string) => `/api/deploy/releases/${remote}`,
  /** PUT a release bundle (a tar stream, gzip or not) / GET its release.json. */
  release: (remote: string, version: string) => `/api/deploy/releases/${remote}/${version}`,
  /** GET: the calling token's name and scope (a pipeline's first check). */
  token: '/api/deploy/token',
  /** GET: every live remote version of the environment against the live shell and each other (issue 45). */
  compatibility: (env: string) => `/api/deploy/environments/${env}/compatibility`,
  /** POST ?force=1: a shell build checked against every environment's live remotes, before it ships. */
  shellCheck: '/api/deploy/shell/check',
  /**
   * GET, public (the manifest is public anyway: browsers read it): the environment's manifest and its
   * preview links (DeployFeedSchema). With `?after=N` it waits (up to ~25 s) until the revision is another
   * than N; with `?after=N&previews=M` until either that or the previews' revision is another than M: how
   * every edge learns of a change.
   */
  feed: (env: string) => `/api/deployment/${env}`,
  /**
   * POST, public (the override link's token is the proof, OverrideUseSchema): an edge reports a dev override
   * link's use, opened, page views or Exit (issue 47). 404 for a token the environment does not accept.
   */
  overrideUses: (env: string) => `/api/deployment/${env}/override-uses`,
} as const;

/** The HTTP header a deploy token travels in is `Authorization: Bearer <token>`; tokens look like this. */
export const DEPLOY_TOKEN_PATTERN = /^mfd_[A-Za-z0-9_-]{43}$/;

export const DeployTokenScopeSchema = v.object({
  name: v.string(),
  /** An admin token may change every remote in every environment. */
  admin: v.boolean(),
  remotes: v.array(Remote),
  environments: v.array(EnvironmentNameSchema),
});
export type DeployTokenScope = v.InferOutput<typeof DeployTokenScopeSchema>;

export const DeployStateSchema = v.object({
  environment: EnvironmentNameSchema,
  revision: v.number(),
  /** Null while the environment has never been written. */
  updatedAt: v.nullable(Iso),
  manifest: DeploymentManifestSchema,
});
export type DeployState = v.InferOutput<typeof DeployStateSchema>;

export const DeployEnvironmentsSchema = v.object({
  /** In promotion order (DEPLOY_ENVIRONMENTS): `adopt` takes a version from the one before. */
  environments: v.array(v.object({ environment: EnvironmentNameSchema, revision: v.number() })),
});

/** What every accepted change answers (and its ETag is the new revision). */
export const DeployChangeResultSchema = v.object({
  environment: EnvironmentNameSchema,
  revision: v.number(),
  manifest: DeploymentManifestSchema,
  entries: v.array(AuditEntrySchema),
});
export type DeployChangeResult = v.InferOutput<typeof DeployChangeResultSchema>;

/** 412's body: the revision the deployment is at now, so the caller can look and decide again. */
export const DeployConflictSchema = v.object({ error: v.string(), revision: v.number() });

const Force = v.optional(v.boolean());
const Reason = v.pipe(v.string(), v.maxLength(2000));

/** The body of each verb. */
export const DEPLOY_BODIES = {
  start: v.strictObject({ version: VersionIdSchema, percent: PercentSchema, force: Force }),
  set: v.strictObject({ percent: PercentSchema }),
  /** Gated again: the shell may have changed since the canary started (force: go past it, audited). */
  promote: v.strictObject({ force: Force }),
  abort: v.strictObject({}),
  /** Without `to`: back to the previous stable; with it, any released version. */
  rollback: v.strictObject({ to: v.optional(VersionIdSchema), force: Force }),
  /**
   * `pnpm rollout promote-to <env> <remote> <version>`: the version the environment before this one runs
   * (its stable or canary: `from`, default the one before in DEPLOY_ENVIRONMENTS) comes here as the same
   * bytes: as a canary at `percent`, or as stable without one.
   */
  adopt: v.strictObject({
    version: VersionIdSchema,
    from: v.optional(EnvironmentNameSchema),
    percent: v.optional(PercentSchema),
    force: Force,
  }),
  /** `pnpm start`: a remote without a stable version gets this one (with `replace`, whatever it had). */
  bootstrap: v.strictObject({ version: VersionIdSchema, replace: v.optional(v.boolean()), force: Force }),
  /** `pnpm rollout watch`'s moves, audited as watch-advance / watch-promote / watch-rollback / watch-stop. */
  watch: v.variant('step', [
    v.strictObject({ step: v.literal('advance'), percent: PercentSchema, reason: Reason }),
    v.strictObject({ step: v.literal('promote'), reason: Reason }),
    v.strictObject({ step: v.literal('rollback'), reason: Reason }),
    v.strictObject({ step: v.literal('stop'), reason: Reason }),
  ]),
} as const satisfies Record<DeployVerb, v.GenericSchema>;

/** A preview link lives 4 hours unless asked otherwise, and a week at most (issue 44). */
export const PREVIEW_DEFAULT_HOURS = 4;
export const PREVIEW_MAX_HOURS = 7 * 24;

export const PreviewRequestSchema = v.strictObject({
  version: VersionIdSchema,
  hours: v.optional(
    v.pipe(
      v.number('hours must be a number'),
      v.minValue(0.01, 'hours must be at least 0.01'),
      v.maxValue(
        PREVIEW_MAX_HOURS,
        `hours must be at most ${PREVIEW_MAX_HOURS}: a preview link lives 7 days at most`,
      ),
    ),
  ),
  baseUrl: v.optional(v.pipe(v.string(), v.url())),
  /** Past the compatibility gate's conflicts (issue 45; audited with them). */
  force: v.optional(v.boolean()),
});

/** POST …/preview's answer: the only time the token exists outside the caller's hands. */
export const PreviewLinkSchema = v.object({
  id: v.string(),
  url: v.string(),
  token: v.pipe(v.string(), v.regex(PREVIEW_TOKEN_PATTERN)),
  expiresAt: Iso,
  environment: EnvironmentNameSchema,
  remote: Remote,
  version: VersionIdSchema,
});
export type PreviewLink = v.InferOutput<typeof PreviewLinkSchema>;

export {
  type DeployPreview,
  DeployPreviewSchema,
  PREVIEW_STATUSES,
  type PreviewStatus,
} from './rollouts-admin';

export const DeployPreviewListSchema = v.object({
  environment: EnvironmentNameSchema,
  /** Active links first (soonest to expire first), then expired or revoked ones, newest first. */
  previews: v.array(DeployPreviewSchema),
});
export type DeployPreviewList = v.InferOutput<typeof DeployPreviewListSchema>;

/** One preview link in the public feed (@app/rollout FeedPreview): what an edge checks a link against. */
export const FeedPreviewSchema = v.object({
  id: v.string(),
  tokenHash: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)),
  remote: Remote,
  version: VersionIdSchema,
  expiresAt: Iso,
  revokedAt: v.nullable(Iso),
  integrity: IntegritySchema,
}) satisfies v.GenericSchema<FeedPreview>;

/**
 * GET DEPLOY_PATHS.feed(env): the environment's DeployState and its preview links. `previews.revision`
 * counts every link made or revoked in the environment (what `?previews=` compares); `links` are those not
 * expired for more than 7 days, revoked ones included, so a checker can say why a link no longer works.
 */
export const DeployFeedSchema = v.object({
  ...DeployStateSchema.entries,
  previews: v.object({
    revision: v.number(),
    links: v.array(FeedPreviewSchema),
    /** Dev override links (issue 47), listed like preview links and counted in the same revision. */
    overrides: v.optional(v.array(v.lazy(() => FeedOverrideSchema)), []),
  }),
});
export type DeployFeed = v.InferOutput<typeof DeployFeedSchema>;

/** One visitor's figures for one version (@app/rollout VisitorFigures). */
export const VisitorFiguresSchema = v.object({
  views: v.number(),
  errorViews: v.number(),
  lcp: v.nullable(v.number()),
  inp: v.nullable(v.number()),
  cls: v.nullable(v.number()),
});
export const DeployHealthSchema = v.object({
  remote: Remote,
  version: VersionIdSchema,
  since: v.nullable(Iso),
  /** At most ADDRESS_VISITOR_CAP per client address group (@app/rollout visitorSample). */
  visitors: v.array(VisitorFiguresSchema),
  /** Distinct client address groups among the reports (optional: older APIs do not send it). */
  addresses: v.optional(v.number()),
  /** Visitors left out by the cap per address group (many: a NAT, or someone minting visitors). */
  overCap: v.optional(v.number()),
});
export type DeployHealth = v.InferOutput<typeof DeployHealthSchema>;

/** One version's server renders over a window (@app/rollout ServerFigures), summed over the edges. */
export const ServerFiguresSchema = v.object({
  renders: v.number(),
  failures: v.number(),
  slow: v.number(),
  durationMs: v.number(),
});
export const DeployRendersSchema = v.object({
  remote: Remote,
  version: VersionIdSchema,
  since: v.nullable(Iso),
  figures: ServerFiguresSchema,
});
export type DeployRenders = v.InferOutput<typeof DeployRendersSchema>;

export const DeployHistorySchema = v.object({
  environment: EnvironmentNameSchema,
  remote: Remote,
  entries: v.array(AuditEntrySchema),
});

/**
 * `release.json`, inside every release bundle and every release folder: what was released, from which
 * commit, and what it needs from the shell (its `shared` list, for the compatibility gate).
 */
export const SharedInfoSchema = v.object({
  name: v.string(),
  version: v.optional(v.string()),
  requiredVersion: v.optional(v.union([v.string(), v.literal(false)])),
});
export type SharedInfo = v.InferOutput<typeof SharedInfoSchema>;

export const ReleaseInfoSchema = v.object({
  remote: Remote,
  version: VersionIdSchema,
  packageVersion: v.string(),
  createdAt: Iso,
  /** `git rev-parse HEAD` of the checkout that released it, and whether that tree had uncommitted changes. */
  commit: v.nullable(v.string()),
  dirty: v.nullable(v.boolean()),
  exposes: v.array(v.object({ name: v.string(), path: v.string() })),
  shared: v.array(SharedInfoSchema),
  files: v.number(),
  bytes: v.number(),
  /** SHA-384 of remoteEntry.js as published (sha384-<base64>): what the shell will require of it. */
  entryIntegrity: v.optional(IntegritySchema),
  /** The full SHA-256 of the release's files (the version id carries its first 10 hex characters). */
  contentHash: v.optional(v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/))),
});
export type ReleaseInfo = v.InferOutput<typeof ReleaseInfoSchema>;

/** PUT's answer: 201 when stored now, 200 when the same bytes were there already. */
export const ReleaseUploadResultSchema = v.object({
  release: ReleaseInfoSchema,
  created: v.boolean(),
  /** Compatibility conflicts a `?force=1` upload went past (audited), one line each (the 409's lines). */
  forcedConflicts: v.array(v.string()),
});
export type ReleaseUploadResult = v.InferOutput<typeof ReleaseUploadResultSchema>;

export const ReleaseListSchema = v.object({ remote: Remote, releases: v.array(ReleaseInfoSchema) });

/**
 * Dev overrides (issue 47, docs/decisions/0042-dev-overrides.md): a link that makes the browser opening it
 * load one remote from a team's dev server. `url` is checked by @app/rollout's overrideTarget (loopback and
 * private networks, or DEV_OVERRIDE_ORIGINS); a short life by default.
 */
export const OverrideRequestSchema = v.strictObject({
  url: v.pipe(v.string('url is required'), v.maxLength(500, 'url must be at most 500 characters')),
  hours: v.optional(
    v.pipe(
      v.number('hours must be a number'),
      v.minValue(0.01, 'hours must be at least 0.01'),
      v.maxValue(
        OVERRIDE_MAX_HOURS,
        `hours must be at most ${OVERRIDE_MAX_HOURS}: an override link lives 7 days at most`,
      ),
    ),
  ),
  baseUrl: v.optional(v.pipe(v.string(), v.url())),
});

/** POST …/override's answer: the only time the token exists outside the caller's hands. */
export const OverrideLinkSchema = v.object({
  id: v.string(),
  link: v.string(),
  token: v.pipe(v.string(), v.regex(OVERRIDE_TOKEN_PATTERN)),
  expiresAt: Iso,
  environment: EnvironmentNameSchema,
  remote: Remote,
  /** The dev server URL, as normalised (a bare origin gets /mf-manifest.json). */
  url: v.string(),
});
export type OverrideLink = v.InferOutput<typeof OverrideLinkSchema>;

/** DELETE …/overrides/<id>'s answer. */
export const DeployOverrideSchema = v.object({
  id: v.string(),
  environment: EnvironmentNameSchema,
  remote: Remote,
  url: v.string(),
  createdAt: Iso,
  createdBy: v.string(),
  expiresAt: Iso,
  revokedAt: v.nullable(Iso),
  revokedBy: v.nullable(v.string()),
  /** Its use as edges reported it (an answer about a stored link; older APIs do not send them). */
  opens: v.optional(v.number()),
  pageViews: v.optional(v.number()),
  lastUsedAt: v.optional(v.nullable(Iso)),
});
export type DeployOverride = v.InferOutput<typeof DeployOverrideSchema>;

/** One override link in the public feed (@app/rollout FeedOverride). */
export const FeedOverrideSchema = v.object({
  id: v.string(),
  tokenHash: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)),
  remote: Remote,
  url: v.pipe(v.string(), v.url(), v.regex(/^https?:/)),
  expiresAt: Iso,
  revokedAt: v.nullable(Iso),
}) satisfies v.GenericSchema<FeedOverride>;

export {
  OVERRIDE_USE_MAX_VIEWS,
  type OverrideUse,
  type OverrideUseAnswer,
  OverrideUseSchema,
} from './override-use';

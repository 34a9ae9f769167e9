import {
  DeploymentManifestSchema,
  EnvironmentNameSchema,
  IntegritySchema,
  REMOTE_PACKAGES,
  VersionIdSchema,
} from '@app/rollout';
import * as v from 'valibot';

/**
 * API shapes of staged rollouts (docs/decisions/0009-staged-rollouts.md): the shell's health reports, preview
 * link verification, and the admin view. The manifest itself is a file, not an API shape (@app/rollout).
 */
const RemoteSchema = v.picklist(REMOTE_PACKAGES, 'Unknown remote');
const Iso = v.pipe(v.string(), v.isoTimestamp());

export const HEALTH_EVENTS = ['load', 'load-failure', 'render-error'] as const;
export const ROLLOUT_TRACKS = ['stable', 'canary', 'preview'] as const;

/** One event from one browser: no user, no address, no URL; only which version did what. */
export const RolloutHealthReportSchema = v.strictObject({
  remote: RemoteSchema,
  version: VersionIdSchema,
  track: v.picklist(ROLLOUT_TRACKS, 'Unknown track'),
  event: v.picklist(HEALTH_EVENTS, 'Unknown event'),
  /** How long the load took (or took to fail), in milliseconds. */
  ms: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(600_000))),
});
export type RolloutHealthReport = v.InferOutput<typeof RolloutHealthReportSchema>;

export const PreviewVerifyRequestSchema = v.object({
  token: v.pipe(v.string('token is required'), v.nonEmpty('token is required'), v.maxLength(1000)),
});

/** What the API answers for a valid preview token. */
export const PreviewGrantSchema = v.object({
  remote: RemoteSchema,
  version: VersionIdSchema,
  expiresAt: Iso,
  /** The version's entry digest recorded at release: the shell loads the preview only if it matches. */
  integrity: IntegritySchema,
});
export type PreviewGrant = v.InferOutput<typeof PreviewGrantSchema>;

export const RolloutHealthRowSchema = v.object({
  remote: RemoteSchema,
  version: VersionIdSchema,
  loads: v.number(),
  loadFailures: v.number(),
  renderErrors: v.number(),
  lastAt: v.nullable(Iso),
});
export type RolloutHealthRow = v.InferOutput<typeof RolloutHealthRowSchema>;

export const AUDIT_ACTIONS = [
  'release',
  'preview',
  'bootstrap',
  'start',
  'set',
  'promote',
  'abort',
  'rollback',
  'watch-advance',
  'watch-promote',
  'watch-rollback',
] as const;

/** One line of a deployment's audit log: who changed what, when, from which state to which. */
export const AuditEntrySchema = v.object({
  at: Iso,
  actor: v.string(),
  environment: EnvironmentNameSchema,
  action: v.picklist(AUDIT_ACTIONS),
  remote: RemoteSchema,
  /** The remote's state before and after, in words ("stable 1.0.0-… · canary 1.1.0-… at 10 %"). */
  from: v.nullable(v.string()),
  to: v.nullable(v.string()),
  reason: v.optional(v.string()),
  forced: v.optional(v.boolean()),
});
export type AuditEntry = v.InferOutput<typeof AuditEntrySchema>;

export const AdminRolloutsSchema = v.object({
  environment: EnvironmentNameSchema,
  manifest: v.nullable(DeploymentManifestSchema),
  health: v.array(RolloutHealthRowSchema),
  /** Newest first. */
  audit: v.array(AuditEntrySchema),
});
export type AdminRollouts = v.InferOutput<typeof AdminRolloutsSchema>;

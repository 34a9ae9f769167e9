import {
  DeploymentManifestSchema,
  EnvironmentNameSchema,
  REMOTE_PACKAGES,
  VersionIdSchema,
} from '@app/rollout';
import * as v from 'valibot';
import { CompatibilitySchema } from './compatibility';
import { AuditEntrySchema, HEALTH_REFUSALS, ROLLOUT_TRACKS } from './rollout';

/**
 * The administrators' view of rollouts (GET ADMIN_PATHS.rollouts, the shell's /admin/rollouts): health per
 * version, charts, refused reports, the audit log and the environment's preview links. An entry of its own, so
 * the bundles every visitor loads never carry it (only the admin screen and the API import it).
 */
const RemoteSchema = v.picklist(REMOTE_PACKAGES, 'Unknown remote');
const Iso = v.pipe(v.string(), v.isoTimestamp());

const Figure = v.nullable(v.number());
/** What visitors felt: the mean of their error rates, and the p75s of their Web Vitals (null: no values). */
const SIGNAL_FIGURES = { errorRate: Figure, lcp: Figure, inp: Figure, cls: Figure };

/** One version's figures over the retained reports (per visitor: see @app/rollout health-signals). */
export const RolloutHealthRowSchema = v.object({
  remote: RemoteSchema,
  version: VersionIdSchema,
  visitors: v.number(),
  views: v.number(),
  ...SIGNAL_FIGURES,
  lastAt: v.nullable(Iso),
});
export type RolloutHealthRow = v.InferOutput<typeof RolloutHealthRowSchema>;

/** One time bucket of one track: distinct visitors, their mean error rate and p75 Web Vitals. */
export const RolloutPointSchema = v.object({
  at: Iso,
  visitors: v.number(),
  ...SIGNAL_FIGURES,
});
export type RolloutPoint = v.InferOutput<typeof RolloutPointSchema>;

export const RolloutSeriesSchema = v.object({
  track: v.picklist(ROLLOUT_TRACKS),
  version: VersionIdSchema,
  points: v.array(RolloutPointSchema),
});
export type RolloutSeries = v.InferOutput<typeof RolloutSeriesSchema>;

/** A remote's tracks over time: the canary against stable, bucket by bucket. */
export const RolloutChartSchema = v.object({
  remote: RemoteSchema,
  from: Iso,
  to: Iso,
  bucketMs: v.number(),
  series: v.array(RolloutSeriesSchema),
});
export type RolloutChart = v.InferOutput<typeof RolloutChartSchema>;

export const RefusalCountSchema = v.object({ reason: v.picklist(HEALTH_REFUSALS), count: v.number() });

/**
 * A preview link's state (issue 44): active until it expires or is revoked. A revoked link that has also
 * expired counts as revoked: that is what someone did to it.
 */
export const PREVIEW_STATUSES = ['active', 'expired', 'revoked'] as const;
export type PreviewStatus = (typeof PREVIEW_STATUSES)[number];

/** One preview link as the deploy API and the admin view list it (never its token). */
export const DeployPreviewSchema = v.object({
  id: v.string(),
  environment: EnvironmentNameSchema,
  remote: RemoteSchema,
  version: VersionIdSchema,
  createdAt: Iso,
  /** The deploy token's name that made it. */
  createdBy: v.string(),
  expiresAt: Iso,
  revokedAt: v.nullable(Iso),
  /** The deploy token's name, or the administrator's username, that revoked it. */
  revokedBy: v.nullable(v.string()),
  status: v.picklist(PREVIEW_STATUSES),
});
export type DeployPreview = v.InferOutput<typeof DeployPreviewSchema>;

/**
 * The gate's answer now for a remote with a canary (@app/rollout gateNow with the default policy, issue 48):
 * `inconclusive` (too few visitors in the window), `extending` (beyond a margin, not yet sure), `advance` or
 * `rollback`, with the reason in words.
 */
export const GATE_ANSWERS = ['advance', 'rollback', 'inconclusive', 'extending'] as const;
export const RolloutGateSchema = v.object({
  remote: RemoteSchema,
  version: VersionIdSchema,
  percent: v.number(),
  answer: v.picklist(GATE_ANSWERS),
  reason: v.string(),
});
export type RolloutGate = v.InferOutput<typeof RolloutGateSchema>;

export const AdminRolloutsSchema = v.object({
  environment: EnvironmentNameSchema,
  manifest: v.nullable(DeploymentManifestSchema),
  health: v.array(RolloutHealthRowSchema),
  charts: v.array(RolloutChartSchema),
  /** Refused health reports over the last 24 hours, by reason. */
  refusals: v.array(RefusalCountSchema),
  /** Newest first. */
  audit: v.array(AuditEntrySchema),
  /** The environment's preview links: active ones first, then those expired or revoked in the last week. */
  previews: v.array(DeployPreviewSchema),
  /** Every live remote version against the live shell and each other (issue 45). */
  compatibility: CompatibilitySchema,
  /** The gate's answer now per running canary (optional: older APIs do not send it). */
  gates: v.optional(v.array(RolloutGateSchema)),
});
export type AdminRollouts = v.InferOutput<typeof AdminRolloutsSchema>;

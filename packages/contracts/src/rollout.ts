import {
  EnvironmentNameSchema,
  HEALTH_KINDS,
  IntegritySchema,
  isVitalKind,
  MAX_TICKET_LENGTH,
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

export const ROLLOUT_TRACKS = ['stable', 'canary', 'preview'] as const;

/**
 * One thing a page view felt on one remote's version (docs/decisions/0027-health-gate.md): a load (with its
 * ms), a failure, or a Web Vital (LCP and INP in ms, CLS as its score). No user, no address, no URL.
 * Every kind parses, the server's own too, so the API can refuse those as `server-only` and count it.
 */
export const HealthEventSchema = v.pipe(
  v.strictObject({
    remote: RemoteSchema,
    version: VersionIdSchema,
    kind: v.picklist(HEALTH_KINDS, 'Unknown kind'),
    value: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(600_000))),
  }),
  v.check((e) => !isVitalKind(e.kind) || e.value !== undefined, 'A Web Vital needs its value'),
);
export type HealthEvent = v.InferOutput<typeof HealthEventSchema>;

/** What a page sends when it is hidden: its ticket and what happened since the last send. */
export const HealthBeaconSchema = v.strictObject({
  ticket: v.pipe(
    v.string('ticket is required'),
    v.nonEmpty('ticket is required'),
    v.maxLength(MAX_TICKET_LENGTH),
  ),
  events: v.pipe(
    v.array(HealthEventSchema),
    v.minLength(1, 'events must not be empty'),
    v.maxLength(40, 'at most 40 events a report'),
  ),
});
export type HealthBeacon = v.InferOutput<typeof HealthBeaconSchema>;

/**
 * Why a report was refused: counted apart, so administrators see that someone tried. `server-only`: an
 * event of a kind only the server records (a server-render failure comes from the page view's ticket).
 */
export const HEALTH_REFUSALS = [
  'malformed',
  'forged',
  'expired',
  'replayed',
  'mismatched',
  'server-only',
] as const;
export type HealthRefusal = (typeof HEALTH_REFUSALS)[number];

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
  'watch-stop',
  'adopt',
  'preview-revoke',
  /** A dev override link made or revoked (issue 47, docs/decisions/0042-dev-overrides.md). */
  'override',
  'override-revoke',
  /**
   * A browser opened a dev override link (the edge accepted it and set its cookie), or left it with Exit in
   * the banner; actor `visitor <address>`, no token. At most one of each per link and address a minute.
   */
  'override-open',
  'override-exit',
  /**
   * A shell build checked with force past conflicts with this remote's live versions (issue 45): one row per
   * environment and remote it concerns, so the remote's own history says why it may break.
   */
  'shell-forced',
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

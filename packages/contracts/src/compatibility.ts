import { EnvironmentNameSchema, type GateConflict, REMOTE_PACKAGES } from '@app/rollout';
import * as v from 'valibot';

/**
 * The compatibility gate's answers (issue 45): what the deploy API says when it refuses a release, a rollout
 * step, a preview or a shell, and the table `pnpm rollout status` and /admin/rollouts draw per environment.
 * An entry of its own (`@app/contracts/compatibility`): only the API, the CLI and the admin screen load it.
 */

/** Where a live build stands in an environment. 'shell' is the one shell every environment serves. */
export const LIVE_TRACKS = ['shell', 'stable', 'canary', 'preview'] as const;
export type LiveTrack = (typeof LIVE_TRACKS)[number];

export const CONFLICT_KINDS = [
  /** The consumer imports an export the provider's copy of the package does not have. */
  'missing-export',
  /** The provider has the export with another type than the consumer was built against. */
  'changed-export',
  /** A library singleton (react, react-dom, @emotion/react, react-router through @app/router) of another major. */
  'library-major',
  /** The exposed module no longer accepts what its caller passes (or is gone). */
  'exposed-interface',
  /** The remote was built with a Module Federation runtime the shell's does not cover. */
  'federation-runtime',
  /** Something the gate must read could not be read (a manifest, a build contract): it cannot vouch. */
  'unknown',
] as const;
export type ConflictKind = (typeof CONFLICT_KINDS)[number];

/** One conflict, named so that a person can act on it: what, who needs it, who provides it. */
export const CompatConflictSchema = v.object({
  kind: v.picklist(CONFLICT_KINDS),
  /** The shared package ('@app/ui'), the library ('react'), the exposed module ('mf_research/App'), or the file. */
  package: v.string(),
  /** The export concerned, when there is one. */
  export: v.optional(v.string()),
  /** Who needs it: 'mf-research 1.0.0-ab12cd34ef (the release)', 'mf-account 1.0.0-… (canary in production)'. */
  needs: v.string(),
  /** Who should provide it: 'the live shell', 'the new shell', 'mf-survey 1.0.0-… (stable in staging)'. */
  provider: v.string(),
  /** The conflict in one sentence (the types when they differ). */
  detail: v.string(),
}) satisfies v.GenericSchema<GateConflict>;
export type CompatConflict = v.InferOutput<typeof CompatConflictSchema>;

export const COMPAT_STATUSES = ['ok', 'conflict', 'unknown'] as const;
export type CompatStatus = (typeof COMPAT_STATUSES)[number];

/** One remote version live in the environment, against one shared package (or its exposed module). */
export const CompatRowSchema = v.object({
  remote: v.picklist(REMOTE_PACKAGES, 'Unknown remote'),
  version: v.string(),
  track: v.picklist(LIVE_TRACKS),
  /** '@app/ui', 'react', 'mf_research/App' (what the shell calls), or 'federation runtime'. */
  package: v.string(),
  /** What the remote requires, in words: '4 exports: Button, Card, …', 'major 19', 'props {}'. */
  required: v.string(),
  /** What the live shell provides, in words ('key 3fa9…, 21 exports', '19.2.0'). */
  provided: v.string(),
  status: v.picklist(COMPAT_STATUSES),
  conflicts: v.array(CompatConflictSchema),
});
export type CompatRow = v.InferOutput<typeof CompatRowSchema>;

/** GET DEPLOY_PATHS.compatibility(env): every live remote version against the live shell and each other. */
export const CompatibilitySchema = v.object({
  environment: EnvironmentNameSchema,
  /** The live shell's build: its manifest file, and the runtime it provides (null: unreadable). */
  shell: v.object({ manifest: v.string(), federationRuntime: v.nullable(v.string()) }),
  rows: v.array(CompatRowSchema),
});
export type Compatibility = v.InferOutput<typeof CompatibilitySchema>;

/** The body of a 409 from the gate: the message (with the ways forward) and the conflicts one by one. */
export const CompatRefusalSchema = v.object({
  error: v.string(),
  conflicts: v.array(CompatConflictSchema),
});
export type CompatRefusal = v.InferOutput<typeof CompatRefusalSchema>;

/** POST DEPLOY_PATHS.shellCheck: a shell build (its two files) checked against every environment's live remotes. */
export const ShellCheckRequestSchema = v.object({
  /** The build's mf-manifest.json. */
  manifest: v.unknown(),
  /** The build's mf-compat.json. */
  contract: v.unknown(),
});
export type ShellCheckRequest = v.InferOutput<typeof ShellCheckRequestSchema>;

export const ShellCheckResultSchema = v.object({
  /** Every environment checked, and how many live remote versions each has. */
  environments: v.array(v.object({ environment: EnvironmentNameSchema, liveVersions: v.number() })),
  conflicts: v.array(CompatConflictSchema),
});
export type ShellCheckResult = v.InferOutput<typeof ShellCheckResultSchema>;

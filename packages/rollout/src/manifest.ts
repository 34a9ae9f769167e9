import * as v from 'valibot';
import { IntegritySchema } from './integrity';
import { REMOTE_PACKAGES, type RemotePackage } from './remotes';
import { VersionIdSchema } from './version-id';

/**
 * The deployment manifest (docs/decisions/0009-staged-rollouts.md): per environment, per remote, the stable
 * version and at most one canary with the share of visitors who get it. Data only; written by the rollout
 * commands (atomically, audited), read by the shell at startup, served no-cache.
 */
const IsoDate = v.pipe(v.string(), v.isoTimestamp('must be an ISO timestamp'));
export const PercentSchema = v.pipe(
  v.number('percent must be a number'),
  v.integer('percent must be a whole number'),
  v.minValue(0, 'percent must be from 0 to 100'),
  v.maxValue(100, 'percent must be from 0 to 100'),
);

/** A deployment environment's name: it is also part of file names (deploy/<env>.json). */
export const ENVIRONMENT_NAME_PATTERN = /^[a-z][a-z0-9-]{0,31}$/;

export const EnvironmentNameSchema = v.pipe(
  v.string(),
  v.regex(ENVIRONMENT_NAME_PATTERN, 'must be lowercase letters, digits and dashes (e.g. local, staging)'),
);

export const CanarySchema = v.object({
  version: VersionIdSchema,
  percent: PercentSchema,
  /** When this canary was started, and when its percentage last changed (the health gate's window). */
  startedAt: IsoDate,
  stepStartedAt: IsoDate,
});
export type Canary = v.InferOutput<typeof CanarySchema>;

export const RemoteDeploymentSchema = v.pipe(
  v.object({
    stable: VersionIdSchema,
    canary: v.optional(CanarySchema),
    /** Earlier stable versions, newest first: where `rollout rollback` goes back to. */
    previous: v.optional(v.array(VersionIdSchema), []),
    /**
     * The SHA-384 digest of each named version's remoteEntry.js, recorded at release and copied here by
     * every manifest write: the shell refuses an entry whose bytes do not match (or that has none).
     */
    integrity: v.optional(v.record(VersionIdSchema, IntegritySchema)),
  }),
  v.check((r) => r.canary?.version !== r.stable, 'the canary must differ from the stable version'),
);
export type RemoteDeployment = v.InferOutput<typeof RemoteDeploymentSchema>;

const RemotesSchema = v.pipe(
  v.record(v.string(), RemoteDeploymentSchema),
  v.check(
    (remotes) => Object.keys(remotes).every((k) => (REMOTE_PACKAGES as readonly string[]).includes(k)),
    `remotes may only name ${REMOTE_PACKAGES.join(', ')}`,
  ),
);

export const DeploymentManifestSchema = v.object({
  schemaVersion: v.literal(1),
  environment: EnvironmentNameSchema,
  /** Bumped on every write, so a reader can tell two states apart and a writer can detect a lost update. */
  revision: v.pipe(v.number(), v.integer(), v.minValue(0)),
  updatedAt: IsoDate,
  remotes: RemotesSchema,
});
export type DeploymentManifest = Omit<v.InferOutput<typeof DeploymentManifestSchema>, 'remotes'> & {
  remotes: Partial<Record<RemotePackage, RemoteDeployment>>;
};

export function emptyManifest(environment: string, now = new Date()): DeploymentManifest {
  return { schemaVersion: 1, environment, revision: 0, updatedAt: now.toISOString(), remotes: {} };
}

export class ManifestError extends Error {
  override readonly name = 'ManifestError';
}

/** Validates a parsed manifest; the error names every offending field. */
export function parseManifest(raw: unknown): DeploymentManifest {
  const result = v.safeParse(DeploymentManifestSchema, raw);
  if (result.success) return result.output as DeploymentManifest;
  const details = result.issues.map((issue) => `${v.getDotPath(issue) ?? '(root)'}: ${issue.message}`);
  throw new ManifestError(`invalid deployment manifest: ${details.join('; ')}`);
}

import type { RemoteDeployment } from './manifest';

/**
 * A visitor's cohort: a stable number 0-99 from the visitor's identifier alone (not mixed with the remote's
 * name), so a visitor in the 10 % canary of two remotes sees both canaries together. The canary goes to
 * cohorts below its percentage, so raising the percentage only adds visitors (monotonic).
 *
 * The hash is FNV-1a (32-bit) followed by murmur3's finaliser, which spreads similar ids (user:1, user:2)
 * evenly; it is synchronous, so the shell decides before anything renders.
 */
export function cohortOf(identifier: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < identifier.length; i++) {
    hash ^= identifier.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return (hash >>> 0) % 100;
}

export type Track = 'stable' | 'canary';

export interface VersionChoice {
  version: string;
  track: Track;
}

export function chooseVersion(deployment: RemoteDeployment, cohort: number): VersionChoice {
  const { canary } = deployment;
  if (canary && cohort < canary.percent) return { version: canary.version, track: 'canary' };
  return { version: deployment.stable, track: 'stable' };
}

/** The identifier a cohort is drawn from: the user id when known (same version on every device). */
export function visitorIdentifier(userId: number | string | null, anonymousId: string): string {
  return userId !== null && userId !== '' ? `user:${userId}` : `anon:${anonymousId}`;
}

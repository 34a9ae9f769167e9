import { chooseVersion } from './cohort';
import type { DeploymentManifest } from './manifest';
import { type ContainerName, packageOf, type RemotePackage } from './remotes';
import { releaseManifestUrl } from './urls';

/**
 * Which build of each remote this visitor gets (docs/decisions/0009-staged-rollouts.md), decided once per
 * page view from the deployment manifest, the visitor's cohort and an active preview: by the edge before the
 * HTML is sent (docs/decisions/0026-edge.md), or by the shell when no edge wrote the plan into the page.
 *   override (a dev server, issue 47)  >  preview (a signed QA link for this remote)  >  canary (cohort below its percent)  >  stable  >  config URL
 * The stable entry is kept beside every choice: a canary or preview that fails falls back to it.
 */
export type RemoteTrack = 'override' | 'preview' | 'canary' | 'stable' | 'config';

export interface RemoteChoice {
  remote: RemotePackage;
  /** The Module Federation manifest URL to load. */
  entry: string;
  /** The released version, or null for a plain config.json URL (not versioned, no health reports). */
  version: string | null;
  track: RemoteTrack;
  /**
   * The SHA-384 its remoteEntry.js must match (recorded at release; config.json's for a plain URL). A
   * released version without one is never loaded.
   */
  integrity: string | null;
  /** Where to go when this choice fails to load; null when this already is the last resort. */
  fallback: Omit<RemoteChoice, 'remote' | 'fallback'> | null;
}

/** An active preview link: this remote pinned to this released version (with its entry's digest). */
export interface PreviewPin {
  remote: RemotePackage;
  version: string;
  integrity: string;
}

/** An active dev override: this remote loaded from a dev server's manifest (never versioned, never pinned). */
export interface OverridePin {
  remote: RemotePackage;
  entry: string;
}

export interface PlanInput {
  /** config.json's plain URL per remote: used when the manifest has no stable version for it. */
  configUrls: Record<ContainerName, string>;
  /** config.json's entry digests for those URLs, where it gives one. */
  configIntegrity?: Partial<Record<ContainerName, string>>;
  manifest: DeploymentManifest | null;
  /** Absolute base URL of the release store (config.json's deployment.releasesUrl, resolved). */
  releasesUrl: string | null;
  cohort: number;
  preview: PreviewPin | null;
  override?: OverridePin | null;
}

export function planRemote(name: ContainerName, input: PlanInput): RemoteChoice {
  const remote = packageOf(name);
  const planned = planLive(name, input);
  if (input.override?.remote !== remote) return planned;
  // A dev server has no version (so no health report can name it) and no digest (it changes on every
  // save); when it cannot be loaded the page falls back to what this visitor would get without it.
  // The fallback is the stable (or config) build, as for a canary: a preview or canary under it is skipped.
  const { entry, version, integrity } = planned.fallback ?? planned;
  const track = planned.fallback?.track ?? (planned.track === 'config' ? 'config' : 'stable');
  return {
    remote,
    entry: input.override.entry,
    version: null,
    track: 'override',
    integrity: null,
    fallback: { entry, version, integrity, track },
  };
}

function planLive(name: ContainerName, input: PlanInput): RemoteChoice {
  const remote = packageOf(name);
  const configChoice = {
    entry: input.configUrls[name],
    version: null,
    track: 'config' as const,
    integrity: input.configIntegrity?.[name] ?? null,
  };
  const deployment = input.manifest?.remotes[remote];
  if (!deployment || !input.releasesUrl) return { remote, ...configChoice, fallback: null };
  const releasesUrl = input.releasesUrl;
  const at = (version: string) => releaseManifestUrl(releasesUrl, remote, version);
  const pinned = (version: string) => deployment.integrity?.[version] ?? null;
  const stable = {
    entry: at(deployment.stable),
    version: deployment.stable,
    track: 'stable' as const,
    integrity: pinned(deployment.stable),
  };
  if (input.preview?.remote === remote && input.preview.version !== deployment.stable) {
    return {
      remote,
      entry: at(input.preview.version),
      version: input.preview.version,
      track: 'preview',
      integrity: input.preview.integrity,
      fallback: stable,
    };
  }
  const choice = chooseVersion(deployment, input.cohort);
  if (choice.track === 'canary') {
    return {
      remote,
      entry: at(choice.version),
      version: choice.version,
      track: 'canary',
      integrity: pinned(choice.version),
      fallback: stable,
    };
  }
  return { remote, ...stable, fallback: null };
}

export function planRemotes(
  names: readonly ContainerName[],
  input: PlanInput,
): Record<ContainerName, RemoteChoice> {
  return Object.fromEntries(names.map((name) => [name, planRemote(name, input)])) as Record<
    ContainerName,
    RemoteChoice
  >;
}

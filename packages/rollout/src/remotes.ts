/**
 * The remotes that can be released and rolled out, by package name (what a team types: `mf-research`) and
 * by Module Federation container name (what the runtime uses: `mf_research`). One list for the release
 * commands, the deployment manifest, the shell and the API.
 */
export const REMOTE_PACKAGES = ['mf-account', 'mf-research', 'mf-survey', 'mf-public-pages'] as const;
export type RemotePackage = (typeof REMOTE_PACKAGES)[number];

export type ContainerName = 'mf_account' | 'mf_research' | 'mf_survey' | 'mf_public_pages';

/** The same remotes by container name, in the same order. */
export const REMOTE_CONTAINERS: readonly ContainerName[] = REMOTE_PACKAGES.map(
  (remote) => remote.replace(/-/g, '_') as ContainerName,
);

export function containerOf(remote: RemotePackage): ContainerName {
  return remote.replace(/-/g, '_') as ContainerName;
}

export function packageOf(container: ContainerName): RemotePackage {
  return container.replace(/_/g, '-') as RemotePackage;
}

export function isRemotePackage(value: unknown): value is RemotePackage {
  return typeof value === 'string' && (REMOTE_PACKAGES as readonly string[]).includes(value);
}

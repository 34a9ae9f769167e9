import type { RemotePackage } from './remotes';

/** Where a released version's Module Federation manifest lives, under the release store's base URL. */
export function releaseManifestUrl(releasesBaseUrl: string, remote: RemotePackage, version: string): string {
  const base = releasesBaseUrl.endsWith('/') ? releasesBaseUrl : `${releasesBaseUrl}/`;
  return `${base}${remote}/${version}/mf-manifest.json`;
}

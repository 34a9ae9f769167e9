/**
 * The files a remote's `./App` needs first, read from its Module Federation manifest (mf-manifest.json):
 * the entry and the exposed module's synchronous chunks. The edge writes preloads for them into the page
 * (it reads the release's manifest from disk); the shell's first script does the same when no edge did.
 */
export interface MfManifest {
  metaData?: { publicPath?: string; remoteEntry?: { name?: string; path?: string } };
  exposes?: Array<{ path?: string; assets?: { js?: { sync?: string[] } } }>;
}

/** Absolute URLs: [entry, ...chunks] of `./App`, or [] when the manifest names no entry. */
export function remoteAppFiles(manifestUrl: string, manifest: MfManifest): string[] {
  const { publicPath, remoteEntry } = manifest.metaData ?? {};
  if (!remoteEntry?.name) return [];
  const base = !publicPath || publicPath === 'auto' ? new URL('.', manifestUrl).href : publicPath;
  const at = (file: string) => new URL(file, base).href;
  const app = manifest.exposes?.find((e) => e.path === './App');
  return [
    at(remoteEntry.path ? `${remoteEntry.path}/${remoteEntry.name}` : remoteEntry.name),
    ...(app?.assets?.js?.sync ?? []).map(at),
  ];
}

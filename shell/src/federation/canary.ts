/**
 * Canary rollout: each browser gets a stable bucket 0-99 (stored), and a remote with a canary is served
 * from the canary URL when the bucket is below its percent. The same user keeps the same version.
 */
const BUCKET_KEY = 'rollout-bucket';

export function rolloutBucket(storage: Pick<Storage, 'getItem' | 'setItem'> = window.localStorage): number {
  try {
    const stored = Number(storage.getItem(BUCKET_KEY));
    if (storage.getItem(BUCKET_KEY) !== null && Number.isInteger(stored) && stored >= 0 && stored < 100)
      return stored;
    const bucket = Math.floor(Math.random() * 100);
    storage.setItem(BUCKET_KEY, String(bucket));
    return bucket;
  } catch {
    return 99; // Without storage, stay on the stable version.
  }
}

export function pickRemoteUrl(
  remote: { url: string; canary?: { url: string; percent: number } | undefined },
  bucket: number,
): string {
  return remote.canary && bucket < remote.canary.percent ? remote.canary.url : remote.url;
}

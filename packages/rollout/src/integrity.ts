import * as v from 'valibot';

/**
 * Subresource integrity for remote entries (docs/decisions/0015-front-door.md): the shell loads a released
 * remote's remoteEntry.js only when its bytes match the SHA-384 digest recorded for that version when it
 * was released. The digest travels in the deployment manifest (per version) and in preview grants.
 */
export const ENTRY_FILE = 'remoteEntry.js';

export const IntegritySchema = v.pipe(
  v.string(),
  v.regex(/^sha384-[A-Za-z0-9+/]{64}$/, 'must be a sha384-<base64> digest'),
);

/** The URL of a remote's entry, from the URL of its mf-manifest.json (our builds put both side by side). */
export function entryUrlOf(manifestUrl: string, base?: string): string {
  return new URL(ENTRY_FILE, new URL(manifestUrl, base)).href;
}

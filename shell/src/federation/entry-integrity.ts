import { entryUrlOf } from '@app/rollout';
import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';

/**
 * Integrity-pinned remotes (docs/decisions/0015-front-door.md). The Module Federation runtime has no
 * subresource integrity of its own; its `createScript` hook lets the shell make the <script> for a remote's
 * entry itself, with the SHA-384 recorded for that version and `crossorigin`, so the browser refuses bytes
 * that do not match (the load fails: the region falls back, and the failure is reported like any other).
 */
const pins = new Map<string, string>();

/** Pins (or, with null, unpins) the entry next to a remote's mf-manifest.json. */
export function pinEntry(manifestUrl: string, integrity: string | null): void {
  const entry = entryUrlOf(manifestUrl, window.location.href);
  if (integrity) pins.set(entry, integrity);
  else pins.delete(entry);
}

export function pinnedIntegrity(url: string): string | null {
  return pins.get(new URL(url, window.location.href).href) ?? null;
}

export function entryIntegrityPlugin(): ModuleFederationRuntimePlugin {
  return {
    name: 'entry-integrity',
    createScript({ url }) {
      const integrity = pinnedIntegrity(url);
      if (!integrity) return undefined;
      const script = document.createElement('script');
      script.src = url;
      script.integrity = integrity;
      // SRI needs a CORS-mode request; the remotes' servers answer the shell's origin.
      script.crossOrigin = 'anonymous';
      return script;
    },
  };
}

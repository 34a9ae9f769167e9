import type { SharedEntry } from './types';

/** Only package roots are gated: 'react/jsx-runtime' travels with 'react'. */
export function packageRoot(name: string): string {
  const parts = name.split('/');
  return name.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? name);
}

/**
 * The singletons a build shares, by package root (the root's own entry when listed, else its first
 * subpath). A module shared but not as a singleton (@app/contracts) is absent: where the page's copy does
 * not match, the container loads its own, so it never conflicts. A manifest that does not say is read as
 * tooling/webpack's list, where everything shared but @app/contracts is a singleton.
 */
export function sharedSingletons(shared: readonly SharedEntry[]): Map<string, SharedEntry> {
  const roots = new Map<string, SharedEntry>();
  for (const entry of shared) {
    if (entry.singleton === false) continue;
    const root = packageRoot(entry.name);
    if (!roots.has(root) || entry.name === root) roots.set(root, entry);
  }
  return roots;
}

export function parseVersion(version: string | undefined | false): [number, number, number] | null {
  if (!version) return null;
  const match = /(\d+)\.(\d+)\.(\d+)/.exec(version);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : null;
}

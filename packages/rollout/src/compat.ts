/**
 * The compatibility gate: may a remote built against these shared singletons run in the live shell?
 * Inputs are the `shared` lists of two mf-manifest.json files (the remote's and the shell's).
 *
 * - react, react-dom, react-router-dom, @emotion/react: the shell's copy is the one every remote uses
 *   (singletons, loaded-first), so the majors must match.
 * - our @app/* packages are contracts: the shell must provide the version the remote requires or a later
 *   one of the same major; a version the shell does not know yet (newer minor, other major) is refused.
 * - a module shared but not as a singleton (@app/contracts) never conflicts: where the shell's copy does
 *   not match, the remote loads its own.
 */
export interface SharedEntry {
  name: string;
  version?: string;
  requiredVersion?: string | false;
  singleton?: boolean;
}

export const GATED_LIBRARIES = ['react', 'react-dom', 'react-router-dom', '@emotion/react'] as const;

function parse(version: string | undefined | false): [number, number, number] | null {
  if (!version) return null;
  const match = /(\d+)\.(\d+)\.(\d+)/.exec(version);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : null;
}

function compare(a: [number, number, number], b: [number, number, number]): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** Only package roots are gated: 'react/jsx-runtime' travels with 'react'. */
function root(name: string): string {
  const parts = name.split('/');
  return name.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? name);
}

function conflictOf(
  name: string,
  entry: SharedEntry,
  provided: Map<string, string | undefined>,
): string | null {
  const wanted = parse(entry.requiredVersion || entry.version);
  if (!wanted) return null;
  const wantedText = wanted.join('.');
  if (!provided.has(name)) return `${name}: the remote requires ${wantedText}, the shell provides none`;
  const has = parse(provided.get(name));
  if (!has) return `${name}: the remote requires ${wantedText}, the shell's version is unknown`;
  const hasText = has.join('.');
  if (has[0] !== wanted[0]) {
    return `${name}: the remote requires major ${wanted[0]} (${wantedText}), the shell provides ${hasText}`;
  }
  if (name.startsWith('@app/') && compare(has, wanted) < 0) {
    return `${name}: the remote requires contract ${wantedText}, the shell knows only ${hasText}`;
  }
  return null;
}

/** One line per conflicting package (its first conflicting entry, subpaths like react/jsx-runtime included). */
export function compatibilityConflicts(remote: SharedEntry[], shell: SharedEntry[]): string[] {
  const provided = new Map<string, string | undefined>();
  for (const entry of shell) {
    const name = root(entry.name);
    if (!provided.has(name) || entry.name === name) provided.set(name, entry.version);
  }
  const conflicts = new Map<string, string>();
  for (const entry of remote) {
    const name = root(entry.name);
    if (conflicts.has(name) || entry.singleton === false) continue;
    if (!name.startsWith('@app/') && !(GATED_LIBRARIES as readonly string[]).includes(name)) continue;
    const conflict = conflictOf(name, entry, provided);
    if (conflict) conflicts.set(name, conflict);
  }
  return [...conflicts.values()];
}

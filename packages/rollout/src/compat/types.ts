import type { BuildContract } from '../build-contract';

/**
 * What the compatibility gate reads of two builds and what it answers (issue 45). @app/contracts'
 * CompatConflictSchema is checked against GateConflict (contracts builds on this package, never the
 * other way round), so the API's 409 body and these rules cannot drift apart.
 */
export type GateConflictKind =
  | 'missing-export'
  | 'changed-export'
  | 'library-major'
  | 'exposed-interface'
  | 'federation-runtime'
  | 'unknown';

export interface GateConflict {
  kind: GateConflictKind;
  /** '@app/ui', 'react', 'mf_research/App', or the file that could not be read. */
  package: string;
  export?: string;
  /** Who needs it, as a person names the build: 'mf-research 1.0.0-ab12cd34ef (the release)'. */
  needs: string;
  /** Who should provide it: 'the live shell', 'mf-survey 1.0.0-… (stable in staging)'. */
  provider: string;
  detail: string;
}

/** One shared module as mf-manifest.json lists it. */
export interface SharedEntry {
  name: string;
  version?: string;
  requiredVersion?: string | false;
  singleton?: boolean;
}

/** A build as the gate sees it: its two files, null when absent or unreadable (`unreadable` says why). */
export interface BuildSide {
  /** How conflicts name this build. */
  who: string;
  manifest: { shared: SharedEntry[] } | null;
  contract: BuildContract | null;
  /** Which file could not be read and why, for the `unknown` conflict (else the default file names). */
  unreadable?: { file: string; reason: string };
}

/**
 * One line of the compatibility table and the conflicts behind it: what the consumer requires of one
 * package (or library, exposed module, runtime), in words, against what the provider has.
 */
export interface CompatEntry {
  package: string;
  required: string;
  provided: string;
  conflicts: GateConflict[];
}

export const conflictsOf = (entries: readonly CompatEntry[]): GateConflict[] =>
  entries.flatMap((entry) => entry.conflicts);

/** Type texts run long (a component's props written out): a conflict shows enough to recognise them. */
export function truncateType(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** 'a, b, c and 4 more': names in a table cell stay short. */
export function listNames(names: readonly string[], shown = 4): string {
  if (names.length <= shown) return names.join(', ');
  return `${names.slice(0, shown).join(', ')} and ${names.length - shown} more`;
}

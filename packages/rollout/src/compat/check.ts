import { BUILD_CONTRACT_FILE } from '../build-contract';
import { callEntries } from './calls';
import { libraryEntries } from './libraries';
import { runtimeEntry } from './runtime';
import { surfaceEntries } from './surface';
import { type BuildSide, type CompatEntry, conflictsOf, type GateConflict } from './types';

const MF_MANIFEST = 'mf-manifest.json';

/**
 * The gate cannot vouch for a build whose files it cannot read: one `unknown` conflict naming the file
 * (the first side that lacks one), instead of a list of guesses.
 */
function unknownEntry(
  sides: readonly BuildSide[],
  needs: BuildSide,
  provider: BuildSide,
  files: { manifest: boolean },
): CompatEntry | null {
  for (const side of sides) {
    const file =
      side.unreadable?.file ??
      (files.manifest && !side.manifest ? MF_MANIFEST : !side.contract ? BUILD_CONTRACT_FILE : null);
    if (!file) continue;
    const conflict: GateConflict = {
      kind: 'unknown',
      package: file,
      needs: needs.who,
      provider: provider.who,
      detail: `${side.who}: ${side.unreadable?.reason ?? `${file} is missing`}; nothing can be checked without it`,
    };
    return { package: file, required: 'unknown', provided: 'unknown', conflicts: [conflict] };
  }
  return null;
}

/**
 * Everything a consumer (a remote) needs of its provider (the shell, whose singletons and runtime the page
 * runs on): the @app surfaces it imports, the library majors, the runtime, and the exposed modules either
 * one calls of the other.
 */
export function compatEntries(consumer: BuildSide, provider: BuildSide): CompatEntry[] {
  const unknown = unknownEntry([consumer, provider], consumer, provider, { manifest: true });
  if (unknown) return [unknown];
  return [
    ...surfaceEntries(consumer, provider),
    ...libraryEntries(consumer, provider),
    ...callEntries(provider, consumer),
    ...callEntries(consumer, provider),
    runtimeEntry(consumer, provider),
  ];
}

/** Two containers on one page that provide each other nothing but may call each other (two remotes). */
export function peerEntries(a: BuildSide, b: BuildSide): CompatEntry[] {
  const unknown = unknownEntry([a, b], a, b, { manifest: false });
  if (unknown) return [unknown];
  return [...callEntries(a, b), ...callEntries(b, a)];
}

export const compatConflicts = (consumer: BuildSide, provider: BuildSide): GateConflict[] =>
  conflictsOf(compatEntries(consumer, provider));

export const callConflicts = (caller: BuildSide, callee: BuildSide): GateConflict[] =>
  conflictsOf(callEntries(caller, callee));

export const peerConflicts = (a: BuildSide, b: BuildSide): GateConflict[] => conflictsOf(peerEntries(a, b));

import { sharedSingletons } from './shared';
import { type BuildSide, type CompatEntry, type GateConflict, listNames, truncateType } from './types';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * Our @app packages by what the code uses (no version numbers: they are never bumped). For each shared
 * package the consumer imports from, each export it imports must be in the provider's copy with the type
 * the consumer was compiled against. An export nobody imports may change or go freely. A package the
 * consumer does not share as a singleton is a private copy bundled in it: the provider's is never used.
 */
export function surfaceEntries(consumer: BuildSide, provider: BuildSide): CompatEntry[] {
  const shared = sharedSingletons(consumer.manifest?.shared ?? []);
  const entries: CompatEntry[] = [];
  for (const [pkg, required] of Object.entries(consumer.contract?.requires ?? {})) {
    if (!shared.has(pkg)) continue;
    const provided = provider.contract?.provides[pkg];
    const conflicts: GateConflict[] = [];
    for (const [name, type] of Object.entries(required)) {
      const base = { package: pkg, export: name, needs: consumer.who, provider: provider.who };
      const theirs = provided?.exports[name];
      if (theirs === undefined) {
        conflicts.push({
          ...base,
          kind: 'missing-export',
          detail: provided
            ? `the provider's ${pkg} has no export ${name} (built against ${truncateType(type)})`
            : `the provider does not carry ${pkg} at all`,
        });
      } else if (theirs !== type) {
        conflicts.push({
          ...base,
          kind: 'changed-export',
          detail: `built against ${truncateType(type)}, the provider has ${truncateType(theirs)}`,
        });
      }
    }
    const names = Object.keys(required);
    entries.push({
      package: pkg,
      required: `${plural(names.length, 'export')}${names.length ? `: ${listNames(names)}` : ''}`,
      provided: provided
        ? `key ${provided.key.slice(0, 10)}, ${plural(Object.keys(provided.exports).length, 'export')}`
        : 'not provided',
      conflicts,
    });
  }
  return entries;
}

import { parseVersion } from './shared';
import type { BuildSide, CompatEntry } from './types';

/**
 * Remotes run on the provider's Module Federation runtime (the shell's, loaded first): the same major,
 * and at least the minor the consumer was built with (a newer minor only adds).
 */
export function runtimeEntry(consumer: BuildSide, provider: BuildSide): CompatEntry {
  const wanted = consumer.contract?.federationRuntime ?? 'unknown';
  const has = provider.contract?.federationRuntime ?? 'unknown';
  const a = parseVersion(wanted);
  const b = parseVersion(has);
  const fits = a !== null && b !== null && a[0] === b[0] && b[1] >= a[1];
  return {
    package: 'federation runtime',
    required: a ? `${a[0]}.x from ${a[0]}.${a[1]} (built with ${wanted})` : wanted,
    provided: has,
    conflicts: fits
      ? []
      : [
          {
            kind: 'federation-runtime',
            package: 'federation runtime',
            needs: consumer.who,
            provider: provider.who,
            detail: `built with @module-federation/enhanced ${wanted}, the provider runs ${has} (needs the same major and a minor at least as new)`,
          },
        ],
  };
}

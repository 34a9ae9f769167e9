import { packageRoot, parseVersion, sharedSingletons } from './shared';
import type { BuildSide, CompatEntry } from './types';

/**
 * Library singletons: the provider's copy (the shell's, loaded first) is the one every container runs, so
 * a consumer built against another major breaks. @app/router carries react-router's version (it is how
 * the router is shared). react-router-dom is no longer shared, so it is not gated.
 */
export const GATED_LIBRARIES = ['react', 'react-dom', '@emotion/react', '@app/router'] as const;

const isGated = (name: string) => (GATED_LIBRARIES as readonly string[]).includes(name);

/** @app/router is also checked by its surface: its version row names what the version is of. */
const labelOf = (name: string) => (name === '@app/router' ? '@app/router (react-router)' : name);

export function libraryEntries(consumer: BuildSide, provider: BuildSide): CompatEntry[] {
  const wanted = sharedSingletons(consumer.manifest?.shared ?? []);
  const has = sharedSingletons(provider.manifest?.shared ?? []);
  const entries: CompatEntry[] = [];
  for (const [name, entry] of wanted) {
    if (!isGated(packageRoot(name))) continue;
    const version = parseVersion(entry.requiredVersion || entry.version);
    if (!version) continue;
    const wantedText = version.join('.');
    const theirs = has.get(name);
    const hasVersion = parseVersion(theirs?.version);
    const provided = theirs ? (theirs.version ?? 'unknown version') : 'none';
    const fits = hasVersion !== null && hasVersion[0] === version[0];
    entries.push({
      package: labelOf(name),
      required: `major ${version[0]} (built with ${wantedText})`,
      provided,
      conflicts: fits
        ? []
        : [
            {
              kind: 'library-major',
              package: labelOf(name),
              needs: consumer.who,
              provider: provider.who,
              detail: !theirs
                ? `built against ${wantedText}, and the provider shares no ${name}`
                : `built against major ${version[0]} (${wantedText}), the provider has ${provided}`,
            },
          ],
    });
  }
  return entries;
}

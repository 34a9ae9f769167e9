import type { GateConflict, GateConflictKind } from './types';

/** What the provider does wrong, in the words of one conflict line. */
const PROVIDER_SIDE: Record<GateConflictKind, string> = {
  'missing-export': 'does not provide it',
  'changed-export': 'provides another type',
  'library-major': 'provides another major',
  'exposed-interface': 'does not accept it',
  'federation-runtime': 'runs another runtime',
  unknown: 'cannot be checked',
};

/** One conflict in words: `<package> <export>: <detail> (<needs> needs it; <provider> …)`. */
export function conflictText(conflict: GateConflict): string {
  const what = conflict.export ? `${conflict.package} ${conflict.export}` : conflict.package;
  return `${what}: ${conflict.detail} (${conflict.needs} needs it; ${conflict.provider} ${PROVIDER_SIDE[conflict.kind]})`;
}

/**
 * The gate's 409 text: the headline, one line per conflict, then the two ways forward and force. The one
 * place these words live: the API answers them for releases, commands, previews and shell checks alike.
 * `refused` says which side was being shipped: a consumer (a remote: its provider must come first) or the
 * provider itself (a new shell: the remotes that still need what it drops must move first).
 */
export function compatMessage(
  headline: string,
  conflicts: readonly GateConflict[],
  refused: 'consumer' | 'provider' = 'consumer',
): string {
  const packages = [
    ...new Set(
      conflicts
        .filter((c) => c.kind === 'missing-export' || c.kind === 'changed-export')
        .map((c) => c.package),
    ),
  ];
  const copies = (packages.length ? packages : ['<pkg>']).map((p) => `'${p}'`).join(', ');
  const ways =
    refused === 'consumer'
      ? [
          '  1. Ship the provider first: for the shell, `pnpm ship-shell` (checked against every live remote, docs/shipping.md); then try this again.',
          `  2. Or bundle a private copy in the remote: \`privateCopies: [${copies}]\` in the remote's webpack.config.mjs, then release again.`,
        ]
      : [
          '  1. Ship the remotes named above first, built so they no longer need it, to every environment (promote them; abort a canary or revoke a preview link that still uses it); then ship the shell again (docs/shipping.md).',
          '  2. Or keep what they use: leave the export as it is, add the changed one beside it under a new name, move the remotes to it, then remove the old one.',
        ];
  return [
    `${headline}:`,
    ...conflicts.map((conflict) => `- ${conflictText(conflict)}`),
    'Two ways forward:',
    ...ways,
    '--force (?force=1) goes ahead anyway (audited).',
  ].join('\n');
}

/** The conflicts in one line, for an audit row's reason. */
export function conflictsSummary(conflicts: readonly GateConflict[]): string {
  return conflicts.map(conflictText).join('; ');
}

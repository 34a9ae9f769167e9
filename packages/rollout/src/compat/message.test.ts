import { describe, expect, it } from 'vitest';
import { compatMessage } from './message';

describe('the refusal’s text', () => {
  it('has one line per conflict and the two ways forward', () => {
    const text = compatMessage(
      'mf-research 1.0.0-abcdefabcd is not compatible with what is live in production',
      [
        {
          kind: 'missing-export',
          package: '@app/ui',
          export: 'renderWhenNear',
          needs: 'mf-research 1.0.0-abcdefabcd (the release)',
          provider: 'the live shell',
          detail: "the provider's @app/ui has no export renderWhenNear (built against (f) => void)",
        },
      ],
    );
    expect(text).toBe(
      [
        'mf-research 1.0.0-abcdefabcd is not compatible with what is live in production:',
        "- @app/ui renderWhenNear: the provider's @app/ui has no export renderWhenNear (built against (f) => void) (mf-research 1.0.0-abcdefabcd (the release) needs it; the live shell does not provide it)",
        'Two ways forward:',
        '  1. Ship the provider first: for the shell, `pnpm ship-shell` (checked against every live remote, docs/shipping.md); then try this again.',
        "  2. Or bundle a private copy in the remote: `privateCopies: ['@app/ui']` in the remote's webpack.config.mjs, then release again.",
        '--force (?force=1) goes ahead anyway (audited).',
      ].join('\n'),
    );
  });

  it('a refused provider (a new shell) is told to move the remotes first, or to keep what they use', () => {
    const text = compatMessage(
      'the new shell is not compatible with the remotes live in staging, production',
      [
        {
          kind: 'missing-export',
          package: '@app/ui',
          export: 'renderWhenNear',
          needs: 'mf-research 1.0.0-abcdefabcd (stable in production)',
          provider: 'the new shell',
          detail: "the provider's @app/ui has no export renderWhenNear (built against (f) => void)",
        },
      ],
      'provider',
    );
    expect(text).toContain('1. Ship the remotes named above first');
    expect(text).toContain('2. Or keep what they use');
    expect(text).not.toContain('privateCopies');
    expect(text).not.toContain('Ship the provider first');
  });
});

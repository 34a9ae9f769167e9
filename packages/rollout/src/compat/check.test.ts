import { describe, expect, it } from 'vitest';
import { callConflicts, compatConflicts, compatEntries, peerConflicts } from './check';
import { BUTTON, remoteContract, remoteSide, SINGLETONS, shellContract, shellSide, side } from './fixtures';

const ui = (exports: Record<string, string>) => ({ '@app/ui': { key: 'k', exports } });
const session = { '@app/session': { key: 's', exports: { useSession: '() => Session' } } };

describe('@app packages by surface', () => {
  it('refuses an export the remote uses and the shell lacks (added in the remote’s copy)', () => {
    const remote = remoteSide({ requires: { '@app/ui': { Button: BUTTON, renderWhenNear: '(f) => void' } } });
    expect(compatConflicts(remote, shellSide())).toEqual([
      {
        kind: 'missing-export',
        package: '@app/ui',
        export: 'renderWhenNear',
        needs: 'mf-research 1.0.0-abcdefabcd (the release)',
        provider: 'the live shell',
        detail: "the provider's @app/ui has no export renderWhenNear (built against (f) => void)",
      },
    ]);
  });

  it('accepts an export the shell added that the remote does not use', () => {
    const shell = shellSide({
      provides: { ...ui({ Button: BUTTON, renderWhenNear: '(f) => void' }), ...session },
    });
    expect(compatConflicts(remoteSide(), shell)).toEqual([]);
  });

  it('refuses a removed export that is used, and accepts one removed that nobody uses', () => {
    const withoutButton = shellSide({ provides: { ...ui({ Card: '() => Element' }), ...session } });
    expect(compatConflicts(remoteSide(), withoutButton).map((c) => [c.kind, c.export])).toEqual([
      ['missing-export', 'Button'],
    ]);
    const withoutCard = shellSide({ provides: { ...ui({ Button: BUTTON }), ...session } });
    expect(compatConflicts(remoteSide(), withoutCard)).toEqual([]);
  });

  it('refuses a changed type, showing both (each cut to ~160 characters)', () => {
    const long = `(props: { ${'x'.repeat(300)} }) => Element`;
    const [conflict] = compatConflicts(
      remoteSide(),
      shellSide({ provides: { ...ui({ Button: long }), ...session } }),
    );
    expect(conflict?.kind).toBe('changed-export');
    expect(conflict?.detail).toContain(`built against ${BUTTON}, the provider has (props: { xxx`);
    expect(conflict?.detail.length).toBeLessThan(BUTTON.length + 220);
  });

  it('accepts anything of a package the remote bundles as a private copy (not shared as a singleton)', () => {
    const privateUi = SINGLETONS.filter((s) => s.name !== '@app/ui');
    const remote = remoteSide({ requires: { '@app/ui': { Brand: '() => New' } } }, privateUi);
    expect(compatConflicts(remote, shellSide())).toEqual([]);
    // @app/contracts is shared but never as a singleton: it never conflicts either.
    const contracts = remoteSide({ requires: { '@app/contracts': { Brand: '() => New' } } });
    expect(compatConflicts(contracts, shellSide())).toEqual([]);
  });
});

describe('library singletons and the runtime', () => {
  it('refuses another React major (the root entry decides, not a matching subpath)', () => {
    const remoteShared = [
      { name: 'react/jsx-runtime', version: '19.3.1', singleton: true },
      { name: 'react', version: '18.3.1', requiredVersion: '18.3.1', singleton: true },
      { name: '@app/router', version: '7.1.0', singleton: true },
      { name: 'react-router-dom', version: '6.0.0', singleton: true },
      { name: 'lodash', version: '3.0.0', singleton: true },
    ];
    expect(compatConflicts(remoteSide({ requires: {} }, remoteShared), shellSide())).toEqual([
      {
        kind: 'library-major',
        package: 'react',
        needs: 'mf-research 1.0.0-abcdefabcd (the release)',
        provider: 'the live shell',
        detail: 'built against major 18 (18.3.1), the provider has 19.3.1',
      },
    ]);
  });

  it('needs the shell’s runtime major, and a minor at least the remote’s', () => {
    expect(compatConflicts(remoteSide({ federationRuntime: '2.8.0' }), shellSide())).toEqual([]);
    expect(
      compatConflicts(remoteSide({ federationRuntime: '2.10.0' }), shellSide()).map((c) => c.kind),
    ).toEqual(['federation-runtime']);
    expect(
      compatConflicts(remoteSide({ federationRuntime: '3.0.0' }), shellSide()).map((c) => c.kind),
    ).toEqual(['federation-runtime']);
  });
});

describe('exposed interfaces', () => {
  const survey = (props: ReturnType<typeof remoteContract>['exposes'][string]['props']) =>
    side('mf-survey 1.0.0-0123456789 (canary in production)', {
      ...remoteContract({ container: 'mf_survey' }),
      exposes: { './App': { type: '(props: Props) => Element', props } },
    });
  const onClose = { onClose: { type: '() => void', optional: false } };

  it('fits each call shape to one accepted member of a union (mf-survey: its routes or the modal)', () => {
    expect(callConflicts(shellSide(), survey([{}, onClose]))).toEqual([]);
    // An optional prop may be left out; a prop passed that the shape does not declare is ignored.
    expect(callConflicts(shellSide(), survey([{ onClose: { type: '() => void', optional: true } }]))).toEqual(
      [],
    );
  });

  it('names the props missing or different when no accepted shape fits', () => {
    const changed = survey([{ onClose: { type: '(saved: boolean) => void', optional: false } }]);
    expect(callConflicts(shellSide(), changed)).toEqual([
      {
        kind: 'exposed-interface',
        package: 'mf_survey/App',
        needs: 'the live shell',
        provider: 'mf-survey 1.0.0-0123456789 (canary in production)',
        detail: 'called with {}, which ./App does not accept (it accepts { onClose }): missing onClose',
      },
      {
        kind: 'exposed-interface',
        package: 'mf_survey/App',
        needs: 'the live shell',
        provider: 'mf-survey 1.0.0-0123456789 (canary in production)',
        detail:
          'called with { onClose }, which ./App does not accept (it accepts { onClose }): different onClose (passed () => void, accepts (saved: boolean) => void)',
      },
    ]);
    const needsMore = survey([{ lead: { type: 'string', optional: false } }]);
    expect(callConflicts(shellSide(), needsMore).map((c) => c.detail)).toEqual([
      'called with {}, which ./App does not accept (it accepts { lead }): missing lead',
      'called with { onClose }, which ./App does not accept (it accepts { lead }): missing lead',
    ]);
  });

  it('refuses a remote that no longer exposes ./App, and checks remotes against each other too', () => {
    const gone = side('mf-research 2', remoteContract({ exposes: {} }));
    expect(compatConflicts(gone, shellSide()).map((c) => [c.kind, c.package, c.detail])).toEqual([
      ['exposed-interface', 'mf_research/App', 'mf_research exposes no ./App (it exposes nothing)'],
    ]);
    const caller = side(
      'mf-account 1',
      remoteContract({ container: 'mf_account', calls: { 'mf_survey/App': [{}] } }),
    );
    expect(peerConflicts(caller, survey([onClose])).map((c) => [c.package, c.needs])).toEqual([
      ['mf_survey/App', 'mf-account 1'],
    ]);
    expect(peerConflicts(caller, survey([{}]))).toEqual([]);
  });
});

describe('what cannot be read', () => {
  it('is one unknown conflict naming the file', () => {
    expect(compatConflicts(side('mf-research 1', null), shellSide())).toEqual([
      {
        kind: 'unknown',
        package: 'mf-compat.json',
        needs: 'mf-research 1',
        provider: 'the live shell',
        detail: 'mf-research 1: mf-compat.json is missing; nothing can be checked without it',
      },
    ]);
    const shell = {
      ...shellSide(),
      unreadable: { file: '/srv/shell/mf-manifest.json', reason: 'not valid JSON' },
    };
    expect(
      compatConflicts(remoteSide(), { ...shell, manifest: null }).map((c) => [c.kind, c.package]),
    ).toEqual([['unknown', '/srv/shell/mf-manifest.json']]);
  });

  it('lists what each row compares, in words', () => {
    expect(compatEntries(remoteSide(), shellSide()).map((e) => [e.package, e.required, e.provided])).toEqual([
      ['@app/ui', '1 export: Button', 'key 3fa9c0d1e2, 2 exports'],
      ['@app/session', '1 export: useSession', 'key 9a8b7c6d5e, 1 export'],
      ['react', 'major 19 (built with 19.3.1)', '19.3.1'],
      ['react-dom', 'major 19 (built with 19.3.1)', '19.3.1'],
      ['@app/router (react-router)', 'major 7 (built with 7.18.5)', '7.18.5'],
      ['@emotion/react', 'major 11 (built with 11.14.0)', '11.14.0'],
      ['mf_research/App', 'props {}', 'accepts {}'],
      ['federation runtime', '2.x from 2.9 (built with 2.9.2)', '2.9.2'],
    ]);
    expect(shellContract().container).toBe('shell');
  });
});

import { describe, expect, it } from 'vitest';
import { compatibilityConflicts } from './compat';
import { parseManifest } from './manifest';
import { releaseManifestUrl } from './urls';
import { isVersionId, versionId } from './version-id';

const shell = [
  { name: 'react', version: '19.3.1', requiredVersion: '19.3.1' },
  { name: 'react/jsx-runtime', version: '19.3.1' },
  { name: 'react-dom', version: '19.3.1' },
  { name: 'react-router-dom', version: '7.18.5' },
  { name: '@emotion/react', version: '11.14.0' },
  { name: '@app/session', version: '1.2.0' },
];

describe('compatibility gate', () => {
  it('accepts a remote built against the shell’s majors and known contracts', () => {
    const remote = [
      { name: 'react', version: '19.0.0', requiredVersion: '19.0.0' },
      { name: 'react-router-dom', version: '7.1.0', requiredVersion: '7.1.0' },
      { name: '@app/session', version: '1.1.0', requiredVersion: '1.1.0' },
      { name: 'lodash', version: '4.0.0', requiredVersion: '4.0.0' },
      // Not a singleton: the remote brings its own copy when the shell's differs or is missing.
      {
        name: '@app/contracts',
        version: '1.0.0-0123456789',
        requiredVersion: '1.0.0-0123456789',
        singleton: false,
      },
    ];
    expect(compatibilityConflicts(remote, shell)).toEqual([]);
  });

  it('names every conflict: another React major, an unknown contract, a missing singleton', () => {
    const remote = [
      // A subpath that still matches must not hide the package's own conflict.
      { name: 'react/jsx-runtime', version: '19.3.1', requiredVersion: '19.3.1' },
      { name: 'react', version: '18.3.1', requiredVersion: '18.3.1' },
      { name: '@app/session', version: '1.3.0', requiredVersion: '1.3.0' },
      { name: '@app/ui', version: '1.0.0', requiredVersion: '1.0.0' },
    ];
    expect(compatibilityConflicts(remote, shell)).toEqual([
      'react: the remote requires major 18 (18.3.1), the shell provides 19.3.1',
      '@app/session: the remote requires contract 1.3.0, the shell knows only 1.2.0',
      '@app/ui: the remote requires 1.0.0, the shell provides none',
    ]);
  });
});

describe('version ids and the manifest', () => {
  it('derives ids from the package version and the content hash', () => {
    expect(versionId('1.4.0', 'abc123def4567890')).toBe('1.4.0-abc123def4');
    expect(isVersionId('1.0.0-beta.1-abc123def4')).toBe(true);
    for (const bad of ['../1.0.0-abc123def4', '1.0.0-abc123def4/x', 'latest', '1.0.0-ABC123DEF4']) {
      expect(isVersionId(bad)).toBe(false);
    }
  });

  it('validates a manifest and names the bad field', () => {
    const base = {
      schemaVersion: 1,
      environment: 'local',
      revision: 3,
      updatedAt: '2026-11-22T10:00:00.000Z',
      remotes: { 'mf-research': { stable: '1.0.0-aaaaaaaaaa' } },
    };
    expect(parseManifest(base).remotes['mf-research']?.previous).toEqual([]);
    const canary = {
      version: '1.0.0-bbbbbbbbbb',
      percent: 101,
      startedAt: base.updatedAt,
      stepStartedAt: base.updatedAt,
    };
    expect(() =>
      parseManifest({ ...base, remotes: { 'mf-research': { stable: '1.0.0-aaaaaaaaaa', canary } } }),
    ).toThrow(/remotes.mf-research.canary.percent: percent must be from 0 to 100/);
    expect(() => parseManifest({ ...base, remotes: { 'mf-other': { stable: '1.0.0-aaaaaaaaaa' } } })).toThrow(
      /remotes may only name/,
    );
  });

  it('builds release URLs under the store base', () => {
    expect(releaseManifestUrl('/releases', 'mf-research', '1.0.0-aaaaaaaaaa')).toBe(
      '/releases/mf-research/1.0.0-aaaaaaaaaa/mf-manifest.json',
    );
  });
});

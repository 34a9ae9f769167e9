import { describe, expect, it } from 'vitest';
import { parseManifest } from './manifest';
import { releaseManifestUrl } from './urls';
import { isVersionId, versionId } from './version-id';

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

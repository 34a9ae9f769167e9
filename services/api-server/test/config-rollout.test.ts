import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_DB_PATH, loadConfig } from '../src/config';

describe('rollout configuration', () => {
  it('defaults: the repository release store and deploy folder, environment production', () => {
    const { rollout, dbPath } = loadConfig({});
    expect(dbPath).toBe(DEFAULT_DB_PATH);
    expect(rollout.paths.environment).toBe('production');
    expect(path.basename(rollout.paths.store)).toBe('releases');
    expect(rollout.paths.manifestFile).toBe(path.join(rollout.paths.deployDir, 'production.json'));
  });

  it('reads RELEASE_STORE_DIR, DEPLOY_DIR, DEPLOY_ENV, ROLLOUT_HEALTH_RATE_PER_MINUTE; no preview secret any more', () => {
    const { rollout, rateLimits } = loadConfig({
      INIT_CWD: '/srv/app',
      RELEASE_STORE_DIR: 'releases',
      DEPLOY_DIR: '/var/lib/deploy',
      DEPLOY_ENV: 'staging',
      ROLLOUT_PREVIEW_SECRET: 'a-secret-of-enough-length',
      ROLLOUT_HEALTH_RATE_PER_MINUTE: '30',
    });
    expect(rollout.paths.store).toBe('/srv/app/releases');
    expect(rollout.paths.manifestFile).toBe('/var/lib/deploy/staging.json');
    expect(rollout.paths.auditFile).toBe('/var/lib/deploy/staging.audit.jsonl');
    // Preview links are stored, not signed (issue 44): the old key is not read, a short one no error.
    expect(Object.keys(rollout).sort()).toEqual(['edgeSecret', 'paths']);
    // Issue 9's name for the health limit still works (RATE_LIMIT_HEALTH is the new one).
    expect(rateLimits.limits.health).toEqual({ limit: 30, windowMs: 60_000 });
  });

  it('fails loudly on bad values', () => {
    expect(() => loadConfig({ DEPLOY_ENV: 'Prod!' })).toThrow(/DEPLOY_ENV/);
    expect(() => loadConfig({ ROLLOUT_HEALTH_RATE_PER_MINUTE: 'lots' })).toThrow(
      /ROLLOUT_HEALTH_RATE_PER_MINUTE/,
    );
    expect(() => loadConfig({ ROLLOUT_HEALTH_RATE_PER_MINUTE: '0' })).toThrow(
      /rateLimits\.limits\.health\.limit/,
    );
  });
});

describe('deploy configuration (issue 33)', () => {
  it('defaults: staging then production, production served, 100 MB bundles, 10 releases kept, 25 s feed waits', () => {
    const { deploy } = loadConfig({});
    expect(deploy).toMatchObject({
      environments: ['staging', 'production'],
      environment: 'production',
      bundleMaxBytes: 100 * 1024 * 1024,
      releaseKeep: 10,
      feedTimeoutMs: 25_000,
      previewBaseUrl: 'http://localhost:3000',
    });
    expect(deploy.shellManifest.endsWith(path.join('shell', 'dist', 'mf-manifest.json'))).toBe(true);
  });

  it('reads DEPLOY_ENVIRONMENTS, DEPLOY_ENV, DEPLOY_BUNDLE_MAX_BYTES, RELEASE_KEEP, SHELL_MANIFEST', () => {
    const { deploy } = loadConfig({
      INIT_CWD: '/srv/app',
      DEPLOY_ENVIRONMENTS: 'dev, staging,production',
      DEPLOY_ENV: 'staging',
      DEPLOY_BUNDLE_MAX_BYTES: '5000000',
      RELEASE_KEEP: '3',
      SHELL_MANIFEST: 'shell/mf-manifest.json',
    });
    expect(deploy).toMatchObject({
      environments: ['dev', 'staging', 'production'],
      environment: 'staging',
      bundleMaxBytes: 5_000_000,
      releaseKeep: 3,
      shellManifest: '/srv/app/shell/mf-manifest.json',
    });
    expect(() => loadConfig({ DEPLOY_ENVIRONMENTS: 'Prod!' })).toThrow(/deploy\.environments/);
    expect(() => loadConfig({ RELEASE_KEEP: '0' })).toThrow(/deploy\.releaseKeep/);
    expect(() => loadConfig({ DEPLOY_ENVIRONMENTS: 'staging,production', DEPLOY_ENV: 'qa' })).toThrow(
      'DEPLOY_ENV "qa" is not one of DEPLOY_ENVIRONMENTS (staging, production)',
    );
  });
});

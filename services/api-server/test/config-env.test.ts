// Variables the API reads only through config.ts (issue 35: one config module per process), beyond the
// rollout and deploy ones (config-rollout.test.ts).
import { DEFAULT_CORS_ORIGINS } from '@app/rollout';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';

describe('configuration read in one place', () => {
  it('PG_BIN_DIR: where the backups find pg_dump and pg_restore, unset by default', () => {
    expect(loadConfig({}).pgBinDir).toBeNull();
    expect(loadConfig({ PG_BIN_DIR: '/usr/lib/postgresql/15/bin' }).pgBinDir).toBe(
      '/usr/lib/postgresql/15/bin',
    );
    expect(loadConfig({ PG_BIN_DIR: '  ' }).pgBinDir).toBeNull();
  });

  it('CORS_ORIGINS: one default with the edge’s files (the pages of pnpm start and pnpm dev)', () => {
    expect(loadConfig({}).corsOrigins).toEqual(DEFAULT_CORS_ORIGINS);
    expect(loadConfig({ CORS_ORIGINS: 'https://a.test' }).corsOrigins).toEqual(['https://a.test']);
  });

  it('PREVIEW_BASE_URL defaults to PUBLIC_SITE_URL: preview links open the public site', () => {
    expect(loadConfig({}).deploy.previewBaseUrl).toBe('http://localhost:3000');
    expect(loadConfig({ PUBLIC_SITE_URL: 'https://risk.example/' }).deploy.previewBaseUrl).toBe(
      'https://risk.example',
    );
    expect(
      loadConfig({ PUBLIC_SITE_URL: 'https://risk.example', PREVIEW_BASE_URL: 'https://staging.example' })
        .deploy.previewBaseUrl,
    ).toBe('https://staging.example');
  });
});

import { describe, expect, it } from 'vitest';
import { parseRuntimeConfig, StartupError } from './runtime-config';

const remotes = {
  mf_public_pages: { url: 'http://localhost:3004/mf-manifest.json' },
  mf_account: { url: 'http://localhost:3001/mf-manifest.json' },
  mf_research: { url: 'http://localhost:3002/mf-manifest.json' },
  mf_survey: {
    url: 'http://localhost:3003/mf-manifest.json',
    canary: { url: 'http://localhost:3013/mf-manifest.json', percent: 10 },
  },
};

describe('runtime config', () => {
  it('accepts a complete config and defaults the feature flags to off', () => {
    const config = parseRuntimeConfig({ apiBaseUrl: 'http://localhost:4000', remotes });
    expect(config.apiBaseUrl).toBe('http://localhost:4000');
    expect(config.remotes.mf_survey.canary?.percent).toBe(10);
    expect(config.features).toEqual({ performanceMonitor: false, crashTestRoute: false });
  });

  it('fails with a message naming apiBaseUrl when the API address is missing', () => {
    expect(() => parseRuntimeConfig({ remotes })).toThrow(StartupError);
    expect(() => parseRuntimeConfig({ remotes })).toThrow(/apiBaseUrl/);
  });

  it('rejects an API address that is not an http(s) URL', () => {
    expect(() => parseRuntimeConfig({ apiBaseUrl: 'localhost:4000', remotes })).toThrow(/apiBaseUrl/);
    expect(() => parseRuntimeConfig({ apiBaseUrl: 'ftp://x.example', remotes })).toThrow(/apiBaseUrl/);
  });

  it('rejects a canary share outside 0-100', () => {
    const bad = {
      ...remotes,
      mf_account: { url: remotes.mf_account.url, canary: { url: remotes.mf_account.url, percent: 150 } },
    };
    expect(() => parseRuntimeConfig({ apiBaseUrl: 'http://localhost:4000', remotes: bad })).toThrow(
      /mf_account/,
    );
  });
});

import { describe, expect, it } from 'vitest';
import { parseRuntimeConfig, StartupError } from './runtime-config';

const remotes = {
  mf_public_pages: { url: 'http://localhost:3004/mf-manifest.json' },
  mf_account: { url: 'http://localhost:3001/mf-manifest.json' },
  mf_research: { url: 'http://localhost:3002/mf-manifest.json' },
  mf_survey: { url: 'http://localhost:3003/mf-manifest.json' },
};

describe('runtime config', () => {
  it('accepts a complete config and defaults the feature flags to off', () => {
    const config = parseRuntimeConfig({ apiBaseUrl: 'http://localhost:4000', remotes });
    expect(config.apiBaseUrl).toBe('http://localhost:4000');
    expect(config.deployment).toBeUndefined();
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

  it('reads the deployment block, resolving paths against the shell origin', () => {
    const config = parseRuntimeConfig({
      apiBaseUrl: 'http://localhost:4000',
      remotes,
      deployment: { manifestUrl: '/deployment.json', releasesUrl: 'https://cdn.example/releases/' },
    });
    expect(config.deployment).toEqual({
      manifestUrl: `${window.location.origin}/deployment.json`,
      releasesUrl: 'https://cdn.example/releases/',
      canaryLoadBudgetMs: 8000,
    });
  });

  it('rejects a deployment address that is neither http(s) nor a path, naming the field', () => {
    const deployment = { manifestUrl: 'javascript:alert(1)', releasesUrl: '//evil.example/' };
    expect(() => parseRuntimeConfig({ apiBaseUrl: 'http://localhost:4000', remotes, deployment })).toThrow(
      /deployment.manifestUrl: must be an http\(s\) address or a path starting with \/; deployment.releasesUrl/,
    );
  });
});

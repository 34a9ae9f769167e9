// The edge's one config module (src/config.ts, issue 35): its defaults, CORS_ORIGINS with the old name as a
// warned alias, and API_BASE_URL, the browser's API address, carried into pages, their CSP and /config.json.
import fs from 'node:fs';
import type { Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_CORS_ORIGINS } from '@app/rollout';
import { afterAll, describe, expect, it } from 'vitest';
import { edgeConfig, fileServersConfig, fileServingConfig } from '../src/config';
import { serveApp } from '../src/serve';

describe('edgeConfig', () => {
  it('defaults: production on 3000, the repository shell build and its config.json, no overrides', () => {
    const config = edgeConfig({});
    expect(config.listeners).toEqual([{ environment: 'production', port: 3000 }]);
    expect(config.host).toBe('0.0.0.0');
    expect(config.shellConfig).toBe(path.join(config.shellDist, 'config.json'));
    expect(config.shellDist.endsWith(path.join('shell', 'dist'))).toBe(true);
    expect(config).toMatchObject({ apiUrl: undefined, apiBaseUrl: undefined, drainTimeoutMs: 10_000 });
  });

  it('reads every listener, the addresses of the API and fails on a bad value with its name', () => {
    const config = edgeConfig({
      PORT: '3101',
      DEPLOY_ENV: 'staging',
      EXTRA_ENVIRONMENTS: 'production:3102',
      API_URL: 'http://127.0.0.1:4100',
      API_BASE_URL: 'http://localhost:4100',
    });
    expect(config.listeners).toEqual([
      { environment: 'staging', port: 3101 },
      { environment: 'production', port: 3102 },
    ]);
    expect(config.apiBaseUrl).toBe('http://localhost:4100');
    expect(() => edgeConfig({ API_BASE_URL: '/api' })).toThrow(/API_BASE_URL/);
    expect(() => edgeConfig({ DRAIN_TIMEOUT_MS: 'soon' })).toThrow(/DRAIN_TIMEOUT_MS/);
    expect(() => fileServersConfig({ FILE_SERVERS: '[{}]' })).toThrow(/FILE_SERVERS/);
  });
});

describe('CORS_ORIGINS', () => {
  it('defaults to the same origins as the API (one default for one concept)', () => {
    expect(fileServingConfig({}, () => undefined).corsOrigins).toEqual(DEFAULT_CORS_ORIGINS);
    expect(fileServingConfig({ CORS_ORIGINS: 'https://a.test, https://b.test' }).corsOrigins).toEqual([
      'https://a.test',
      'https://b.test',
    ]);
    expect(() => fileServingConfig({ CORS_ORIGINS: 'https://a.test/path' })).toThrow(/CORS_ORIGINS/);
  });

  it('still takes ALLOWED_ORIGINS, its old name, and says so once per process', () => {
    const warnings: string[] = [];
    const warn = (line: string) => warnings.push(line);
    expect(fileServingConfig({ ALLOWED_ORIGINS: 'https://old.test' }, warn).corsOrigins).toEqual([
      'https://old.test',
    ]);
    fileServingConfig({ ALLOWED_ORIGINS: 'https://old.test' }, warn);
    expect(warnings).toEqual([
      'edge: ALLOWED_ORIGINS is deprecated: name the origins CORS_ORIGINS (the same as the API)',
    ]);
    // CORS_ORIGINS wins when both are set.
    expect(
      fileServingConfig({ ALLOWED_ORIGINS: 'https://old.test', CORS_ORIGINS: 'https://new.test' }, warn)
        .corsOrigins,
    ).toEqual(['https://new.test']);
  });
});

describe('API_BASE_URL: the pages follow the API wherever it runs', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edge-config-'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><html><head></head><body></body></html>');
  const configFile = path.join(dir, 'config.json');
  fs.writeFileSync(
    configFile,
    JSON.stringify({
      apiBaseUrl: 'http://localhost:4000',
      remotes: Object.fromEntries(
        ['mf_account', 'mf_research', 'mf_survey', 'mf_public_pages'].map((name, i) => [
          name,
          { url: `http://localhost:${3001 + i}/mf-manifest.json` },
        ]),
      ),
    }),
  );
  let server: Server | undefined;
  afterAll(() => {
    server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('replaces config.json’s apiBaseUrl in /config.json and in the page’s CSP', async () => {
    server = await serveApp({
      name: 'shell',
      dir,
      port: 3964,
      host: '127.0.0.1',
      spa: true,
      configFile,
      apiBaseUrl: 'http://localhost:4100',
    });
    const served = (await (await fetch('http://127.0.0.1:3964/config.json')).json()) as {
      apiBaseUrl: string;
      remotes: Record<string, { url: string }>;
    };
    expect(served.apiBaseUrl).toBe('http://localhost:4100');
    expect(served.remotes.mf_account?.url).toBe('http://localhost:3001/mf-manifest.json');
    const page = await fetch('http://127.0.0.1:3964/');
    const connectSrc = (page.headers.get('content-security-policy') ?? '')
      .split(';')
      .find((d) => d.trim().startsWith('connect-src'));
    expect(connectSrc).toContain('http://localhost:4100');
    expect(connectSrc).not.toContain('http://localhost:4000');
  });
});

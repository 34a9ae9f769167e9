// What the factory hands webpack for the shell (the host) and for a remote, in production and development.
// Checked on the config object itself: building takes a minute, and the e2e suite builds for real.
import path from 'node:path';
import { REMOTE_NAMES } from '@app/federation';
import { describe, expect, it } from 'vitest';
import { APPS } from './apps.mjs';
import { SHARED_MODULES } from './shared.mjs';
import { createConfig, publicFileContent } from './webpack.mjs';

const root = path.resolve(import.meta.dirname, '..', '..');
const host = (mode) =>
  createConfig({ app: 'shell', dirname: path.join(root, 'shell'), title: 'Shell', mode });
const remote = (mode, privateCopies) =>
  createConfig({
    app: 'mf-account',
    dirname: path.join(root, 'mf-account'),
    title: 'Account',
    mode,
    privateCopies,
  });
const plugin = (config, name) => config.plugins.find((p) => p?.constructor?.name === name);
const federation = (config) => plugin(config, 'ModuleFederationPlugin')._options;

describe('createConfig', () => {
  it('a remote exposes its one module and provides no runtime of its own in production', () => {
    const mf = federation(remote('production'));
    expect(mf.name).toBe('mf_account');
    expect(mf.exposes).toEqual({ './App': './src/app.tsx' });
    expect(mf.filename).toBe('remoteEntry.js');
    expect(mf.manifest).toEqual({ fileName: 'mf-manifest.json' });
    expect(mf.experiments).toEqual({ externalRuntime: true });
    expect(mf.runtimePlugins).toEqual([]);
  });

  it('a remote may bundle a private copy of a shared package; its build contract then does not require it', () => {
    const config = remote('production', ['@app/ui']);
    expect(federation(config).shared['@app/ui']).toBeUndefined();
    expect(federation(config).shared['@app/session']).toEqual(SHARED_MODULES['@app/session']);
    const contract = plugin(config, 'BuildContractPlugin').options;
    expect(contract.sharedPackages).not.toContain('@app/ui');
    expect(contract.sharedPackages).toContain('@app/session');
    expect(() =>
      createConfig({
        app: 'shell',
        dirname: path.join(root, 'shell'),
        title: 'Shell',
        privateCopies: ['@app/ui'],
      }),
    ).toThrow(/no private copies/);
  });

  it('production builds write their build contract; development builds do not', () => {
    expect(plugin(remote('production'), 'BuildContractPlugin').options).toMatchObject({
      container: 'mf_account',
      exposes: { './App': './src/app.tsx' },
      isShell: false,
    });
    expect(plugin(host('production'), 'BuildContractPlugin').options).toMatchObject({
      isShell: true,
      exposes: {},
    });
    expect(plugin(remote('development'), 'BuildContractPlugin')).toBeUndefined();
  });

  it('the shell exposes nothing and provides the one runtime (the ESM build of the inject plugin)', () => {
    const mf = federation(host('production'));
    expect(mf.exposes).toEqual({});
    expect(mf.runtimePlugins).toHaveLength(1);
    expect(mf.runtimePlugins[0]).toMatch(/inject-external-runtime-core-plugin.*\.js$/);
    expect(mf.runtimePlugins[0]).not.toMatch(/\.cjs$/);
    expect(mf.shareStrategy).toBe('loaded-first');
  });

  it("puts the shell's libraries in one chunk in production, and leaves remotes and development alone", () => {
    const group = host('production').optimization.splitChunks.cacheGroups.sharedLibraries;
    expect(group).toMatchObject({ name: 'shared-libraries', chunks: 'async', enforce: true });
    const from = (resource) => group.test({ resource });
    expect(from(path.join(root, 'node_modules/.pnpm/react-dom@19/node_modules/react-dom/index.js'))).toBe(
      true,
    );
    expect(from(path.join(root, 'packages/ui/src/index.ts'))).toBe(true);
    // The shell's own lazy pages keep their chunks, and modules without a file (the federation's consume
    // modules) stay where webpack puts them.
    expect(from(path.join(root, 'shell/src/admin/rollouts-page.tsx'))).toBe(false);
    expect(group.test({})).toBe(false);
    expect(remote('production').optimization.splitChunks).toBeUndefined();
    expect(host('development').optimization.splitChunks).toBeUndefined();
  });

  it('shares React, the router, emotion and our context packages as singletons pinned to one version', () => {
    const { shared } = federation(remote('production'));
    expect(shared).toEqual(SHARED_MODULES);
    for (const name of [
      'react',
      'react-dom',
      'react-dom/client',
      '@app/router',
      '@emotion/react',
      '@app/session',
      '@app/ui',
    ]) {
      expect(shared[name], name).toMatchObject({ singleton: true, strictVersion: false });
      expect(shared[name].version, name).toMatch(/^\d+\.\d+\.\d+$/);
      expect(shared[name].requiredVersion, name).toBe(shared[name].version);
    }
    // The contracts are shared only between identical builds: a digest of their sources as the version.
    expect(shared['@app/contracts']).toMatchObject({ singleton: false, strictVersion: true });
    expect(shared['@app/contracts'].version).toMatch(/^\d+\.\d+\.\d+-s[0-9a-f]{10}$/);
  });

  it('the shell provides the same versions, and consumes its own singletons without checking them against itself', () => {
    const { shared } = federation(host('production'));
    for (const [name, config] of Object.entries(SHARED_MODULES)) {
      expect(shared[name].version, name).toBe(config.version);
      expect(shared[name].singleton, name).toBe(config.singleton);
      expect(shared[name].requiredVersion, name).toBe(config.singleton ? false : config.requiredVersion);
    }
    expect(shared['@app/contracts']).toEqual(SHARED_MODULES['@app/contracts']);
  });

  it('production: minified, hashed chunks, hidden source maps, the router production build, pre-rendered pages', () => {
    const config = remote('production');
    expect(config.mode).toBe('production');
    expect(config.devtool).toBe('hidden-source-map');
    expect(config.output.chunkFilename).toBe('[name].[contenthash:10].js');
    expect(config.optimization.minimize).toBe(true);
    expect(config.resolve.alias['react-router$']).toMatch(
      /react-router[\\/]dist[\\/]production[\\/]index\.mjs$/,
    );
    expect(plugin(config, 'PrerenderPlugin')).toBeDefined();
  });

  it('development: readable output, no aliases, nothing pre-rendered, a full federation runtime per app', () => {
    for (const config of [host('development'), remote('development')]) {
      expect(config.mode).toBe('development');
      expect(config.optimization.minimize).toBe(false);
      expect(config.resolve.alias).toEqual({});
      expect(plugin(config, 'PrerenderPlugin')).toBeUndefined();
      expect(federation(config).experiments).toEqual({ optimization: { target: 'web' } });
    }
  });

  it('takes the container name and the port from the one list of apps, and refuses an unknown app', () => {
    expect(federation(remote('production')).name).toBe('mf_account');
    expect(remote('development').devServer.port).toBe(3001);
    expect(host('development').devServer.port).toBe(3000);
    expect(() => createConfig({ app: 'mf-nope', dirname: root, title: 'x' })).toThrow(/not an app/);
  });

  it("lists exactly the remotes the runtime contract names (packages/federation's REMOTE_NAMES)", () => {
    const remotes = APPS.filter((app) => app.name !== 'shell').map((app) => app.container);
    expect([...remotes].sort()).toEqual([...REMOTE_NAMES].sort());
    expect(new Set(APPS.map((app) => app.port)).size).toBe(APPS.length);
  });
});

describe('publicFileContent', () => {
  const config = Buffer.from('{"apiBaseUrl":"http://localhost:4000","remotes":{}}');
  it('points a development config.json at API_BASE_URL, and leaves everything else as written', () => {
    const moved = JSON.parse(publicFileContent('config.json', config, 'http://localhost:4100').toString());
    expect(moved).toEqual({ apiBaseUrl: 'http://localhost:4100', remotes: {} });
    expect(publicFileContent('config.json', config, undefined)).toBe(config);
    expect(publicFileContent('robots.txt', config, 'http://localhost:4100')).toBe(config);
  });
});

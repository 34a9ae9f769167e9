import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CompatRefusal, ShellCheckResult } from '@app/contracts/compatibility';
import { DEPLOY_PATHS } from '@app/contracts/deploy';
import { BUILD_CONTRACT_FILE, type BuildContract } from '@app/rollout';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createContext } from './context';
import { DeployApiError } from './deploy-client';
import { RolloutError } from './errors';
import { formatShipped, installOrder, installShell, replaceFile, shipShell } from './ship-shell';
import { type FakeAnswer, mfManifest, runCli, SHELL_SHARED, startFakeApi } from './test-support';

const CONTRACT: BuildContract = {
  schema: 1,
  container: 'shell',
  federationRuntime: '0.21.6',
  provides: {
    '@app/ui': { key: 'ui-key-2', exports: { Button: 'FC<ButtonProps>', Card: 'FC', DataGrid: 'FC' } },
    '@app/session': { key: 'session-key-1', exports: { useSession: '() => Session' } },
  },
  requires: {},
  exposes: {},
  calls: { 'mf_research/App': [{}] },
};

let work: string;
beforeEach(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'ship-shell-test-'));
});
afterEach(() => fs.rmSync(work, { recursive: true, force: true }));

/** A shell build like webpack's: hashed chunks and their maps, entry files, the page, the default config. */
function shellBuild(name: string, o: { version?: string; contract?: BuildContract | null } = {}): string {
  const dir = path.join(work, name);
  const version = o.version ?? 'new';
  const files: Record<string, string> = {
    'index.html': `<script src="/main.js"></script><!-- ${version} -->`,
    'main.js': `/* main ${version} */ import("./shared-libraries.${version === 'new' ? 'bbbbbbbbbb' : 'aaaaaaaaaa'}.js")`,
    'main.js.map': '{}',
    [`shared-libraries.${version === 'new' ? 'bbbbbbbbbb' : 'aaaaaaaaaa'}.js`]: `/* libs ${version} */`,
    [`shared-libraries.${version === 'new' ? 'bbbbbbbbbb' : 'aaaaaaaaaa'}.js.map`]: '{}',
    '232.ea9e56def5.js': '/* a chunk both builds share */',
    'config.json': '{"apiBaseUrl":"http://localhost:4000"}',
    'mf-manifest.json': JSON.stringify(mfManifest('shell', '1.0.0', SHELL_SHARED)),
    'mf-manifest-stats.json': '{}',
  };
  if (o.contract !== null) files[BUILD_CONTRACT_FILE] = JSON.stringify(o.contract ?? CONTRACT);
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

/** The live folder: the previous build, with the operator's own config.json. */
function liveFolder(): string {
  const live = shellBuild('live', { version: 'old', contract: null });
  fs.writeFileSync(path.join(live, 'config.json'), '{"apiBaseUrl":"https://api.example.com"}');
  return live;
}

const read = (dir: string, file: string) => fs.readFileSync(path.join(dir, file), 'utf8');

describe('installing a shell build into the live folder', () => {
  it('orders hashed files first, then entry files (contract, manifest last of them), the page last; keeps config.json', () => {
    const files = [
      'index.html',
      'main.js',
      'mf-manifest.json',
      BUILD_CONTRACT_FILE,
      'config.json',
      '677.4be3f07387.js',
      'shared-libraries.7527c47320.js.map',
      'main.js.map',
    ];
    expect(installOrder(files, true)).toEqual({
      order: [
        '677.4be3f07387.js',
        'shared-libraries.7527c47320.js.map',
        'main.js',
        'main.js.map',
        BUILD_CONTRACT_FILE,
        'mf-manifest.json',
        'index.html',
      ],
      kept: ['config.json'],
    });
    // A live folder without a runtime config gets the build's.
    expect(installOrder(files, false).order).toContain('config.json');
    expect(installOrder(files, false).order.at(-1)).toBe('index.html');
  });

  it('writes in that order, keeps the old chunks and the live config.json, and leaves no temporary file', () => {
    const live = liveFolder();
    const build = shellBuild('build');
    const written: string[] = [];
    const result = installShell(build, live, (src, dest) => {
      // When the page goes live, every file it names is there already.
      if (path.basename(dest) === 'index.html')
        expect(read(live, 'shared-libraries.bbbbbbbbbb.js')).toBe('/* libs new */');
      written.push(path.relative(live, dest));
      replaceFile(src, dest);
    });
    expect(written).toEqual([
      'shared-libraries.bbbbbbbbbb.js',
      'shared-libraries.bbbbbbbbbb.js.map',
      'main.js',
      'main.js.map',
      'mf-manifest-stats.json',
      BUILD_CONTRACT_FILE,
      'mf-manifest.json',
      'index.html',
    ]);
    expect(result).toEqual({ written, unchanged: ['232.ea9e56def5.js'], keptConfig: true });
    expect(read(live, 'index.html')).toContain('new');
    expect(read(live, 'main.js')).toContain('main new');
    expect(JSON.parse(read(live, BUILD_CONTRACT_FILE))).toEqual(CONTRACT);
    // Pages already open still load the previous build's chunks.
    expect(read(live, 'shared-libraries.aaaaaaaaaa.js')).toBe('/* libs old */');
    expect(read(live, 'config.json')).toBe('{"apiBaseUrl":"https://api.example.com"}');
    expect(fs.readdirSync(live).filter((f) => f.startsWith('.'))).toEqual([]);
  });

  it('replaces a file by renaming a complete copy over it (a reader never sees it half written)', () => {
    const live = liveFolder();
    const dest = path.join(live, 'index.html');
    const before = fs.statSync(dest).ino;
    const held = fs.openSync(dest, 'r');
    replaceFile(path.join(shellBuild('build'), 'index.html'), dest);
    // A new file took the name: the one a reader had open still holds the old page, whole.
    expect(fs.statSync(dest).ino).not.toBe(before);
    expect(fs.readFileSync(held, 'utf8')).toContain('old');
    fs.closeSync(held);
    expect(read(live, 'index.html')).toContain('new');
  });

  it('a live folder that does not exist yet gets the whole build, config.json included', () => {
    const live = path.join(work, 'fresh', 'dist');
    const result = installShell(shellBuild('build'), live);
    expect(result.keptConfig).toBe(false);
    expect(read(live, 'config.json')).toBe('{"apiBaseUrl":"http://localhost:4000"}');
  });
});

const CHECKED: ShellCheckResult = {
  environments: [
    { environment: 'staging', liveVersions: 5 },
    { environment: 'production', liveVersions: 6 },
  ],
  conflicts: [],
};
const REFUSAL: CompatRefusal = {
  error:
    'The new shell would break 1 live remote version: mf-research 1.1.0-abc1234def (canary in production) imports Field from @app/ui, which the new shell no longer exports. Ship mf-research without it first (pnpm rollout …), then the shell; or --force.',
  conflicts: [
    {
      kind: 'missing-export',
      package: '@app/ui',
      export: 'Field',
      needs: 'mf-research 1.1.0-abc1234def (canary in production)',
      provider: 'the new shell',
      detail: 'the new shell’s @app/ui has no export Field',
    },
  ],
};

async function shellCheckApi(answer: FakeAnswer) {
  return startFakeApi((request) =>
    request.method === 'POST' && request.url.split('?')[0] === DEPLOY_PATHS.shellCheck ? answer : undefined,
  );
}

let stopApi: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stopApi?.();
  stopApi = undefined;
});

const clientFor = (url: string) =>
  createContext({ to: url, processEnv: { DEPLOY_TOKEN: 'mfd_admin' }, root: work }).client;

describe('shipShell', () => {
  it('sends the build’s manifest and contract with the deploy token, and ships once the API says yes', async () => {
    const api = await shellCheckApi({ status: 200, body: CHECKED });
    stopApi = api.stop;
    const live = liveFolder();
    const build = shellBuild('build');
    const result = await shipShell({ root: work, dist: build, liveDir: live }, clientFor(api.url));
    expect(api.requests).toHaveLength(1);
    expect(api.requests[0]).toMatchObject({
      url: DEPLOY_PATHS.shellCheck,
      authorization: 'Bearer mfd_admin',
      body: { manifest: JSON.parse(read(build, 'mf-manifest.json')), contract: CONTRACT },
    });
    expect(read(live, 'index.html')).toContain('new');
    const text = formatShipped(result);
    expect(text).toContain(
      `shipped the shell into ${live}: 9 files (2 new content-hashed, 1 already there, 5 entry files, then index.html; the live config.json kept); nothing deleted`,
    );
    expect(text).toContain(
      '  @app/session       session-key-1  1 exports\n  @app/ui            ui-key-2  3 exports',
    );
    expect(text).toContain(
      'checked against every live remote version in every environment: staging (5 live versions), production (6 live versions)',
    );
  });

  it('a refusal (409) is the API’s message, exit 2, and the live folder is untouched', async () => {
    const api = await shellCheckApi({ status: 409, body: REFUSAL });
    stopApi = api.stop;
    const live = liveFolder();
    const before = fs.readdirSync(live).map((f) => [f, read(live, f)]);
    const error = await shipShell(
      { root: work, dist: shellBuild('build'), liveDir: live },
      clientFor(api.url),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RolloutError);
    expect((error as RolloutError).exitCode).toBe(2);
    expect((error as RolloutError).message).toBe(`${REFUSAL.error}\nnothing was shipped`);
    expect(fs.readdirSync(live).map((f) => [f, read(live, f)])).toEqual(before);
  });

  it('the client keeps a refusal’s conflicts as objects and prints its error alone', async () => {
    const api = await shellCheckApi({ status: 409, body: REFUSAL });
    stopApi = api.stop;
    const error = await clientFor(api.url)
      .shellCheck({ manifest: {}, contract: {} })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeployApiError);
    expect(error).toMatchObject({
      status: 409,
      message: REFUSAL.error,
      conflicts: REFUSAL.conflicts,
      details: [],
    });
  });

  it('--force sends ?force=1 and says which conflicts it went past', async () => {
    const api = await shellCheckApi({ status: 200, body: { ...CHECKED, conflicts: REFUSAL.conflicts } });
    stopApi = api.stop;
    const live = liveFolder();
    const result = await shipShell(
      { root: work, dist: shellBuild('build'), liveDir: live, force: true },
      clientFor(api.url),
    );
    expect(api.requests[0]?.url).toBe(`${DEPLOY_PATHS.shellCheck}?force=1`);
    expect(formatShipped(result)).toContain(
      'shipped despite 1 conflict(s) (--force, audited):\n  - @app/ui Field: the new shell’s @app/ui has no export Field (needed by mf-research 1.1.0-abc1234def (canary in production))',
    );
  });

  it('a build without mf-compat.json is too old to be checked: exit 2 without asking; --force asks the API to record it', async () => {
    const api = await shellCheckApi({ status: 200, body: CHECKED });
    stopApi = api.stop;
    const live = liveFolder();
    const old = shellBuild('old-build', { contract: null });
    const error = await shipShell({ root: work, dist: old, liveDir: live }, clientFor(api.url)).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ exitCode: 2 });
    expect((error as Error).message).toMatch(/has no mf-compat\.json: the build is too old to be checked/);
    expect(read(live, 'index.html')).toContain('old');
    const logs: string[] = [];
    const result = await shipShell(
      { root: work, dist: old, liveDir: live, force: true, log: (l) => logs.push(l) },
      clientFor(api.url),
    );
    expect(api.requests).toHaveLength(1); // only the forced one: the API audits what it went past
    expect(logs[0]).toMatch(/^warning: .* shipping it past the gate \(--force, audited\)$/);
    expect(formatShipped(result)).toContain('NOT checked against the live remotes');
    expect(read(live, 'index.html')).toContain('new');
  });

  it('refuses a folder that is not a shell build', async () => {
    const remote = shellBuild('remote');
    fs.writeFileSync(
      path.join(remote, 'mf-manifest.json'),
      JSON.stringify(mfManifest('mf_research', '1.0.0', [])),
    );
    await expect(
      shipShell({ root: work, dist: remote, liveDir: liveFolder() }, { shellCheck: async () => CHECKED }),
    ).rejects.toThrow(/is the build of "mf_research", not of the shell/);
  });

  it('the CLI: a refusal prints the API’s error on stderr and exits 2', async () => {
    const api = await shellCheckApi({ status: 409, body: REFUSAL });
    stopApi = api.stop;
    const live = liveFolder();
    const cli = await runCli('ship-shell', ['--dist', shellBuild('build'), '--to', api.url], {
      DEPLOY_TOKEN: 'mfd_admin',
      SHELL_DIST: live,
    });
    expect(cli.code).toBe(2);
    expect(cli.stdout).toBe('');
    expect(cli.stderr).toBe(`error: ${REFUSAL.error}\nnothing was shipped\n`);
    expect(read(live, 'index.html')).toContain('old');
  });
});

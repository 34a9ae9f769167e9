import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { containerOf, type RemotePackage } from '@app/rollout';
import { type RolloutPaths, releaseDir, rolloutPaths, sha384Integrity } from '@app/rollout/node';
import { createContext, type RolloutContext } from './context';
import type { SharedInfo } from './release-info';

/** Test helpers: temp folders for the store and deploy dir, fake builds, a fake clock, the CLIs. */

export const PACKAGE_DIR = path.resolve(import.meta.dirname, '..');

/** What the live shell provides in these tests (like the real shell's mf-manifest.json). */
export const SHELL_SHARED: SharedInfo[] = [
  { name: 'react', version: '19.3.1', requiredVersion: '19.3.1' },
  { name: 'react/jsx-runtime', version: '19.3.1', requiredVersion: '19.3.1' },
  { name: 'react-dom', version: '19.3.1', requiredVersion: '19.3.1' },
  { name: 'react-router-dom', version: '7.18.5', requiredVersion: '7.18.5' },
  { name: '@emotion/react', version: '11.14.0', requiredVersion: '11.14.0' },
  { name: '@app/session', version: '1.0.0', requiredVersion: '1.0.0' },
  { name: '@app/ui', version: '1.0.0', requiredVersion: '1.0.0' },
];

export const COMPATIBLE_SHARED: SharedInfo[] = [
  { name: 'react', version: '19.3.1', requiredVersion: '19.3.1' },
  { name: 'react-dom', version: '19.3.1', requiredVersion: '19.3.1' },
  { name: '@app/session', version: '1.0.0', requiredVersion: '1.0.0' },
];

export function mfManifest(container: string, buildVersion: string, shared: SharedInfo[]) {
  return {
    id: container,
    name: container,
    metaData: { name: container, buildInfo: { buildVersion, buildName: container.replace(/_/g, '-') } },
    shared: shared.map((s) => ({ id: `${container}:${s.name}`, singleton: true, ...s, assets: {} })),
    remotes: [],
    exposes: [{ id: `${container}:App`, name: 'App', path: './App', assets: {} }],
  };
}

/** A small build of `remote`: a few files whose content depends on `content`, and its mf-manifest.json. */
export function writeFakeDist(
  dir: string,
  options: { remote?: RemotePackage; content?: string; version?: string; shared?: SharedInfo[] } = {},
): string {
  const remote = options.remote ?? 'mf-research';
  const content = options.content ?? 'v1';
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, 'static'), { recursive: true });
  const manifest = mfManifest(
    containerOf(remote),
    options.version ?? '1.0.0',
    options.shared ?? COMPATIBLE_SHARED,
  );
  fs.writeFileSync(path.join(dir, 'mf-manifest.json'), JSON.stringify(manifest, null, 2));
  fs.writeFileSync(path.join(dir, 'remoteEntry.js'), `var ${containerOf(remote)} = "${content}";\n`);
  fs.writeFileSync(path.join(dir, 'static', 'chunk.js'), `console.log(${JSON.stringify(content)});\n`);
  fs.writeFileSync(path.join(dir, 'static', 'logo.bin'), Buffer.from([0, 1, 2, 3, 255]));
  return dir;
}

export interface Sandbox {
  dir: string;
  env: Record<string, string> & { SHELL_MANIFEST: string; DB_PATH: string };
  paths: RolloutPaths;
  ctx: RolloutContext;
  logs: string[];
  /** Moves the fake clock on. */
  tick(ms: number): void;
  /** A fake dist under the sandbox (also the sandbox root's `<remote>/dist`, where bootstrap looks). */
  dist(options?: Parameters<typeof writeFakeDist>[1] & { at?: string }): string;
  cleanup(): void;
}

export function sandbox(): Sandbox {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'release-test-'));
  const env = {
    RELEASE_STORE_DIR: path.join(dir, 'releases'),
    DEPLOY_DIR: path.join(dir, 'deploy'),
    DEPLOY_ENV: 'test',
    SHELL_MANIFEST: path.join(dir, 'shell-mf-manifest.json'),
    ROLLOUT_ACTOR: 'tester',
    ROLLOUT_PREVIEW_SECRET: '',
    INIT_CWD: dir,
    DB_PATH: path.join(dir, 'app.db'),
  };
  fs.writeFileSync(env.SHELL_MANIFEST, JSON.stringify(mfManifest('shell', '1.0.0', SHELL_SHARED)));
  // The root moves too, so nothing here can read or build the repository's apps.
  const paths = { ...rolloutPaths(env), root: dir };
  let clock = Date.parse('2026-11-22T10:00:00.000Z');
  const logs: string[] = [];
  const ctx = createContext({
    env,
    paths,
    actor: 'tester',
    now: () => new Date(clock),
    log: (l) => logs.push(l),
  });
  return {
    dir,
    env,
    paths,
    ctx,
    logs,
    tick: (ms) => {
      clock += ms;
    },
    dist: (options = {}) =>
      writeFakeDist(
        path.join(dir, options.at ?? path.join(options.remote ?? 'mf-research', 'dist')),
        options,
      ),
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the real CLI as `node --import tsx src/<cli>-cli.ts`, as `pnpm release` / `pnpm rollout` do. */
export function runCli(
  cli: 'release' | 'rollout',
  args: string[],
  env: Record<string, string>,
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join('src', `${cli}-cli.ts`), ...args], {
      cwd: PACKAGE_DIR,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export const lastLine = (text: string) => text.trimEnd().split('\n').at(-1);

export const readJsonLines = (file: string) =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** What every manifest write records for these versions: the SHA-384 of each stored remoteEntry.js. */
export function pinsOf(store: string, remote: RemotePackage, ...versions: string[]): Record<string, string> {
  return Object.fromEntries(
    versions.map((version) => [
      version,
      sha384Integrity(fs.readFileSync(path.join(releaseDir(store, remote, version), 'remoteEntry.js'))),
    ]),
  );
}

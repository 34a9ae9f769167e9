import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { DEPLOY_TOKEN_PATTERN, type SharedInfo } from '@app/contracts/deploy';
import { containerOf, type RemotePackage } from '@app/rollout';
import { createContext, type RolloutContext } from './context';

/**
 * Test helpers: a REAL deploy API (services/api-server through tsx, as a child process on a free port, its
 * own temp database, release store and deploy folder), fake builds, the CLIs. Nothing here touches the
 * repository's releases/, deploy/ or database.
 */

export const PACKAGE_DIR = path.resolve(import.meta.dirname, '..');
const API_DIR = path.resolve(PACKAGE_DIR, '..', '..', 'services', 'api-server');

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

/** What the fake shell's @app/session exports, and so what a compatible fake remote may import (issue 45). */
const SESSION_SURFACE = { useSession: '(() => { isLoggedIn: boolean })' };

/** A build contract (mf-compat.json) as the build tooling writes it: the shell provides, a remote requires. */
export function buildContract(container: string, requires: Record<string, Record<string, string>> = {}) {
  const isShell = container === 'shell';
  return {
    schema: 1,
    container,
    federationRuntime: '2.9.2',
    provides: { '@app/session': { key: 'session-key', exports: SESSION_SURFACE } },
    requires: isShell ? {} : { '@app/session': SESSION_SURFACE, ...requires },
    exposes: isShell ? {} : { './App': { type: '((_props: {}) => unknown)', props: [{}] } },
    calls: isShell
      ? {
          'mf_research/App': [{}],
          'mf_account/App': [{}],
          'mf_survey/App': [{}],
          'mf_public_pages/App': [{}],
        }
      : {},
  };
}

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
  options: {
    remote?: RemotePackage;
    content?: string;
    version?: string;
    shared?: SharedInfo[];
    /** Exports the build imports beyond what the fake shell provides: package -> name -> type. */
    requires?: Record<string, Record<string, string>>;
  } = {},
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
  const contract = buildContract(containerOf(remote), options.requires);
  fs.writeFileSync(path.join(dir, 'mf-compat.json'), JSON.stringify(contract, null, 2));
  fs.writeFileSync(path.join(dir, 'remoteEntry.js'), `var ${containerOf(remote)} = "${content}";\n`);
  fs.writeFileSync(path.join(dir, 'static', 'chunk.js'), `console.log(${JSON.stringify(content)});\n`);
  fs.writeFileSync(path.join(dir, 'static', 'logo.bin'), Buffer.from([0, 1, 2, 3, 255]));
  return dir;
}

export interface TestApi {
  url: string;
  /** The API's own environment (DB_PATH, RELEASE_STORE_DIR, DEPLOY_DIR, SHELL_MANIFEST…). */
  env: Record<string, string>;
  /** The local admin token the API wrote at start. */
  adminToken: string;
  /** A work folder for fake builds (also the `root` whose `<remote>/dist` bootstrap releases). */
  dir: string;
  /** `pnpm admin deploy-token create …`: the printed token. */
  createToken(args: string[]): Promise<string>;
  /** A CLI context against this API with `token`, in `environment`, logging into `logs`. */
  context(o?: { token?: string; environment?: string; logs?: string[]; now?: () => Date }): RolloutContext;
  /** A fake build under `dir`. */
  dist(o?: Parameters<typeof writeFakeDist>[1] & { at?: string }): string;
  stop(): Promise<void>;
}

/** Starts the API from its TypeScript sources and waits for "API listening" (its JSON start line). */
export async function startTestApi(extraEnv: Record<string, string> = {}): Promise<TestApi> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'release-test-'));
  const env: Record<string, string> = {
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    SEED_DEMO: 'false',
    REQUIRES_ACTIVATION: 'false',
    RATE_LIMITS: 'off',
    ARGON2_MEMORY_KIB: '1024',
    ARGON2_TIME_COST: '1',
    DB_PATH: path.join(dir, 'app.db'),
    RELEASE_STORE_DIR: path.join(dir, 'releases'),
    DEPLOY_DIR: path.join(dir, 'deploy'),
    DEPLOY_ENVIRONMENTS: 'staging,production',
    DEPLOY_ENV: 'production',
    SHELL_MANIFEST: path.join(dir, 'shell-mf-manifest.json'),
    EDGE_SECRET: 'test-edge-secret-0123456789abcdef',
    ...extraEnv,
  };
  fs.writeFileSync(env.SHELL_MANIFEST as string, JSON.stringify(mfManifest('shell', '1.0.0', SHELL_SHARED)));
  // The gate reads the shell's build contract beside its manifest.
  const shellContract = path.join(path.dirname(env.SHELL_MANIFEST as string), 'mf-compat.json');
  fs.writeFileSync(shellContract, JSON.stringify(buildContract('shell')));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: API_DIR,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(
      () => reject(new Error(`the API did not start: ${stderr.slice(-2000)}`)),
      60_000,
    );
    child.stdout?.on('data', (chunk) => {
      out += chunk;
      const match = /"msg":"API listening"[^\n]*"url":"([^"]+)"/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1] as string);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the API exited (${code}): ${stderr.slice(-2000)}`));
    });
  });
  child.stdout?.resume();
  const adminToken = fs
    .readFileSync(path.join(env.DEPLOY_DIR as string, 'local-deploy-token'), 'utf8')
    .trim();
  return {
    url,
    env,
    adminToken,
    dir,
    createToken: (args) =>
      new Promise((resolve, reject) => {
        execFile(
          process.execPath,
          ['--import', 'tsx', 'src/admin.ts', 'deploy-token', 'create', ...args],
          { cwd: API_DIR, env: { PATH: process.env.PATH ?? '', ...env } },
          (error, stdout, stderrText) => {
            const token = stdout.split(/\s+/).find((word) => DEPLOY_TOKEN_PATTERN.test(word));
            if (error || !token) reject(new Error(`deploy-token create failed: ${stderrText || stdout}`));
            else resolve(token);
          },
        );
      }),
    context: (o = {}) =>
      createContext({
        to: url,
        env: o.environment ?? 'staging',
        processEnv: { DEPLOY_TOKEN: o.token ?? adminToken },
        root: dir,
        log: (line) => o.logs?.push(line),
        now: o.now,
      }),
    dist: (o = {}) => writeFakeDist(path.join(dir, o.at ?? path.join(o.remote ?? 'mf-research', 'dist')), o),
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the real CLI as `node --import tsx src/<cli>-cli.ts`, as `pnpm release` / `pnpm rollout` do. */
export function runCli(
  cli: 'release' | 'rollout' | 'ship-shell',
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

export interface FakeRequest {
  method: string;
  /** Path and query. */
  url: string;
  authorization: string | undefined;
  body: unknown;
}
export type FakeAnswer = { status: number; body: unknown; headers?: Record<string, string> };

/**
 * A stand-in deploy API for answers the real one on this branch does not give yet (the compatibility
 * table, the shell check: issue 45, built beside it): `answer` gets each request and says what to send;
 * anything it does not know is the API's catch-all 404. Records every request.
 */
export async function startFakeApi(answer: (request: FakeRequest) => FakeAnswer | undefined) {
  const requests: FakeRequest[] = [];
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => {
      text += chunk;
    });
    req.on('end', () => {
      const request: FakeRequest = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        authorization: req.headers.authorization,
        body: text ? JSON.parse(text) : null,
      };
      requests.push(request);
      const { status, body, headers } = answer(request) ?? { status: 404, body: { error: 'Not found' } };
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

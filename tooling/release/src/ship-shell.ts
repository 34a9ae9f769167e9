import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ShellCheckResult } from '@app/contracts/compatibility';
import { BUILD_CONTRACT_FILE, type BuildContract, parseBuildContract } from '@app/rollout';
import { listFiles, MF_MANIFEST_FILE } from '@app/rollout/node';
import { DeployApiError, type DeployClient } from './deploy-client';
import { RolloutError } from './errors';

/**
 * `pnpm ship-shell` (issue 45): the shell is the provider of every shared package on a page, so a new shell
 * is checked by the deploy API against every live remote version of every environment before it is copied
 * into the live shell folder, which the edge serves file by file per request and whose mf-manifest.json the
 * API's gate reads on every call. Nothing is written there before the API said yes.
 */

/** A content-hashed file (the build's chunk names: `[name].[contenthash:10].js`), as the edge's cache rule. */
export const HASHED_FILE = /\.[0-9a-f]{10}\.(js|css)(\.map)?$/;
/** The operator's runtime config in the live folder: never replaced by a build's default. */
export const RUNTIME_CONFIG = 'config.json';
export const SHELL_PAGE = 'index.html';
/** Exit code of a shell the API refused, or of a build too old to be checked: nothing was changed. */
export const REFUSED_EXIT = 2;

/**
 * The order files go live in: content-hashed files first (nothing names them yet, so they change nothing),
 * then the un-hashed entry files (main.js, … and last the two the API's gate reads: the contract, then the
 * manifest), and the page last, so a page served meanwhile names files that are all there. The live
 * folder's config.json is left alone when it has one.
 */
export function installOrder(files: string[], liveHasConfig: boolean): { order: string[]; kept: string[] } {
  const kept: string[] = liveHasConfig ? files.filter((f) => f === RUNTIME_CONFIG) : [];
  const rest = files.filter((f) => !kept.includes(f));
  const rank = (file: string) => {
    if (file === SHELL_PAGE) return 4;
    if (file === MF_MANIFEST_FILE) return 3;
    if (file === BUILD_CONTRACT_FILE) return 2;
    return HASHED_FILE.test(file) ? 0 : 1;
  };
  const order = [...rest].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  return { order, kept };
}

/** Writes `src` over `dest` at once: a copy under a temporary name in dest's folder, renamed over it. */
export function replaceFile(src: string, dest: string): void {
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  // A dot name: the edge's file server (sirv) never serves dotfiles, so a half-written copy is never seen.
  const temp = path.join(
    path.dirname(dest),
    `.${path.basename(dest)}.ship-${process.pid}-${randomBytes(4).toString('hex')}.tmp`,
  );
  try {
    fs.copyFileSync(src, temp);
    fs.renameSync(temp, dest);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
}

export interface InstallResult {
  /** Every file of the build, in the order it went live (config.json left out when kept). */
  written: string[];
  /** Content-hashed files that were there already (same name, same content): not written again. */
  unchanged: string[];
  /** config.json of the live folder, left as it was. */
  keptConfig: boolean;
}

/**
 * Copies a shell build into the live folder in installOrder, each file atomically. Nothing is deleted: the
 * previous build's hashed chunks stay, as pages already open still load them.
 */
export function installShell(
  buildDir: string,
  liveDir: string,
  replace: (src: string, dest: string) => void = replaceFile,
): InstallResult {
  fs.mkdirSync(liveDir, { recursive: true });
  const liveHasConfig = fs.existsSync(path.join(liveDir, RUNTIME_CONFIG));
  const { order, kept } = installOrder(listFiles(buildDir), liveHasConfig);
  const unchanged: string[] = [];
  const written: string[] = [];
  for (const file of order) {
    const dest = path.join(liveDir, file);
    if (HASHED_FILE.test(file) && fs.existsSync(dest)) {
      unchanged.push(file);
      continue;
    }
    replace(path.join(buildDir, file), dest);
    written.push(file);
  }
  return { written, unchanged, keptConfig: kept.length > 0 };
}

/**
 * Builds the shell for production into `outDir` (the live folder is never webpack's output: its `clean`
 * would delete the chunks open pages still load). The build's output goes to stderr.
 */
export function buildShell(root: string, outDir: string): Promise<void> {
  const args = ['--filter', 'shell', 'exec', 'webpack', '--config', 'webpack.config.mjs'];
  args.push('--mode', 'production', '--output-path', outDir);
  return new Promise((resolve, reject) => {
    const child = spawn('pnpm', args, { cwd: root, stdio: ['ignore', 2, 2] });
    child.on('error', (error) =>
      reject(
        new RolloutError(`could not start the shell's build (pnpm ${args.join(' ')}): ${error.message}`),
      ),
    );
    child.on('exit', (code, signal) => {
      if (code === 0) resolve();
      else
        reject(
          new RolloutError(`the shell's build failed (${signal ?? `exit ${code}`}); nothing was shipped`),
        );
    });
  });
}

export interface ShellBuild {
  dir: string;
  manifest: unknown;
  /** null: the build has no mf-compat.json (built before issue 45's generator). */
  contract: BuildContract | null;
}

/** Reads a shell build's manifest and build contract, refusing a folder that is no shell build. */
export function readShellBuild(dir: string): ShellBuild {
  const read = (file: string) => fs.readFileSync(path.join(dir, file), 'utf8');
  if (!fs.existsSync(path.join(dir, MF_MANIFEST_FILE)) || !fs.existsSync(path.join(dir, SHELL_PAGE)))
    throw new RolloutError(`no shell build at ${dir} (${MF_MANIFEST_FILE} or ${SHELL_PAGE} is missing)`);
  let manifest: { name?: unknown };
  try {
    manifest = JSON.parse(read(MF_MANIFEST_FILE));
  } catch (error) {
    throw new RolloutError(`${path.join(dir, MF_MANIFEST_FILE)} is not JSON: ${(error as Error).message}`);
  }
  if (manifest?.name !== 'shell')
    throw new RolloutError(
      `${dir} is the build of "${String(manifest?.name)}", not of the shell; ship a remote with pnpm release`,
    );
  if (!fs.existsSync(path.join(dir, BUILD_CONTRACT_FILE))) return { dir, manifest, contract: null };
  let contract: BuildContract;
  try {
    contract = parseBuildContract(read(BUILD_CONTRACT_FILE));
  } catch (error) {
    throw new RolloutError(`${path.join(dir, BUILD_CONTRACT_FILE)}: ${(error as Error).message}`);
  }
  if (contract.container !== 'shell')
    throw new RolloutError(
      `${path.join(dir, BUILD_CONTRACT_FILE)} describes "${contract.container}", not the shell`,
    );
  return { dir, manifest, contract };
}

export interface ShipShellOptions {
  /** The repository (where the shell is built from). */
  root: string;
  /** A build to ship instead of building one (absolute). */
  dist?: string;
  /** The live shell folder (SHELL_DIST, else <root>/shell/dist). */
  liveDir: string;
  /** Ship despite the API's refusal (audited there), or a build without mf-compat.json (not checked). */
  force?: boolean;
  /** Progress, on stderr in the CLI. */
  log?: (line: string) => void;
}

export interface ShipShellResult {
  contract: BuildContract | null;
  /** The API's answer; null when a build without a contract was shipped with --force, unchecked. */
  check: ShellCheckResult | null;
  install: InstallResult;
  liveDir: string;
}

/** `pnpm ship-shell`: build (or take --dist), have the deploy API check it, then put it live. */
export async function shipShell(
  options: ShipShellOptions,
  client: Pick<DeployClient, 'shellCheck'>,
): Promise<ShipShellResult> {
  const log = options.log ?? (() => {});
  let temp: string | null = null;
  try {
    let dir = options.dist;
    if (!dir) {
      temp = fs.mkdtempSync(path.join(os.tmpdir(), 'shell-build-'));
      log(`building the shell into ${temp} …`);
      await buildShell(options.root, temp);
      dir = temp;
    }
    const build = readShellBuild(dir);
    let check: ShellCheckResult | null = null;
    if (!build.contract) {
      const why = temp
        ? `the shell's build wrote no ${BUILD_CONTRACT_FILE} (this checkout's build tooling predates it): the build is too old to be checked against the live remotes`
        : `${dir} has no ${BUILD_CONTRACT_FILE}: the build is too old to be checked against the live remotes (rebuild the shell)`;
      if (!options.force)
        throw new RolloutError(`${why}; nothing was shipped (--force ships it, audited)`, REFUSED_EXIT);
      log(`warning: ${why}; shipping it past the gate (--force, audited)`);
    }
    try {
      // Without a contract the API answers "unknown" for every live remote; with --force it records that.
      check = await client.shellCheck(
        { manifest: build.manifest, contract: build.contract },
        { force: options.force },
      );
    } catch (error) {
      // The API's words say what conflicts and the ways forward; the live folder was not touched.
      if (error instanceof DeployApiError && error.status === 409)
        throw new RolloutError(`${error.message}\nnothing was shipped`, REFUSED_EXIT);
      throw error;
    }
    const install = installShell(dir, options.liveDir);
    return { contract: build.contract, check, install, liveDir: options.liveDir };
  } finally {
    if (temp) fs.rmSync(temp, { recursive: true, force: true });
  }
}

/** What was shipped, in words: where, how many files, the contract's keys, what was checked. */
export function formatShipped(result: ShipShellResult): string {
  const { install, contract, check } = result;
  const fresh = install.written.filter((f) => HASHED_FILE.test(f)).length;
  const entries = install.written.filter((f) => !HASHED_FILE.test(f) && f !== SHELL_PAGE).length;
  const files = install.written.length + install.unchanged.length;
  const lines = [
    `shipped the shell into ${result.liveDir}: ${files} files (${fresh} new content-hashed, ${install.unchanged.length} already there, ${entries} entry files, then ${SHELL_PAGE}${install.keptConfig ? `; the live ${RUNTIME_CONFIG} kept` : ''}); nothing deleted`,
  ];
  if (contract) {
    lines.push('provides (compatibility keys):');
    for (const [pkg, provided] of Object.entries(contract.provides).sort(([a], [b]) => a.localeCompare(b)))
      lines.push(`  ${pkg.padEnd(18)} ${provided.key}  ${Object.keys(provided.exports).length} exports`);
    lines.push(`  federation runtime ${contract.federationRuntime}`);
  }
  if (check) {
    const envs = check.environments.map((e) => `${e.environment} (${e.liveVersions} live versions)`);
    lines.push(
      `checked against every live remote version in every environment: ${envs.join(', ') || 'none'}`,
    );
    if (check.conflicts.length > 0) {
      lines.push(`shipped despite ${check.conflicts.length} conflict(s) (--force, audited):`);
      for (const c of check.conflicts)
        lines.push(`  - ${c.package}${c.export ? ` ${c.export}` : ''}: ${c.detail} (needed by ${c.needs})`);
    }
  }
  if (!contract)
    lines.push('NOT checked against the live remotes: the build has no contract (--force, audited)');
  lines.push('live at the next page load (the edge reads the folder per request)');
  return lines.join('\n');
}

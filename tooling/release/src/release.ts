import fs from 'node:fs';
import path from 'node:path';
import { pipeline, Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { type ReleaseInfo, ReleaseInfoSchema } from '@app/contracts/deploy';
import type { RemotePackage } from '@app/rollout';
import {
  describeRelease,
  listFiles,
  packReleaseBundle,
  RELEASE_INFO_FILE,
  ReleaseContentError,
  releaseVersionOf,
} from '@app/rollout/node';
import * as v from 'valibot';
import { buildRemote } from './build-remote';
import type { DeployClient } from './deploy-client';
import { RolloutError } from './errors';
import { gitState } from './git-info';

export interface ReleaseOptions {
  remote: RemotePackage;
  /** The repository (where `<remote>/dist` and scripts/build.mjs are). */
  root: string;
  /** Build first (default), unless a dist is given. */
  build?: boolean;
  /** A dist folder to release instead of `<remote>/dist` (already resolved to an absolute path). */
  dist?: string;
  /** Go past the server's compatibility gate (audited there). */
  force?: boolean;
  now?: () => Date;
}

export interface ReleaseResult {
  info: ReleaseInfo;
  alreadyReleased: boolean;
  /** Compatibility conflicts that --force went past. */
  forcedConflicts: string[];
}

function packageVersionOf(root: string, remote: RemotePackage): string {
  try {
    return (
      JSON.parse(fs.readFileSync(path.join(root, remote, 'package.json'), 'utf8')) as { version: string }
    ).version;
  } catch {
    return '0.0.0';
  }
}

/**
 * What the dist would be released as (release.json), computed here so the bundle says what it is; the
 * server computes it again from the bytes it received and refuses a bundle whose words and bytes differ.
 */
export function describeDist(distDir: string, options: ReleaseOptions): ReleaseInfo {
  const { remote } = options;
  if (!fs.existsSync(path.join(distDir, 'mf-manifest.json'))) {
    throw new RolloutError(
      `no build of ${remote} at ${distDir} (mf-manifest.json is missing); build it (pnpm build ${remote}) or pass --dist <dir>`,
    );
  }
  if (listFiles(distDir).includes(RELEASE_INFO_FILE)) {
    throw new RolloutError(
      `${distDir} contains a ${RELEASE_INFO_FILE}; that name is reserved for the release's own description`,
    );
  }
  let content: ReturnType<typeof releaseVersionOf>;
  try {
    content = releaseVersionOf(distDir, packageVersionOf(options.root, remote), remote);
  } catch (error) {
    if (error instanceof ReleaseContentError) throw new RolloutError(error.message);
    throw error;
  }
  const git = gitState(options.root);
  return v.parse(
    ReleaseInfoSchema,
    describeRelease(remote, content, {
      createdAt: (options.now?.() ?? new Date()).toISOString(),
      commit: git.commit,
      dirty: git.dirty,
    }) satisfies ReleaseInfo,
  );
}

/**
 * `pnpm release`: build, describe, and upload the dist with its release.json as one gzip'd tar stream. The
 * server stores it (or answers that the same bytes are there already), after its compatibility gate.
 */
export async function release(options: ReleaseOptions, client: DeployClient): Promise<ReleaseResult> {
  const { remote } = options;
  const distDir = options.dist ?? path.join(options.root, remote, 'dist');
  if (options.build !== false && !options.dist) await buildRemote(options.root, remote);
  const info = describeDist(distDir, options);
  const releaseJson = `${JSON.stringify(info, null, 2)}\n`;
  // pipeline, not pipe: a file that cannot be read fails the gzip stream, so the upload fails instead of
  // sending a short bundle (which the server would refuse anyway).
  const bundle = () =>
    Readable.toWeb(
      pipeline(
        packReleaseBundle(distDir, [{ name: RELEASE_INFO_FILE, content: releaseJson }]),
        createGzip(),
        () => {},
      ),
    ) as ReadableStream<Uint8Array>;
  const result = await client.upload(remote, info.version, bundle, { force: options.force });
  return {
    info: result.release,
    alreadyReleased: !result.created,
    forcedConflicts: result.forcedConflicts,
  };
}

import fs from 'node:fs/promises';
import path from 'node:path';
import { type ReleaseInfo, ReleaseInfoSchema, type ReleaseUploadResult } from '@app/contracts/deploy';
import { conflictText, type RemotePackage } from '@app/rollout';
import { describeRelease, RELEASE_INFO_FILE, ReleaseContentError, releaseVersionOf } from '@app/rollout/node';
import * as v from 'valibot';
import type { Sql } from '../db/sql';
import { HttpError } from '../errors';
import { recordDeployAudit } from './deploy-audit';
import { type CompatibilityService, requireCompatible, uploadedSide } from './deploy-compat';
import { type BundleLimits, unpackBundle } from './release-bundle';
import type { ReleaseCatalog } from './release-catalog';

export interface ReleaseUploadOptions {
  limits: BundleLimits;
  /** RELEASE_KEEP: releases of a remote kept after an upload, plus every version a manifest names. */
  keep: number;
  /** The gate: the release against the live shell and what is live in its environment. */
  compatibility: CompatibilityService;
  now: () => number;
}

export interface ReleaseUpload {
  remote: RemotePackage;
  version: string;
  body: ReadableStream<Uint8Array> | null;
  force: boolean;
  /** The deploy token's name: the audit row's actor. */
  actor: string;
  /** The environment whose audit log records the release. */
  environment: string;
}

const bad = (message: string) => new HttpError(400, message);

/** The bundle's release.json: present, valid, and about the release the URL names. */
async function readBundleInfo(dir: string, remote: string, version: string): Promise<ReleaseInfo> {
  let raw: unknown;
  try {
    raw = JSON.parse(await fs.readFile(path.join(dir, RELEASE_INFO_FILE), 'utf8'));
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    throw bad(
      `The bundle's ${RELEASE_INFO_FILE} is ${missing ? 'missing (it belongs at the root)' : 'not valid JSON'}`,
    );
  }
  const parsed = v.safeParse(ReleaseInfoSchema, raw);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const where = issue?.path?.map((p) => String(p.key)).join('.') || 'release.json';
    throw bad(`The bundle's ${RELEASE_INFO_FILE} is invalid: ${where}: ${issue?.message ?? 'invalid'}`);
  }
  const info = parsed.output;
  if (info.remote !== remote || info.version !== version) {
    throw bad(
      `The bundle's ${RELEASE_INFO_FILE} describes ${info.remote} ${info.version}, but it was sent as ${remote} ${version}`,
    );
  }
  return info;
}

/**
 * `PUT /api/deploy/releases/<remote>/<version>`: one release bundle in, checked from its bytes, stored
 * whole or not at all. Whatever fails, the prepared folder is removed; the folder is published before its
 * row is written (an adopted folder is the worst a crash between the two can leave).
 */
export class ReleaseUploads {
  constructor(
    private readonly sql: Sql,
    private readonly catalog: ReleaseCatalog,
    private readonly options: ReleaseUploadOptions,
  ) {}

  /** The hash of a release already stored under that version, by row or by folder; null when there is none. */
  private async existingHash(remote: RemotePackage, version: string): Promise<string | null> {
    const known = await this.catalog.get(remote, version);
    if (known) return known.contentHash;
    const stored = await this.catalog.store.info(remote, version);
    if (!stored) return null;
    if (stored.contentHash) return stored.contentHash;
    const folder = this.catalog.store.folder(remote, version);
    try {
      return folder ? releaseVersionOf(folder, stored.packageVersion, remote).contentHash : null;
    } catch {
      // A stored folder this API cannot hash is still a version that exists: never replaced.
      return 'unreadable';
    }
  }

  private same(info: ReleaseInfo): { status: 200; result: ReleaseUploadResult } {
    return { status: 200, result: { release: info, created: false, forcedConflicts: [] } };
  }

  async upload(input: ReleaseUpload): Promise<{ status: 200 | 201; result: ReleaseUploadResult }> {
    const { remote, version } = input;
    const { store } = this.catalog;
    const prepared = await store.prepare(remote);
    try {
      await unpackBundle(input.body, prepared, this.options.limits);
      const claimed = await readBundleInfo(prepared, remote, version);
      // The store writes its own release.json from what is checked here, last, when it publishes.
      await fs.rm(path.join(prepared, RELEASE_INFO_FILE));
      let content: ReturnType<typeof releaseVersionOf>;
      try {
        content = releaseVersionOf(prepared, claimed.packageVersion, remote);
      } catch (error) {
        if (error instanceof ReleaseContentError) {
          // The store's temp path says nothing to the sender; name the bundle instead.
          throw bad(
            `The bundle is not a release of ${remote}: ${error.message.replaceAll(prepared, 'the bundle')}`,
          );
        }
        throw error;
      }

      // A version that exists is answered first: the same bytes again are a no-op, other bytes never replace it.
      const existing = await this.existingHash(remote, version);
      if (existing !== null) {
        if (existing !== content.contentHash) {
          throw new HttpError(
            409,
            `${remote} ${version} is released already with other bytes; a version id never changes its content (rebuild, and release the new id)`,
          );
        }
        const known = await this.catalog.get(remote, version);
        return this.same(known?.info ?? ((await store.info(remote, version)) as ReleaseInfo));
      }

      if (
        content.version !== version ||
        (claimed.contentHash && claimed.contentHash !== content.contentHash)
      ) {
        throw bad(
          `The release id ${version} does not match its content: the bundle's files give ${content.version} (SHA-256 ${content.contentHash})`,
        );
      }
      if (claimed.entryIntegrity && claimed.entryIntegrity !== content.entryIntegrity) {
        throw bad(
          `The release's entryIntegrity ${claimed.entryIntegrity} does not match its content: remoteEntry.js is ${content.entryIntegrity}`,
        );
      }

      // Checked against the environment the release is for (?env=): what it would meet there now. A bundle
      // without a readable mf-compat.json is an `unknown` conflict (409, force may pass), never a 500.
      const gate = await this.options.compatibility.checkRemote(
        input.environment,
        remote,
        uploadedSide(prepared, `${remote} ${version} (the release)`),
      );
      const conflicts = requireCompatible(`${remote} ${version}`, gate, input.force).map(conflictText);

      const at = new Date(this.options.now()).toISOString();
      // What the server saw, not what the sender said: files, bytes, digest and hash are recomputed, the
      // shared and exposed modules come from the build's own manifest, and createdAt is the store's clock
      // (retention orders by it; a sender's clock could push a release out of the kept window).
      const info: ReleaseInfo = {
        ...claimed,
        ...describeRelease(remote, content, {
          createdAt: at,
          commit: claimed.commit,
          dirty: claimed.dirty,
        }),
      };
      if ((await store.publish(remote, version, prepared, info)) === 'exists') {
        // Another upload of this version won the race a moment ago.
        const there = await this.existingHash(remote, version);
        if (there === null) {
          throw new HttpError(
            409,
            `The store has a folder for ${remote} ${version} without a valid release.json; remove it and upload again`,
          );
        }
        if (there !== content.contentHash) {
          throw new HttpError(409, `${remote} ${version} was released with other bytes meanwhile`);
        }
        await this.catalog.adopt(remote);
        return this.same((await store.info(remote, version)) ?? info);
      }
      try {
        await this.sql.transaction(async (tx) => {
          await this.catalog.record(info, content.contentHash, tx);
          await recordDeployAudit(
            tx,
            [
              {
                at,
                actor: input.actor,
                environment: input.environment,
                action: 'release',
                remote,
                from: null,
                to: version,
                ...(conflicts.length > 0
                  ? {
                      reason: `released despite compatibility conflicts: ${conflicts.join('; ')}`,
                      forced: true,
                    }
                  : {}),
              },
            ],
            input.actor,
          );
        });
      } catch (error) {
        // No folder without its row: the release is not made, and the sender may try again.
        await store.remove(remote, version).catch(() => undefined);
        throw error;
      }
      await this.catalog.prune(remote, this.options.keep, [version]).catch(() => []);
      return { status: 201, result: { release: info, created: true, forcedConflicts: conflicts } };
    } finally {
      await store.discard(prepared).catch(() => undefined);
    }
  }
}

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { ReleaseInfo } from '@app/contracts/deploy';
import { DEPLOY_PATHS } from '@app/contracts/deploy';
import type { BuildContract, RemotePackage } from '@app/rollout';
import { describeRelease, releaseVersionOf } from '@app/rollout/node';
import * as tar from 'tar-stream';
import { remoteContract, SHARED, writeRemoteBuild, writeShellBuild } from './compat-fixtures';
import type { TestServer } from './helpers';

/** The live shell's build the gate compares uploads with (react 19, the surfaces of compat-fixtures). */
export function writeShellManifest(): string {
  return writeShellBuild();
}

/**
 * A small build of mf-research; `variant` changes one file, so each variant is another version. Its gate
 * files fit the shell of writeShellManifest unless `contract` (null: none) or `react` says otherwise.
 */
export function fixtureDist(
  variant = 'a',
  options: { react?: string; container?: string; contract?: BuildContract | null } = {},
): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dist-'));
  fs.writeFileSync(path.join(dir, 'remoteEntry.js'), `var mf_research = ${JSON.stringify(variant)};\n`);
  const react = options.react ?? '19.3.1';
  writeRemoteBuild(
    dir,
    'mf-research',
    options.contract === undefined ? remoteContract('mf-research') : options.contract,
    {
      name: options.container ?? 'mf_research',
      metaData: { buildInfo: { buildVersion: '1.0.0' } },
      shared: SHARED.map((entry) =>
        entry.name === 'react' ? { ...entry, version: react, requiredVersion: `^${react}` } : entry,
      ),
    },
  );
  fs.mkdirSync(path.join(dir, 'static', 'js'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'static', 'js', 'main.js'), `console.log(${JSON.stringify(variant)});\n`);
  return dir;
}

/** The release.json the CLI would write for `dir` (computed with the shared functions). */
export function infoOf(dir: string, remote: RemotePackage = 'mf-research'): ReleaseInfo {
  const content = releaseVersionOf(dir, '0.0.0', remote);
  return describeRelease(remote, content, { createdAt: new Date().toISOString(), commit: null, dirty: null });
}

export type RawEntry = { header: Partial<tar.Header> & { name: string }; content?: string };

/** A tar of `dir`'s files plus release.json (`info`) plus `extra` raw entries; gzip'd when asked. */
export async function bundleOf(
  dir: string,
  info: unknown,
  options: { gzip?: boolean; extra?: RawEntry[]; withoutInfo?: boolean } = {},
): Promise<Buffer> {
  const pack = tar.pack();
  const walk = (rel: string): string[] =>
    fs.readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((entry) => {
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      return entry.isDirectory() ? walk(child) : [child];
    });
  for (const rel of walk('')) pack.entry({ name: rel }, fs.readFileSync(path.join(dir, rel)));
  if (!options.withoutInfo) pack.entry({ name: 'release.json' }, JSON.stringify(info));
  for (const { header, content } of options.extra ?? []) {
    // Links, devices and folders carry no body in a tar.
    if (!header.type || header.type === 'file') pack.entry(header, content ?? '');
    else pack.entry(header).end(null);
  }
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack) chunks.push(chunk as Buffer);
  const tarBytes = Buffer.concat(chunks);
  return options.gzip ? gzipSync(tarBytes) : tarBytes;
}

/**
 * PUT a bundle as `pnpm release` does, for `env` (default production; null sends no `?env=`), with `query`'s
 * other parameters (force).
 */
export async function upload(
  server: TestServer,
  version: string,
  body: Buffer | Uint8Array,
  token: string | null,
  options: { remote?: RemotePackage; query?: Record<string, string>; env?: string | null } = {},
) {
  const env = options.env === undefined ? 'production' : options.env;
  const query = new URLSearchParams({ ...(env === null ? {} : { env }), ...options.query });
  const res = await fetch(
    `${server.url}${DEPLOY_PATHS.release(options.remote ?? 'mf-research', version)}?${query}`,
    {
      method: 'PUT',
      headers: {
        'content-type': 'application/x-tar',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body,
    },
  );
  // biome-ignore lint/suspicious/noExplicitAny: test bodies are checked by assertions, not by types
  const json = (await res.json()) as Record<string, any>;
  return { status: res.status, body: json };
}

/** What is in the remote's store folder: version folders only, never a leftover upload. */
export function storeEntries(server: TestServer, remote = 'mf-research'): string[] {
  try {
    return fs.readdirSync(path.join(server.ctx.config.rollout.paths.store, remote)).sort();
  } catch {
    return [];
  }
}

export async function releaseRows(server: TestServer): Promise<string[]> {
  return server.sql.column<string>(`SELECT version FROM deploy_releases ORDER BY version`);
}

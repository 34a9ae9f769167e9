import { createHash } from 'node:crypto';
import { DEPLOY_PATHS, type DeployVerb } from '@app/contracts/deploy';
import type { BuildContract, RemotePackage } from '@app/rollout';
import { type Config, DEFAULT_CONFIG } from '../src/config';
import { remoteContract, writeShellBuild, writeStoredBuild } from './compat-fixtures';
import { startTestServer, type TestServer, tempDatabase, tempRollout } from './helpers';

/** A live shell build (mf-manifest.json and mf-compat.json) that every release of remoteContract fits. */
export function shellManifest(): string {
  return writeShellBuild();
}

/** One database, one deploy folder: what several instances of one install share. */
export function deployInstall(deploy: Partial<Config['deploy']> = {}): Partial<Config> {
  return {
    ...tempDatabase(),
    rollout: tempRollout(),
    deploy: { ...DEFAULT_CONFIG.deploy, shellManifest: shellManifest(), feedTimeoutMs: 1500, ...deploy },
  };
}

export const startDeployServer = (install: Partial<Config> = deployInstall()) => startTestServer(install);

let released = 0;
/** A version id not used before in this run, for a release row. */
export function newVersion(): string {
  released += 1;
  return `1.0.${released}-${released.toString(16).padStart(10, 'a')}`;
}

/**
 * A release row as the upload route stores it (deploy_releases), with the files the compatibility gate
 * reads in its store folder (`contract` null: a release without mf-compat.json).
 */
export async function release(
  server: TestServer,
  remote: RemotePackage,
  version = newVersion(),
  contract: BuildContract | null = remoteContract(remote),
) {
  writeStoredBuild(server.ctx.config.rollout.paths.store, remote, version, contract);
  const info = { remote, version, shared: [], createdAt: new Date(Date.now() + released).toISOString() };
  await server.sql.run(
    `INSERT INTO deploy_releases (remote, version, content_hash, entry_integrity, info_json, created_at)
     VALUES (@remote, @version, @hash, @integrity, @info, @at)`,
    {
      remote,
      version,
      hash: 'f'.repeat(64),
      integrity: `sha384-${createHash('sha384').update(version).digest('base64')}`,
      info: JSON.stringify(info),
      at: info.createdAt,
    },
  );
  return version;
}

export async function deployToken(
  server: TestServer,
  name: string,
  scope: { admin?: boolean; remotes?: string[]; environments?: string[] } = { admin: true },
): Promise<string> {
  const made = await server.ctx.deployTokens.create({
    name,
    admin: scope.admin ?? false,
    remotes: scope.remotes ?? [],
    environments: scope.environments ?? [],
    createdBy: 'test',
  });
  return made.token;
}

/** A command as the CLI sends it; `revision` undefined sends no If-Match. */
export function command(
  server: TestServer,
  token: string | null,
  env: string,
  remote: string,
  verb: DeployVerb,
  body: unknown,
  revision?: number,
) {
  return server.req('POST', DEPLOY_PATHS.command(env, remote, verb), {
    token,
    body,
    headers: revision === undefined ? {} : { 'if-match': `"${revision}"` },
  });
}

/** The environment's revision as the API answers it. */
export async function revisionOf(server: TestServer, token: string, env: string): Promise<number> {
  const res = await server.get(DEPLOY_PATHS.environment(env), token);
  if (res.status !== 200) throw new Error(`GET state: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.revision;
}

/** A stable version for the remote in the environment (bootstrap), answering the new revision. */
export async function withStable(server: TestServer, token: string, env: string, remote: RemotePackage) {
  const version = await release(server, remote);
  const res = await command(
    server,
    token,
    env,
    remote,
    'bootstrap',
    { version },
    await revisionOf(server, token, env),
  );
  if (res.status !== 200) throw new Error(`bootstrap: ${res.status} ${JSON.stringify(res.body)}`);
  return { version, revision: res.body.revision as number };
}

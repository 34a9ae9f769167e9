import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  BUILD_CONTRACT_FILE,
  type BuildContract,
  containerOf,
  REMOTE_PACKAGES,
  type RemotePackage,
} from '@app/rollout';
import { releaseDir } from '@app/rollout/node';

/**
 * Builds as the compatibility gate reads them (issue 45): made-up mf-manifest.json and mf-compat.json files
 * that fit each other unless a test changes them. The surfaces are short: the gate compares type texts.
 */
export const BUTTON = '(props: { variant?: "primary" | "secondary" }) => EmotionJSX.Element';
export const USE_SESSION = '() => SessionValue';

export const SHARED = [
  { name: 'react', version: '19.3.1', requiredVersion: '^19.3.1', singleton: true },
  { name: 'react-dom', version: '19.3.1', requiredVersion: '^19.3.1', singleton: true },
  { name: '@app/router', version: '7.18.5', requiredVersion: '^7.18.5', singleton: true },
  { name: '@emotion/react', version: '11.14.0', requiredVersion: '^11.14.0', singleton: true },
  { name: '@app/ui', version: '1.0.0', requiredVersion: '1.0.0', singleton: true },
  { name: '@app/session', version: '1.0.0', requiredVersion: '1.0.0', singleton: true },
  {
    name: '@app/contracts',
    version: '1.0.0-s0123456789',
    requiredVersion: '1.0.0-s0123456789',
    singleton: false,
  },
];

export function shellContract(over: Partial<BuildContract> = {}): BuildContract {
  return {
    schema: 1,
    container: 'shell',
    federationRuntime: '2.9.2',
    provides: {
      '@app/ui': { key: '3fa9c0d1e2', exports: { Button: BUTTON, Card: '() => EmotionJSX.Element' } },
      '@app/session': { key: '9a8b7c6d5e', exports: { useSession: USE_SESSION } },
    },
    requires: { '@app/ui': { Button: BUTTON } },
    exposes: {},
    calls: Object.fromEntries(REMOTE_PACKAGES.map((remote) => [`${containerOf(remote)}/App`, [{}]])),
    ...over,
  };
}

export function remoteContract(remote: RemotePackage, over: Partial<BuildContract> = {}): BuildContract {
  return {
    schema: 1,
    container: containerOf(remote),
    federationRuntime: '2.9.2',
    provides: {},
    requires: { '@app/ui': { Button: BUTTON }, '@app/session': { useSession: USE_SESSION } },
    exposes: { './App': { type: '(_props: {}) => EmotionJSX.Element', props: [{}] } },
    calls: {},
    ...over,
  };
}

/** A shell build's two files; `contract: null` leaves mf-compat.json out. Answers the manifest's path. */
export function writeShellBuild(contract: BuildContract | null = shellContract(), dir?: string): string {
  const folder = dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'api-shell-'));
  const file = path.join(folder, 'mf-manifest.json');
  fs.writeFileSync(file, JSON.stringify({ name: 'shell', shared: SHARED, exposes: [] }));
  const contractFile = path.join(folder, BUILD_CONTRACT_FILE);
  if (contract) fs.writeFileSync(contractFile, JSON.stringify(contract));
  else fs.rmSync(contractFile, { force: true });
  return file;
}

/** A remote build's gate files into `dir` (a dist to bundle, or a release folder of the store). */
export function writeRemoteBuild(
  dir: string,
  remote: RemotePackage,
  contract: BuildContract | null = remoteContract(remote),
  extra: Record<string, unknown> = {},
): void {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'mf-manifest.json'),
    JSON.stringify({
      name: containerOf(remote),
      shared: SHARED,
      exposes: [{ name: './App', path: './App' }],
      ...extra,
    }),
  );
  if (contract) fs.writeFileSync(path.join(dir, BUILD_CONTRACT_FILE), JSON.stringify(contract));
}

/** The gate files of a release row the tests insert without a bundle (deploy-fixtures' release()). */
export function writeStoredBuild(
  store: string,
  remote: RemotePackage,
  version: string,
  contract: BuildContract | null = remoteContract(remote),
): void {
  writeRemoteBuild(releaseDir(store, remote, version), remote, contract);
}

import fs from 'node:fs';
import path from 'node:path';
import { type RolloutPaths, sha384Integrity } from '@app/rollout/node';

export const V1 = '1.0.0-0123456789';
export const V2 = '1.1.0-abcdef0123';
export const ACCOUNT_V1 = '2.0.0-1111111111';
export const UNRELEASED = '9.9.9-9999999999';

/** The entry digest `release` records for a version (what the release command writes into release.json). */
export const entryIntegrityOf = (remote: string, version: string) =>
  sha384Integrity(`var entry = ${JSON.stringify(`${remote}@${version}`)};`);

/**
 * Releases a version the way the release command marks one done: `<store>/<remote>/<version>/` with its
 * remoteEntry.js and a release.json that records the entry's digest.
 */
export function release(paths: RolloutPaths, remote: string, version: string) {
  const dir = path.join(paths.store, remote, version);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'remoteEntry.js'),
    `var entry = ${JSON.stringify(`${remote}@${version}`)};`,
  );
  fs.writeFileSync(
    path.join(dir, 'release.json'),
    JSON.stringify({ remote, version, entryIntegrity: entryIntegrityOf(remote, version) }),
  );
}

export function writeManifest(paths: RolloutPaths, now = new Date()) {
  const at = now.toISOString();
  const manifest = {
    schemaVersion: 1,
    environment: paths.environment,
    revision: 3,
    updatedAt: at,
    remotes: {
      'mf-research': {
        stable: V1,
        canary: { version: V2, percent: 10, startedAt: at, stepStartedAt: at },
        previous: [],
      },
      'mf-account': { stable: ACCOUNT_V1, previous: [] },
    },
  };
  fs.writeFileSync(paths.manifestFile, JSON.stringify(manifest, null, 2));
  return manifest;
}

export function auditEntry(i: number, over: Record<string, unknown> = {}) {
  return {
    at: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
    actor: `tester${i}`,
    environment: 'test',
    action: 'set',
    remote: 'mf-research',
    from: `stable ${V1}`,
    to: `stable ${V1} · canary ${V2} at ${i % 100} %`,
    ...over,
  };
}

export function appendAudit(paths: RolloutPaths, lines: (object | string)[]) {
  const text = lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n');
  fs.appendFileSync(paths.auditFile, `${text}\n`);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { type DeploymentManifest, ENVIRONMENT_NAME_PATTERN, parseManifest } from './manifest';
import type { RemotePackage } from './remotes';
import { isVersionId } from './version-id';

/**
 * Where releases and deployments live on disk, in one place for the release commands, `pnpm start` and the
 * API. Defaults sit in the repository (both folders are git-ignored); environment variables move them:
 *   RELEASE_STORE_DIR  public, immutable: <store>/<remote>/<version>/ (served under /releases/)
 *   DEPLOY_DIR         private: <env>.json (the manifest, served as /deployment.json), <env>.audit.jsonl,
 *                      <env>.lock (one writer at a time), edge-secret (HMAC key of the edge's visitor
 *                      cookie); preview-secret was the HMAC key of preview links before issue 44
 *   DEPLOY_ENV         which environment (default: production; docs/decisions/0030-deploy-control-plane.md)
 */
export interface RolloutPaths {
  root: string;
  store: string;
  deployDir: string;
  environment: string;
  manifestFile: string;
  auditFile: string;
  lockFile: string;
  /**
   * The old preview links' HMAC key file. Nothing writes it since issue 44 (links are stored by the API);
   * services/edge still reads it until it checks links against the deployment feed's list.
   */
}

const REPO_ROOT = path.resolve(import.meta.dirname, '..', '..', '..');

export function rolloutPaths(env: Record<string, string | undefined> = process.env): RolloutPaths {
  const base = env.INIT_CWD ?? process.cwd();
  const store = env.RELEASE_STORE_DIR
    ? path.resolve(base, env.RELEASE_STORE_DIR)
    : path.join(REPO_ROOT, 'releases');
  const deployDir = env.DEPLOY_DIR ? path.resolve(base, env.DEPLOY_DIR) : path.join(REPO_ROOT, 'deploy');
  const environment = env.DEPLOY_ENV || 'production';
  if (!ENVIRONMENT_NAME_PATTERN.test(environment)) {
    throw new Error(`DEPLOY_ENV must be lowercase letters, digits and dashes, got "${environment}"`);
  }
  return {
    root: REPO_ROOT,
    store,
    deployDir,
    environment,
    manifestFile: path.join(deployDir, `${environment}.json`),
    auditFile: path.join(deployDir, `${environment}.audit.jsonl`),
    lockFile: path.join(deployDir, `${environment}.lock`),
  };
}

/** The folder of one released version (the version id is checked, so it can never escape the store). */
export function releaseDir(store: string, remote: RemotePackage, version: string): string {
  if (!isVersionId(version)) throw new Error(`"${version}" is not a release version id`);
  return path.join(store, remote, version);
}

/** A version counts as released once its release.json exists (written last, after every file). */
export function isReleased(store: string, remote: RemotePackage, version: string): boolean {
  return isVersionId(version) && fs.existsSync(path.join(releaseDir(store, remote, version), 'release.json'));
}

/** The manifest on disk, validated; null when the environment has none yet. */
export function readManifestFile(file: string): DeploymentManifest | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  return parseManifest(JSON.parse(text));
}

/** Audit entries, newest first (the file is append-only JSON lines). Unparseable lines are skipped. */
export function readAuditLog(
  file: string,
  { remote, limit = 200 }: { remote?: string; limit?: number } = {},
) {
  let text = '';
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const entries: Record<string, unknown>[] = [];
  for (const line of text.split('\n').reverse()) {
    if (!line.trim()) continue;
    try {
      const entry = JSON.parse(line) as Record<string, unknown>;
      if (!remote || entry.remote === remote) entries.push(entry);
    } catch {
      // a torn last line from a crash is not worth failing a read
    }
    if (entries.length >= limit) break;
  }
  return entries;
}

/** A secret file's content, creating it (random, owner-only) when there is none; the first writer wins. */
function ensureSecretFile(file: string): string {
  const read = () => {
    try {
      return fs.readFileSync(file, 'utf8').trim() || null;
    } catch {
      return null;
    }
  };
  const existing = read();
  if (existing) return existing;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  try {
    fs.writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return read() as string;
}

/**
 * The key the edge signs its visitor cookie with, which the API needs too (health tickets): EDGE_SECRET, else
 * the deploy folder's edge-secret file (created on first use). Read by the API and by what starts edges
 * (`pnpm start`, the cluster), which hand it to each edge as EDGE_SECRET: the edge never reads the folder.
 */
export function ensureEdgeSecret(paths: RolloutPaths, env: Record<string, string | undefined> = process.env) {
  return env.EDGE_SECRET || ensureSecretFile(path.join(paths.deployDir, 'edge-secret'));
}

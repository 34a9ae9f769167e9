import { LIMITS } from '@app/contracts';
import { EXPOSED_MODULE, REMOTE_NAMES, type RemoteEntryModule, type RemoteName } from '@app/federation';
import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import type { RuntimeConfig } from '../config/runtime-config';
import { pickRemoteUrl, rolloutBucket } from './canary';

/**
 * Remotes are registered at run time from config.json (docs/decisions/0002-runtime-config.md): the shell
 * build knows only their names. A remote's manifest is fetched the first time one of its routes renders.
 */
let entries: Record<RemoteName, string> | null = null;

export function registerAllRemotes(config: RuntimeConfig): void {
  const bucket = rolloutBucket();
  entries = Object.fromEntries(
    REMOTE_NAMES.map((name) => [name, pickRemoteUrl(config.remotes[name], bucket)]),
  ) as Record<RemoteName, string>;
  registerRemotes(REMOTE_NAMES.map((name) => ({ name, entry: entries![name] })));
}

export class RemoteTimeoutError extends Error {
  override readonly name = 'RemoteTimeoutError';
}

function withTimeout<T>(promise: Promise<T>, ms: number, name: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new RemoteTimeoutError(`${name} did not load within ${ms / 1000} s`)),
      ms,
    );
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/**
 * Loads `${name}/App`. With `fresh`, the remote is registered again first, which drops the runtime's
 * cached (failed) manifest and entry so a Retry really asks the server again, without a page reload.
 */
export async function loadRemoteApp<P>(name: RemoteName, fresh = false): Promise<RemoteEntryModule<P>> {
  if (!entries) throw new Error('registerAllRemotes() must run before a remote is loaded');
  if (fresh) registerRemotes([{ name, entry: entries[name] }], { force: true });
  const id = `${name}/${EXPOSED_MODULE.replace('./', '')}`;
  const module = await withTimeout(loadRemote<RemoteEntryModule<P>>(id), LIMITS.lazyLoadTimeoutMs, name);
  if (!module || typeof module.default !== 'function') throw new Error(`${name} did not expose a component`);
  return module;
}

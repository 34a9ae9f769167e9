import { EXPOSED_MODULE, REMOTE_NAMES, type RemoteEntryModule, type RemoteName } from '@app/federation';
import type { RemoteChoice } from '@app/rollout';
import { loadRemote, registerPlugins, registerRemotes } from '@module-federation/enhanced/runtime';
import { reportHealth } from '../rollout/health';
import { noteOverrideFailed } from '../rollout/override-status';
import type { RolloutState } from '../rollout/prepare';
import { entryIntegrityPlugin, pinEntry } from './entry-integrity';

/**
 * Remotes are registered at run time (docs/decisions/0002-runtime-config.md, 0009-staged-rollouts.md): the
 * shell build knows only their names; which build of each one this visitor gets is the rollout plan. A
 * remote's manifest is fetched the first time one of its routes renders.
 */
let plan: Record<RemoteName, RemoteChoice> | null = null;
let canaryBudgetMs = 8000;
let loadBudgetMs = 10_000;
let pluginRegistered = false;

export function registerAllRemotes(
  state: Pick<RolloutState, 'plan' | 'canaryBudgetMs'> & Partial<Pick<RolloutState, 'loadBudgetMs'>>,
): void {
  plan = { ...state.plan };
  canaryBudgetMs = state.canaryBudgetMs;
  loadBudgetMs = state.loadBudgetMs ?? loadBudgetMs;
  if (!pluginRegistered) {
    registerPlugins([entryIntegrityPlugin()]);
    pluginRegistered = true;
  }
  for (const name of REMOTE_NAMES) pinEntry(state.plan[name].entry, state.plan[name].integrity);
  registerRemotes(REMOTE_NAMES.map((name) => ({ name, entry: state.plan[name].entry })));
}

export function currentChoice(name: RemoteName): RemoteChoice {
  if (!plan) throw new Error('registerAllRemotes() must run before a remote is loaded');
  return plan[name];
}

export class RemoteTimeoutError extends Error {
  override readonly name = 'RemoteTimeoutError';
}

/** A remote that could not be loaded at all (as opposed to one that loaded and then failed to render). */
export class RemoteLoadError extends Error {
  override readonly name = 'RemoteLoadError';
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

function clearGlobal(key: string): void {
  const global = globalThis as unknown as Record<string, unknown>;
  if (global[key] === undefined) return;
  if (Object.getOwnPropertyDescriptor(global, key)?.configurable) delete global[key];
  else global[key] = undefined;
}

/**
 * Two builds of one remote share a webpack chunk array (`webpackChunk<name>`) and their module ids, and the
 * runtime starts a build's chunks in parallel with its entry. Chunks of a build that failed may therefore run
 * after the replacement's entry took over the array, and would install the failed build's modules under the
 * replacement. The new array drops every push made by a script from the failed build's folder.
 */
function quarantineChunks(name: RemoteName, failedEntry: string): void {
  const failedFolder = new URL('.', new URL(failedEntry, window.location.href)).href;
  const chunks: unknown[] = [];
  const append = Array.prototype.push.bind(chunks);
  let installed: ((...items: unknown[]) => number) | null = null;
  const fromFailedBuild = () => {
    const script = document.currentScript;
    return script instanceof HTMLScriptElement && script.src.startsWith(failedFolder);
  };
  Object.defineProperty(chunks, 'push', {
    configurable: true,
    // webpack's runtime reads `push` once to keep as its parent (it must get the plain append, or its own
    // callback would call itself), then sets its callback, which every later chunk script calls.
    get: () => {
      const next = installed ?? append;
      return (...items: unknown[]) => (fromFailedBuild() ? chunks.length : next(...items));
    },
    set: (callback: (...items: unknown[]) => number) => {
      installed = callback;
    },
  });
  (globalThis as unknown as Record<string, unknown>)[`webpackChunk${name}`] = chunks;
}

/**
 * Registers the remote again, which drops the runtime's cached manifest and entry so the next load really
 * asks the server (Retry, or a switch to stable). The container global a failed build may have left is
 * cleared too: the runtime would reuse it instead of loading the new entry.
 */
function registerAgain(name: RemoteName): void {
  clearGlobal(name);
  const { entry, integrity } = currentChoice(name);
  pinEntry(entry, integrity);
  registerRemotes([{ name, entry }], { force: true });
}

/**
 * A canary or preview that failed this visitor is replaced by the stable version for the rest of the page's
 * life, without a reload. Returns false when the remote already is on its last resort.
 */
export function fallBackToStable(name: RemoteName): boolean {
  const choice = currentChoice(name);
  if (!choice.fallback || !plan) return false;
  plan[name] = { remote: choice.remote, ...choice.fallback, fallback: null };
  quarantineChunks(name, choice.entry);
  registerAgain(name);
  return true;
}

async function loadOnce<P>(name: RemoteName, choice: RemoteChoice, timeoutMs: number) {
  const started = performance.now();
  const id = `${name}/${EXPOSED_MODULE.replace('./', '')}`;
  try {
    if (choice.version && !choice.integrity) {
      throw new RemoteLoadError(`${choice.remote} ${choice.version} has no recorded entry digest`);
    }
    const module = await withTimeout(loadRemote<RemoteEntryModule<P>>(id), timeoutMs, name);
    if (!module || typeof module.default !== 'function')
      throw new Error(`${name} did not expose a component`);
    reportHealth(choice, 'load', performance.now() - started);
    return module;
  } catch (error) {
    reportHealth(choice, 'load-failure', performance.now() - started);
    throw error;
  }
}

/**
 * Loads `${name}/App` from the visitor's version. A canary or preview gets a short budget (8 s by default)
 * and, when it fails, the stable version is loaded instead; the last resort gets config.json's
 * remoteLoadBudgetMs (10 s by default, at most SPEC's 120 s) before its region offers Retry.
 * With `fresh`, the remote is registered again first (Retry without a page reload).
 */
export async function loadRemoteApp<P>(name: RemoteName, fresh = false): Promise<RemoteEntryModule<P>> {
  if (fresh) registerAgain(name);
  const choice = currentChoice(name);
  if (choice.fallback) {
    try {
      return await loadOnce<P>(name, choice, canaryBudgetMs);
    } catch (error) {
      console.warn(
        `${choice.remote} ${choice.version ?? choice.entry} (${choice.track}) failed; loading the stable version`,
        error,
      );
      // A dev server that is not running: the banner tells the developer the live version is shown.
      if (choice.track === 'override') noteOverrideFailed();
      fallBackToStable(name);
    }
  }
  try {
    return await loadOnce<P>(name, currentChoice(name), loadBudgetMs);
  } catch (error) {
    throw new RemoteLoadError(error instanceof Error ? error.message : String(error), { cause: error });
  }
}

import { LIMITS } from '@app/contracts';
import { EXPOSED_MODULE, REMOTE_NAMES, type RemoteEntryModule, type RemoteName } from '@app/federation';
import {
  loadRemote,
  type ModuleFederationRuntimePlugin,
  registerPlugins,
  registerRemotes,
} from '@module-federation/enhanced/runtime';
import { reportHealth } from '../rollout/health';
import type { RemoteChoice } from '../rollout/plan';
import type { RolloutState } from '../rollout/prepare';

/**
 * Remotes are registered at run time (docs/decisions/0002-runtime-config.md, 0009-staged-rollouts.md): the
 * shell build knows only their names; which build of each one this visitor gets is the rollout plan. A
 * remote's manifest is fetched the first time one of its routes renders.
 */
let plan: Record<RemoteName, RemoteChoice> | null = null;
let canaryBudgetMs = 8000;

/**
 * The runtime starts a remote's exposed chunks as scripts in parallel with its entry (a speed-up). For a
 * canary or preview that may fail, those chunks would run and leave the failed build's modules in the
 * remote's chunk array, where the stable build that replaces it would pick them up. So builds that may be
 * replaced load their chunks only through their own entry.
 */
const noPreloadForReplaceableBuilds: ModuleFederationRuntimePlugin = {
  name: 'rollout-no-preload-for-replaceable-builds',
  beforePreloadRemote(args) {
    for (let i = args.preloadOps.length - 1; i >= 0; i--) {
      const op = args.preloadOps[i];
      const name = op?.nameOrAlias as RemoteName | undefined;
      if (name && plan?.[name]?.fallback) args.preloadOps.splice(i, 1);
    }
  },
};

export function registerAllRemotes(state: Pick<RolloutState, 'plan' | 'canaryBudgetMs'>): void {
  plan = { ...state.plan };
  canaryBudgetMs = state.canaryBudgetMs;
  registerPlugins([noPreloadForReplaceableBuilds]);
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
 * Registers the remote again, which drops the runtime's cached manifest and entry so the next load really
 * asks the server (Retry, or a switch to stable). A failed build may have left two globals behind: its
 * container (the runtime would reuse it instead of loading the new entry) and its webpack chunk array
 * (the new entry would install the failed build's modules from it, as ids are the same across builds).
 */
function registerAgain(name: RemoteName): void {
  clearGlobal(name);
  clearGlobal(`webpackChunk${name}`);
  registerRemotes([{ name, entry: currentChoice(name).entry }], { force: true });
}

/**
 * A canary or preview that failed this visitor is replaced by the stable version for the rest of the page's
 * life, without a reload. Returns false when the remote already is on its last resort.
 */
export function fallBackToStable(name: RemoteName): boolean {
  const choice = currentChoice(name);
  if (!choice.fallback || !plan) return false;
  plan[name] = { remote: choice.remote, ...choice.fallback, fallback: null };
  registerAgain(name);
  return true;
}

async function loadOnce<P>(name: RemoteName, choice: RemoteChoice, timeoutMs: number) {
  const started = performance.now();
  const id = `${name}/${EXPOSED_MODULE.replace('./', '')}`;
  try {
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
 * Loads `${name}/App` from the visitor's version. A canary or preview gets a short budget (8 s by default,
 * well below the 120 s a stable load may take) and, when it fails, the stable version is loaded instead.
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
        `${choice.remote} ${choice.version} (${choice.track}) failed; loading the stable version`,
        error,
      );
      fallBackToStable(name);
    }
  }
  try {
    return await loadOnce<P>(name, currentChoice(name), LIMITS.lazyLoadTimeoutMs);
  } catch (error) {
    throw new RemoteLoadError(error instanceof Error ? error.message : String(error), { cause: error });
  }
}

// What a release's server code can reach inside its worker, beyond what the OS and Node's permission model
// already refuse (docs/decisions/0036-render-sandbox.md). Node 20's permission model stops files, child
// processes, workers, addons and the inspector, but not the network nor signals to other processes; where the
// worker has no network or PID namespace of its own (launch.ts says when), this is what stands in the way.
// JavaScript is not a security boundary on its own: this is the second wall, the namespaces are the first.

/** Node's modules a bundled React renderer needs (react-dom/server, emotion, DOMPurify): nothing with I/O. */
const ALLOWED_MODULES = new Set([
  'assert',
  'async_hooks',
  'buffer',
  'crypto',
  'events',
  'path',
  'punycode',
  'querystring',
  'stream',
  'stream/web',
  'string_decoder',
  'timers',
  'url',
  'util',
  'util/types',
  'zlib',
]);

export class SandboxRefusal extends Error {
  override readonly name = 'SandboxRefusal';
}

/** The one way release code gets a Node module: by name, from the list above, else a refusal it can see. */
export function guardedRequire(load: (id: string) => unknown): (id: string) => unknown {
  return (id: string) => {
    const name = String(id).replace(/^node:/, '');
    if (!ALLOWED_MODULES.has(name)) {
      throw new SandboxRefusal(
        `"${id}" is not available to a server render (only ${[...ALLOWED_MODULES].join(', ')})`,
      );
    }
    return load(`node:${name}`);
  };
}

const refuse = (what: string) => () => {
  throw new SandboxRefusal(`${what} is not available to a server render`);
};

function replace(target: object, key: string, value: unknown) {
  try {
    Object.defineProperty(target, key, { value, writable: false, configurable: false, enumerable: false });
  } catch {
    // A property that cannot be redefined is deleted instead; neither may leave it reachable.
    Reflect.deleteProperty(target, key);
  }
}

/**
 * Takes away, before any release code runs: the network globals (fetch, WebSocket, EventSource), the ways to
 * a module outside the list (process.getBuiltinModule), signals to other processes (process.kill and its
 * internals, _debugProcess, which starts another process's inspector), and the worker's own handles.
 */
export function lockDownProcess(load: (id: string) => unknown): void {
  for (const name of ['fetch', 'WebSocket', 'EventSource']) Reflect.deleteProperty(globalThis, name);
  const proc = process as unknown as Record<string, unknown>;
  replace(proc, 'getBuiltinModule', guardedRequire(load));
  for (const name of [
    'kill',
    '_kill',
    '_debugProcess',
    '_debugEnd',
    '_getActiveHandles',
    '_getActiveRequests',
    'dlopen',
    'binding',
    '_linkedBinding',
    'chdir',
    'setuid',
    'setgid',
    'seteuid',
    'setegid',
    'setgroups',
    'initgroups',
  ]) {
    replace(proc, name, refuse(`process.${name}`));
  }
}

/** A DOM window for the renderer with nothing in it that talks to the network (jsdom's XHR and WebSocket). */
export function withoutNetwork<T extends object>(window: T): T {
  for (const name of ['XMLHttpRequest', 'WebSocket', 'EventSource', 'fetch']) {
    Reflect.deleteProperty(window, name);
  }
  return window;
}

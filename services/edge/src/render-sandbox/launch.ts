// How a render worker process is started (docs/decisions/0036-render-sandbox.md), from the outside in:
//   prlimit   writable memory and CPU time capped (util-linux; a Buffer past the cap fails to allocate)
//   unshare   a user, network and PID namespace of its own: no network at all, no other process to signal
//             (util-linux; needs unprivileged user namespaces, which Debian allows; probed once, see below)
//   node      the permission model: reads only the worker's own file, jsdom's folders and the release's
//             folder; no writes, child processes, workers, addons or inspector; a heap cap; no eval
// and an environment holding nothing but NODE_ENV. Without prlimit or unshare (another OS, namespaces
// refused) the worker still starts, with what remains, and `isolation` says what was missing.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export interface SandboxLimits {
  /** The worker's V8 heap (--max-old-space-size), MiB. */
  heapMb: number;
  /**
   * Its writable memory (RLIMIT_DATA), MiB: heap, Buffers and everything else it allocates. Not RLIMIT_AS:
   * V8 reserves gigabytes of address space it never writes (WebAssembly's guard regions, which Node's own
   * fetch uses), so an address-space cap breaks Node long before memory runs short.
   */
  memoryMb: number;
  /** CPU seconds a worker may use in its life (RLIMIT_CPU): a worker that spins in the background ends. */
  cpuSeconds: number;
}

export const DEFAULT_LIMITS: SandboxLimits = { heapMb: 192, memoryMb: 512, cpuSeconds: 600 };

export interface Isolation {
  /** Own network namespace (no network) and PID namespace (no other process visible). */
  namespaces: boolean;
  /** Memory and CPU limits set by prlimit. */
  rlimits: boolean;
}

export interface LaunchPlan {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
}

const works = (command: string, args: string[]) => {
  try {
    return spawnSync(command, args, { stdio: 'ignore', timeout: 5000 }).status === 0;
  } catch {
    return false;
  }
};

const UNSHARE = ['--user', '--map-current-user', '--net', '--pid', '--fork', '--kill-child'];

let probed: Isolation | null = null;
/** What this machine lets the edge do, asked once per process (each probe starts a short process). */
export function probeIsolation(): Isolation {
  probed ??= {
    namespaces: works('unshare', [...UNSHARE, '--', 'true']),
    rlimits: works('prlimit', ['--data=unlimited', '--', 'true']),
  };
  return probed;
}

/**
 * The folders jsdom's code lives in: its package's folder in pnpm's store and, transitively, every folder
 * its dependencies' links point into. Read once; the worker may read these and nothing else of node_modules.
 */
function jsdomFolders(entry: string): string[] {
  const folders = new Set<string>();
  const queue = [fs.realpathSync(entry)];
  while (queue.length > 0) {
    let dir = path.dirname(queue.pop() as string);
    // Up to the node_modules folder that holds this package (and its siblings: its dependencies' links).
    while (path.basename(dir) !== 'node_modules' && path.dirname(dir) !== dir) dir = path.dirname(dir);
    if (path.basename(dir) !== 'node_modules' || folders.has(dir)) continue;
    folders.add(dir);
    for (const name of fs.readdirSync(dir)) {
      const names = name.startsWith('@')
        ? fs.readdirSync(path.join(dir, name)).map((child) => path.join(name, child))
        : name.startsWith('.')
          ? []
          : [name];
      for (const link of names) {
        try {
          queue.push(path.join(fs.realpathSync(path.join(dir, link)), 'package.json'));
        } catch {
          // a dangling link is nothing to read
        }
      }
    }
  }
  return [...folders];
}

let jsdom: { entry: string; folders: string[] } | null | undefined;
/** jsdom's entry file (by its real path, so no link outside the allowed folders is followed) and folders. */
export function jsdomFiles(): { entry: string; folders: string[] } | null {
  if (jsdom !== undefined) return jsdom;
  try {
    const entry = fs.realpathSync(createRequire(import.meta.url).resolve('jsdom'));
    jsdom = { entry, folders: jsdomFolders(entry) };
  } catch {
    jsdom = null; // no DOM to lend: a render that needs one fails, and the page keeps its picture
  }
  return jsdom;
}

/** The command that starts one release's worker. */
export function launchPlan(o: {
  workerScript: string;
  rendererFile: string;
  releaseFolder: string;
  limits: SandboxLimits;
  isolation: Isolation;
}): LaunchPlan {
  const dom = jsdomFiles();
  const reads = [o.workerScript, o.releaseFolder, ...(dom?.folders ?? [])];
  const node = [
    '--experimental-permission',
    ...reads.map((read) => `--allow-fs-read=${read}`),
    '--no-addons',
    '--experimental-vm-modules',
    '--disallow-code-generation-from-strings',
    `--max-old-space-size=${o.limits.heapMb}`,
    // The permission model and vm modules announce themselves as experimental on every start.
    '--no-warnings',
    o.workerScript,
    o.rendererFile,
    dom?.entry ?? '',
  ];
  let command = process.execPath;
  let args = node;
  if (o.isolation.namespaces) {
    args = [...UNSHARE, '--', command, ...args];
    command = 'unshare';
  }
  if (o.isolation.rlimits) {
    const bytes = o.limits.memoryMb * 1024 * 1024;
    args = [`--data=${bytes}`, `--cpu=${o.limits.cpuSeconds}`, '--nofile=64', '--', command, ...args];
    command = 'prlimit';
  }
  return { command, args, env: { NODE_ENV: 'production' }, cwd: o.releaseFolder };
}

import { nextTask } from './early/next-task';
import { preloadRouteRemote } from './early/preload-route-remote';

declare const __webpack_init_sharing__: (scope: string) => Promise<void>;

/**
 * Start-up in tasks of their own (Total Blocking Time counts every task past 50 ms on a slow phone): this
 * script's evaluation (the federation runtime) is already long, and so is each step after it.
 * 1. The route's remote starts loading (see preload-route-remote.ts): the earliest request the shell makes.
 * 2. The shell's shared modules are registered in the federation's share scope.
 * 3. Bootstrap is imported: an async boundary, so Module Federation negotiates the shared modules (from the
 *    scope now ready) before bootstrap imports React.
 */
async function start() {
  await nextTask();
  void preloadRouteRemote();
  await nextTask();
  void __webpack_init_sharing__('default');
  await nextTask();
  await import('./bootstrap');
}

void start();

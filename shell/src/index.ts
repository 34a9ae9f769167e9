import { preloadRouteRemote } from './early/preload-route-remote';

// Before anything else: start fetching the route's remote (see preload-route-remote.ts).
void preloadRouteRemote();
// An async boundary: Module Federation negotiates shared modules before bootstrap imports React. In a task
// of its own: the first script's evaluation is already long on a slow phone (the federation runtime).
setTimeout(() => import('./bootstrap'), 0);

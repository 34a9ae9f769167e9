/**
 * Each app records the React it was built against. With React shared as a singleton every app hands in
 * the same object; two entries mean two copies of React were loaded (a bug the e2e suite checks for).
 */
const registry = globalThis as { __APP_REACT_COPIES__?: Set<unknown> };

export function registerReactCopy(react: unknown): void {
  registry.__APP_REACT_COPIES__ ??= new Set();
  registry.__APP_REACT_COPIES__.add(react);
}
